"""torch CPU tensors through the package: torch in, torch out, bf16 included, strided views used
in place, the tensor's own memory written by out=."""

import numpy as np
import pytest

import openaclnn

torch = pytest.importorskip("torch")


def test_torch_in_torch_out():
    g, x, y = (torch.randn(4, 9) for _ in range(3))
    got = openaclnn.smooth_l1_loss_backward(g, x, y, reduction="none", beta=0.5)
    assert isinstance(got, torch.Tensor) and got.dtype == torch.float32 and got.shape == (4, 9)
    want = torch.nn.functional.smooth_l1_loss(x.requires_grad_(), y, reduction="none", beta=0.5)
    (grad,) = torch.autograd.grad(want, x, g)
    torch.testing.assert_close(got, grad, rtol=1e-6, atol=1e-7)


def test_matches_numpy():
    g, x, y = (torch.randn(3, 5) for _ in range(3))
    got = openaclnn.smooth_l1_loss_backward(g, x, y)
    assert np.array_equal(got.numpy(),
                          openaclnn.smooth_l1_loss_backward(g.numpy(), x.numpy(), y.numpy()))


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16, torch.float32])
def test_dtypes_round_trip(dtype):
    x = torch.randn(6, 7).to(dtype)
    y = torch.randn(6, 7).to(dtype)
    got = openaclnn.smooth_l1_loss(x, y, reduction="none")
    assert got.dtype == dtype
    want = torch.nn.functional.smooth_l1_loss(x.float(), y.float(), reduction="none").to(dtype)
    assert torch.equal(got, want)


def test_bf16_tensor_against_numpy_bits():
    x = torch.randn(3, 4).to(torch.bfloat16)
    bits = x.view(torch.int16).numpy().view(np.uint16)
    got = openaclnn.smooth_l1_loss(x, x * 0, reduction="none")
    from_numpy = openaclnn.smooth_l1_loss(bits, np.zeros_like(bits), reduction="none",
                                          dtype={"self": "bf16", "target": "bf16",
                                                 "result": "bf16"})
    assert np.array_equal(got.view(torch.int16).numpy().view(np.uint16), from_numpy)


def test_output_dtype_as_torch_dtype():
    x = torch.randn(2, 3)
    got = openaclnn.smooth_l1_loss(x, x, reduction="none", dtype=torch.bfloat16)
    assert got.dtype == torch.bfloat16 and torch.equal(got, torch.zeros(2, 3, dtype=torch.bfloat16))


def test_strided_tensors_and_out():
    base = torch.randn(8, 10)
    x = base[1::2, ::3]  # strided, with an offset
    y = torch.randn(4, 4).t()  # transposed
    g = torch.randn(4, 4)
    want = openaclnn.smooth_l1_loss_backward(g, x.contiguous(), y.contiguous(), reduction="none")
    store = torch.full((6, 12), -3.0)
    out = store[1:5, 2:10:2]
    returned = openaclnn.smooth_l1_loss_backward(g, x, y, reduction="none", out=out)
    assert returned is out
    assert torch.equal(out, want)
    mask = torch.ones(6, 12, dtype=torch.bool)
    mask[1:5, 2:10:2] = False
    assert (store[mask] == -3.0).all()


def test_requires_grad_is_fine():
    x = torch.randn(4, requires_grad=True)
    got = openaclnn.smooth_l1_loss(x, torch.zeros(4))
    assert not got.requires_grad


def test_non_cpu_tensor_is_a_value_error():
    x = torch.empty(2, 3, device="meta")
    with pytest.raises(ValueError, match="CPU"):
        openaclnn.smooth_l1_loss(x, x)


def test_mixed_numpy_and_torch_give_torch():
    x = torch.randn(3)
    got = openaclnn.smooth_l1_loss(x, np.zeros(3, np.float32), reduction="none")
    assert isinstance(got, torch.Tensor)


def test_multi_output_namedtuple():
    op = next((o for o in openaclnn.ops() if len(o.outputs) > 1), None)
    if op is None:
        pytest.skip("no operator with several outputs")
    if op.name != "AdaptiveMaxPool2d":
        pytest.skip("the check below is written for AdaptiveMaxPool2d")
    x = torch.randn(2, 3, 8, 8)
    r = openaclnn.adaptive_max_pool2d(x, [4, 2])
    values, indices = torch.nn.functional.adaptive_max_pool2d(x, (4, 2), return_indices=True)
    assert torch.equal(r.output_out, values) and torch.equal(r.indices_out, indices)
    assert r._fields == ("output_out", "indices_out")
