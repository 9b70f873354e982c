"""What goes wrong, said clearly: the library's rejections as openaclnn.Error with CANN's code and
the library's message, wrong Python arguments as TypeError/ValueError before anything runs."""

import numpy as np
import pytest

import openaclnn

X = np.ones((2, 3), np.float32)


def test_library_rejection_is_an_error_with_code_and_message():
    with pytest.raises(openaclnn.Error) as raised:
        openaclnn.smooth_l1_loss(X.astype(np.int32), X)
    error = raised.value
    assert error.code == 161002
    assert error.api == "aclnnSmoothL1LossGetWorkspaceSize"
    assert "self" in error.message and "INT32" in error.message
    assert str(error).startswith("aclnnSmoothL1LossGetWorkspaceSize failed with 161002: ")


def test_null_tensor_is_161001():
    with pytest.raises(openaclnn.Error) as raised:
        openaclnn.smooth_l1_loss(None, X)
    assert raised.value.code == 161001 and "self" in raised.value.message


@pytest.mark.parametrize("kwargs,fragment", [
    ({"beta": -1.0}, "beta"),
    ({"reduction": 7}, "reduction"),
])
def test_attribute_rejections(kwargs, fragment):
    with pytest.raises(openaclnn.Error) as raised:
        openaclnn.smooth_l1_loss(X, X, **kwargs)
    assert raised.value.code == 161002 and fragment in raised.value.message


def test_shapes_that_do_not_broadcast():
    with pytest.raises(openaclnn.Error) as raised:
        openaclnn.smooth_l1_loss(X, np.ones((4, 5), np.float32), reduction="none")
    assert raised.value.code == 161002


def test_wrong_output_shape():
    with pytest.raises(openaclnn.Error) as raised:
        openaclnn.smooth_l1_loss(X, X, reduction="none", out=np.empty((3, 2), np.float32))
    assert raised.value.code == 161002 and "result" in raised.value.message


@pytest.mark.parametrize("call,error,fragment", [
    (lambda: openaclnn.smooth_l1_loss([1.0, 2.0], X), TypeError, "numpy array or a torch"),
    (lambda: openaclnn.smooth_l1_loss(X), TypeError, "missing required argument 'target'"),
    (lambda: openaclnn.smooth_l1_loss(X, X, bogus=1), TypeError, "unexpected keyword"),
    (lambda: openaclnn.smooth_l1_loss(X, X, 1, 1.0, 5), TypeError, "positional"),
    (lambda: openaclnn.smooth_l1_loss(X, X, self=X), TypeError, "multiple values"),
    (lambda: openaclnn.smooth_l1_loss(X, X, reduction="avg"), ValueError, "'none', 'mean', 'sum'"),
    (lambda: openaclnn.smooth_l1_loss(X, X, reduction=1.0), TypeError, "integer"),
    (lambda: openaclnn.smooth_l1_loss(X, X, reduction=True), TypeError, "integer"),
    (lambda: openaclnn.smooth_l1_loss(X, X, reduction=1 << 70), ValueError, "int64"),
    (lambda: openaclnn.smooth_l1_loss(X, X, beta="1"), TypeError, "number"),
    (lambda: openaclnn.smooth_l1_loss(X, X, impl="fast"), ValueError, "implementations"),
    (lambda: openaclnn.smooth_l1_loss(X, X, threads=0), ValueError, "threads"),
    (lambda: openaclnn.smooth_l1_loss(X, X, dtype="float128x"), TypeError, "dtype"),
    (lambda: openaclnn.smooth_l1_loss(X, X, dtype="float"), ValueError, "ambiguous"),
    (lambda: openaclnn.smooth_l1_loss(X, X, dtype={"nope": "bf16"}), TypeError, "no parameter"),
    (lambda: openaclnn.smooth_l1_loss(X, X, dtype={"beta": "bf16"}), TypeError, "no tensor"),
    (lambda: openaclnn.smooth_l1_loss(X, X, dtype={"self": "bf16"}), ValueError, "does not fit"),
    (lambda: openaclnn.smooth_l1_loss(X, X, format="NCHWX"), ValueError, "unknown format"),
    (lambda: openaclnn.smooth_l1_loss(X, X, out=(X, X)), TypeError, "out="),
    (lambda: openaclnn.run("NoSuchOp", X), ValueError, "unknown operator"),
    (lambda: openaclnn.smooth_l1_loss(X.astype(object), X), TypeError, "no aclDataType"),
])
def test_bad_python_input(call, error, fragment):
    with pytest.raises(error, match=fragment):
        call()


def test_read_only_out_is_a_value_error():
    out = np.empty((2, 3), np.float32)
    out.setflags(write=False)
    with pytest.raises(ValueError, match="read-only"):
        openaclnn.smooth_l1_loss(X, X, reduction="none", out=out)


def test_errors_leave_the_package_usable():
    for _ in range(3):
        with pytest.raises(openaclnn.Error):
            openaclnn.smooth_l1_loss(X.astype(np.int64), X)
    assert openaclnn.smooth_l1_loss(X, X) == 0
