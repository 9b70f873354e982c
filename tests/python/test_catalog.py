"""The package's surface made from the definitions: one function per operator with CANN's
parameters in snake_case, ops() and info()."""

import inspect

import numpy as np

import openaclnn
from openaclnn import _core
from openaclnn._catalog import snake_case


def test_one_function_per_definition():
    names = [d["name"] for d in _core.definitions()]
    assert [op.name for op in openaclnn.ops()] == names
    for op in openaclnn.ops():
        function = getattr(openaclnn, op.function)
        assert function.op is op and function.__name__ == op.function
        assert op.api in function.__doc__
        params = list(inspect.signature(function).parameters)
        expected = [p.python_name for p in op.params if p.kind != "output"]
        assert params == expected + ["out", "dtype", "format", "impl", "threads"]
        assert op.impls[-1] == "reference"
        assert openaclnn.ops(op.api) is op and openaclnn.ops(op.function) is op


def test_snake_case():
    assert snake_case("SmoothL1LossBackward") == "smooth_l1_loss_backward"
    assert snake_case("gradOutput") == "grad_output"
    assert snake_case("AdaptiveMaxPool2d") == "adaptive_max_pool2d"
    assert snake_case("NLLLoss") == "nll_loss"
    assert snake_case("cubeMathType") == "cube_math_type"
    assert snake_case("self") == "self"


def test_param_info():
    op = openaclnn.ops("SmoothL1LossBackward")
    reduction = op.param("reduction")
    assert reduction.kind == "integer" and reduction.default == "mean"
    assert reduction.choices == {"none": 0, "mean": 1, "sum": 2}
    assert op.param("beta").default == 1.0
    assert op.param("gradOutput").dtypes == ("float32", "float16", "bfloat16")
    assert [p.name for p in op.outputs] == ["gradInput"]
    assert "reduction" in str(op) and "implementations" in str(op)


def test_info():
    info = openaclnn.info()
    assert info.version == openaclnn.__version__
    assert info.threads >= 1 and info.simd and info.simd_targets
    assert info.operators == len(openaclnn.ops())
    assert "SIMD path" in str(info)


def test_run_accepts_every_spelling():
    x = np.ones(3, np.float32)
    for name in ("aclnnSmoothL1Loss", "SmoothL1Loss", "smooth_l1_loss"):
        assert openaclnn.run(name, x, x) == 0
