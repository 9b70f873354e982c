"""The catalog: every operator definition of the library as an OpInfo, read at import."""

import dataclasses
import re
from typing import Any, Dict, Tuple

from . import _core, _dtypes

# Keyword-only options every function takes after the operator's own parameters.
OPTIONS = ("out", "dtype", "format", "impl", "threads")


def snake_case(name):
    """CANN's camelCase or PascalCase as snake_case: gradOutput -> grad_output,
    SmoothL1LossBackward -> smooth_l1_loss_backward, NLLLoss -> nll_loss."""
    name = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name)
    name = re.sub(r"(?<=[A-Z])(?=[A-Z][a-z])", "_", name)
    return name.lower()


def loose(name):
    name = name.lower().replace("_", "").replace("-", "")
    return name[len("aclnn"):] if name.startswith("aclnn") else name


class _Required:
    def __repr__(self):
        return "<required>"


REQUIRED = _Required()


@dataclasses.dataclass(frozen=True)
class ParamInfo:
    """One parameter of an operator, as its definition describes it."""

    name: str  # CANN's: gradOutput
    python_name: str  # the function's: grad_output
    kind: str  # input, output, integer, real, flag, int_array, bool_array
    dtypes: Tuple[str, ...]  # tensors: what the checks accept
    rule: str  # shape, relation or range, in words
    optional: bool  # a tensor or array that may be None
    choices: Dict[str, int]  # named values of an integer attribute (reduction's none/mean/sum)
    default: Any  # REQUIRED when there is none; None for optional tensors

    def __str__(self):
        text = "%-16s %-10s" % (self.python_name, self.kind)
        if self.dtypes:
            text += " " + ", ".join(self.dtypes) + ";"
        if self.choices:
            text += " " + "/".join(self.choices) + ";"
        text += " " + self.rule
        if self.default is not REQUIRED and self.kind not in ("input", "output"):
            text += " (default %r)" % (self.default,)
        elif self.optional:
            text += " (optional)"
        return text


@dataclasses.dataclass(frozen=True)
class OpInfo:
    """An operator of the library: its names, parameters, checks and implementations."""

    name: str  # SmoothL1LossBackward
    api: str  # aclnnSmoothL1LossBackward
    function: str  # smooth_l1_loss_backward
    header: str
    summary: str
    params: Tuple[ParamInfo, ...]
    checks: Tuple[str, ...]  # the contract's rules, in the order they are checked
    impls: Tuple[str, ...]  # fastest first; "reference" last

    def __str__(self):
        lines = ["%s (%s, openaclnn.%s): %s" % (self.api, self.header, self.function, self.summary)]
        lines += ["  " + str(p) for p in self.params]
        lines.append("  checks, in order:")
        lines += ["    %d. %s" % (k + 1, rule) for k, rule in enumerate(self.checks)]
        lines.append("  implementations: " + ", ".join(self.impls))
        return "\n".join(lines)

    def param(self, name):
        """The parameter called `name` (CANN's or the snake_case spelling); KeyError if none."""
        for p in self.params:
            if name in (p.name, p.python_name):
                return p
        raise KeyError(name)

    @property
    def outputs(self):
        return tuple(p for p in self.params if p.kind == "output")


def _param_info(raw):
    kind = raw["kind"]
    python_name = snake_case(raw["name"])
    if python_name in OPTIONS:
        python_name += "_"  # the options keep their names; the parameter gets a trailing _
    if "default" in raw:
        default = raw["default"]
        if kind == "integer" and raw["names"]:
            default = next((n for n, v in raw["names"] if v == default), default)
    elif raw["optional"]:
        default = None
    else:
        default = REQUIRED
    return ParamInfo(raw["name"], python_name, kind,
                     tuple(_dtypes.name(code) for code in raw["dtypes"]), raw["rule"],
                     raw["optional"], dict(raw["names"]), default)


def _op_info(raw):
    return OpInfo(raw["name"], raw["api"], snake_case(raw["name"]), raw["header"], raw["summary"],
                  tuple(_param_info(p) for p in raw["params"]), tuple(raw["checks"]),
                  tuple(raw["impls"]))


OPS = tuple(_op_info(raw) for raw in _core.definitions())


def ops(name=None):
    """The catalog: every operator's OpInfo, in name order; with a name (CANN's, with or without
    aclnn, or the function's), that operator's."""
    if name is None:
        return list(OPS)
    return find(name)


def find(name):
    if not isinstance(name, str):
        raise TypeError("an operator name is a string, got %r" % (name,))
    for op in OPS:
        if loose(name) in (loose(op.name), loose(op.function)):
            return op
    raise ValueError("unknown operator %r (operators: %s)" %
                     (name, ", ".join(op.name for op in OPS)))
