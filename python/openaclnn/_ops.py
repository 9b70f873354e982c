"""One Python function per operator definition of the library, made at import.

Each function takes the operator's inputs and attributes in CANN's order under their snake_case
names (positionally or by keyword; CANN's own spelling works as a keyword too), computes the
outputs' shapes and dtypes as the definition infers them, runs both phases through the library and
returns the outputs."""

import collections
import inspect
import operator

from . import _arrays, _core, _dtypes
from ._catalog import OPS, OPTIONS, REQUIRED, find
from ._errors import Error


def _is_int(value):
    return isinstance(value, int) and not isinstance(value, bool) or (
        type(value).__module__ == "numpy" and hasattr(value, "dtype") and value.dtype.kind in "iu"
        and getattr(value, "ndim", 1) == 0)


def _int64(value, what):
    value = operator.index(value)
    if not -(1 << 63) <= value < (1 << 63):
        raise ValueError("%s: %d does not fit in int64" % (what, value))
    return value


def _attribute(fn, p, value):
    what = "%s(): %s" % (fn, p.python_name)
    if p.kind == "integer":
        if isinstance(value, str) and p.choices:
            for choice, number in p.choices.items():
                if value.lower() == choice.lower():
                    return number
            raise ValueError("%s must be one of %s or an integer, got %r" %
                             (what, ", ".join(repr(c) for c in p.choices), value))
        if not _is_int(value):
            named = " or one of " + ", ".join(repr(c) for c in p.choices) if p.choices else ""
            raise TypeError("%s expects an integer%s, got %r" % (what, named, value))
        return _int64(value, what)
    if p.kind == "real":
        if isinstance(value, bool) or not isinstance(value, (int, float)) and not (
                hasattr(value, "dtype") and getattr(value, "ndim", 1) == 0
                and value.dtype.kind in "fiu"):
            raise TypeError("%s expects a number, got %r" % (what, value))
        return float(value)
    if p.kind == "flag":
        if not isinstance(value, bool) and type(value).__name__ != "bool_":
            raise TypeError("%s expects True or False, got %r" % (what, value))
        return bool(value)
    if p.kind in ("int_array", "bool_array"):
        if value is None:
            return None  # a null array: the library says whether that is allowed
        if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
            raise TypeError("%s expects a list, got %r" % (what, value))
        items = list(value)
        if p.kind == "int_array":
            if not all(_is_int(v) for v in items):
                raise TypeError("%s expects a list of integers, got %r" % (what, value))
            return [_int64(v, what) for v in items]
        if not all(isinstance(v, bool) or type(v).__name__ == "bool_" for v in items):
            raise TypeError("%s expects a list of True/False, got %r" % (what, value))
        return [bool(v) for v in items]
    raise TypeError("%s: parameters of kind %s are not supported" % (what, p.kind))


def _bind(op, args, kwargs):
    """{python_name: value} of what the caller gave, by position (CANN's order, outputs left out)
    and by keyword (snake_case or CANN's name)."""
    positional = [p for p in op.params if p.kind != "output"]
    if len(args) > len(positional):
        raise TypeError("%s() takes at most %d positional arguments (%d given)" %
                        (op.function, len(positional), len(args)))
    given = {p.python_name: v for p, v in zip(positional, args)}
    for key, value in kwargs.items():
        match = next((p for p in positional if key in (p.python_name, p.name)), None)
        if match is None:
            raise TypeError("%s() got an unexpected keyword argument %r (parameters: %s; "
                            "options: %s)" % (op.function, key,
                                              ", ".join(p.python_name for p in positional),
                                              ", ".join(OPTIONS)))
        if match.python_name in given:
            raise TypeError("%s() got multiple values for argument %r" %
                            (op.function, match.python_name))
        given[match.python_name] = value
    return given


def _per_tensor(op, option, value, parse):
    """{name: code} of an option given once (key None) or per tensor as a dict."""
    if value is None:
        return {}
    if not isinstance(value, dict):
        return {None: parse(value)}
    per = {}
    for key, item in value.items():
        try:
            p = op.param(key)
        except KeyError:
            raise TypeError("%s(): %s= names %r, which is no parameter (tensors: %s)" %
                            (op.function, option, key,
                             ", ".join(q.python_name for q in op.params
                                       if q.kind in ("input", "output")))) from None
        if p.kind not in ("input", "output"):
            raise TypeError("%s(): %s= names %r, which is no tensor" % (op.function, option, key))
        per[p.python_name] = parse(item)
    return per


def _outs(op, out):
    """{python_name: array} of the out= arrays."""
    outputs = op.outputs
    if out is None:
        return {}
    if isinstance(out, dict):
        named = {}
        for key, value in out.items():
            match = next((p for p in outputs if key in (p.python_name, p.name)), None)
            if match is None:
                raise TypeError("%s(): out= names %r, which is no output (outputs: %s)" %
                                (op.function, key, ", ".join(p.python_name for p in outputs)))
            named[match.python_name] = value
        return {k: v for k, v in named.items() if v is not None}
    if isinstance(out, (tuple, list)):
        if len(out) != len(outputs):
            raise TypeError("%s(): out= has %d arrays, the operator %d outputs (%s)" %
                            (op.function, len(out), len(outputs),
                             ", ".join(p.python_name for p in outputs)))
        return {p.python_name: v for p, v in zip(outputs, out) if v is not None}
    if len(outputs) != 1:
        raise TypeError("%s(): out= needs a tuple or dict for its %d outputs (%s)" %
                        (op.function, len(outputs), ", ".join(p.python_name for p in outputs)))
    return {outputs[0].python_name: out}


def _result_type(op):
    names = [p.python_name for p in op.outputs]
    return collections.namedtuple(op.name + "Result", names, module="openaclnn") \
        if len(names) > 1 else None


_RESULT_TYPES = {op.name: _result_type(op) for op in OPS}


def call(op, args, kwargs):
    """Runs op on a call's Python arguments (see the module's docstring)."""
    options = {key: kwargs.pop(key) for key in OPTIONS if key in kwargs}
    given = _bind(op, args, kwargs)
    fn = op.function
    dtypes = _per_tensor(op, "dtype", options.get("dtype"), _dtypes.code)
    if None in dtypes:  # one dtype, for the one output
        if len(op.outputs) != 1:
            raise TypeError("%s(): dtype= needs a dict for the %d outputs (%s)" %
                            (fn, len(op.outputs), ", ".join(p.python_name for p in op.outputs)))
        dtypes = {op.outputs[0].python_name: dtypes[None]}
    formats = _per_tensor(op, "format", options.get("format"), _dtypes.format_code)
    outs = _outs(op, options.get("out"))
    impl = options.get("impl")
    if impl is not None and impl not in op.impls:
        raise ValueError("%s(): impl=%r: the implementations are %s" %
                         (fn, impl, ", ".join(op.impls)))
    threads = options.get("threads")
    if threads is not None and (not _is_int(threads) or threads < 1):
        raise ValueError("%s(): threads= must be a positive integer, got %r" % (fn, threads))

    as_torch = False
    call_args = []
    for p in op.params:
        fmt = formats.get(p.python_name, formats.get(None, -1))
        if p.kind == "input":
            value = given.get(p.python_name, p.default)
            if value is REQUIRED:
                raise TypeError("%s() missing required argument %r" % (fn, p.python_name))
            if value is None:
                call_args.append(None)  # a null tensor: the library says whether that is allowed
                continue
            array, code, from_torch = _arrays.host_view(value, "%s(): %s" % (fn, p.python_name),
                                                        dtypes.get(p.python_name))
            as_torch = as_torch or from_torch
            call_args.append((array, code, _dtypes.format_code("ND") if fmt < 0 else fmt))
        elif p.kind == "output":
            declared = dtypes.get(p.python_name)
            if p.python_name in outs:
                array, code, from_torch = _arrays.host_view(
                    outs[p.python_name], "%s(): out %s" % (fn, p.python_name), declared, True)
                as_torch = as_torch or from_torch
                call_args.append((array, code, fmt))
            else:
                call_args.append((None, -1 if declared is None else declared, fmt))
        else:
            value = given.get(p.python_name, p.default)
            if value is REQUIRED:
                raise TypeError("%s() missing required argument %r" % (fn, p.python_name))
            call_args.append(_attribute(fn, p, value))

    failure, produced = _core.call(op.api, call_args, impl or "", threads or 0)
    if failure is not None:
        api, code, message = failure
        if code == _core.IMPL_NOT_APPLIED:
            raise ValueError("%s(): %s" % (fn, message))
        raise Error(code, message, api)
    results = []
    for p, made in zip(op.outputs, produced):
        if p.python_name in outs:
            results.append(outs[p.python_name])
        elif made is None:
            results.append(None)
        else:
            results.append(_arrays.result(made[0], made[1], made[2], as_torch))
    result_type = _RESULT_TYPES[op.name]
    return result_type(*results) if result_type else results[0]


def _signature(op):
    params = []
    for p in op.params:
        if p.kind == "output":
            continue
        default = inspect.Parameter.empty if p.default is REQUIRED else p.default
        params.append(inspect.Parameter(p.python_name, inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                        default=default))
    # Python's signatures put no required parameter after one with a default; such a parameter
    # shows <required> as its default (and is still required).
    seen_default = False
    for k, param in enumerate(params):
        if param.default is not inspect.Parameter.empty:
            seen_default = True
        elif seen_default:
            params[k] = param.replace(default=REQUIRED)
    params += [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=None)
               for name in OPTIONS]
    return inspect.Signature(params)


def _docstring(op):
    outputs = op.outputs
    lines = ["%s: %s." % (op.api, op.summary), "", "Parameters (CANN's, in its order):"]
    lines += ["  " + str(p) for p in op.params if p.kind != "output"]
    lines += ["", "Returns %s:" % ("the output" if len(outputs) == 1 else
                                   "a namedtuple of the outputs (None for one not computed)")]
    lines += ["  " + str(p) for p in outputs]
    lines += [
        "",
        "Options: out= (the output array, or a tuple/dict of them, written in place and returned),",
        "dtype= (an output's dtype, or {name: dtype} for outputs and for inputs whose arrays hold",
        "bit patterns, e.g. {'self': 'bf16'} for uint16), format= ('NCHW', or {name: format}),",
        "impl= (%s), threads= (the thread count)." % ", ".join(repr(i) for i in op.impls),
        "",
        "Checks, in order:",
    ]
    lines += ["  %d. %s" % (k + 1, rule) for k, rule in enumerate(op.checks)]
    return "\n".join(lines)


def _function(op):
    def function(*args, **kwargs):
        return call(op, args, kwargs)

    function.__name__ = function.__qualname__ = op.function
    function.__module__ = "openaclnn"
    function.__doc__ = _docstring(op)
    function.__signature__ = _signature(op)
    function.op = op
    return function


FUNCTIONS = {op.function: _function(op) for op in OPS}


def run(name, *args, **kwargs):
    """Runs the operator `name` (CANN's name, with or without aclnn: "aclnnConvolution",
    "SmoothL1Loss", or the function's) with the arguments its function takes."""
    return FUNCTIONS[find(name).function](*args, **kwargs)
