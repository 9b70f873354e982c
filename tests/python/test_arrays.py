"""numpy arrays through the package: views used as they lie (strides, negative strides, offsets,
broadcasts), out= written in place and nowhere else, aliasing kept, bf16 as bit patterns."""

import numpy as np
import pytest

import openaclnn


def smooth_l1_grad(g, x, y, beta=1.0, reduction="mean"):
    """numpy's float64 gradient of the smooth L1 loss, for sanity checks of values."""
    d = x.astype(np.float64) - y.astype(np.float64)
    grad = np.where(np.abs(d) < beta, d / beta, np.sign(d)) if beta > 0 else np.sign(d)
    out = grad * g.astype(np.float64)
    return out / out.size if reduction == "mean" else out


@pytest.fixture
def rng():
    return np.random.default_rng(7)


def test_values_and_inferred_output(rng):
    g, x, y = (rng.normal(size=(4, 8)).astype(np.float32) for _ in range(3))
    got = openaclnn.smooth_l1_loss_backward(g, x, y, reduction="none", beta=0.5)
    assert isinstance(got, np.ndarray) and got.dtype == np.float32 and got.shape == (4, 8)
    np.testing.assert_allclose(got, smooth_l1_grad(g, x, y, 0.5, "none"), rtol=1e-6, atol=1e-7)
    mean = openaclnn.smooth_l1_loss_backward(g, x, y)  # reduction="mean", beta=1.0 by default
    np.testing.assert_allclose(mean, smooth_l1_grad(g, x, y), rtol=1e-6, atol=1e-9)


def test_positional_keyword_and_cann_names(rng):
    g, x, y = (rng.normal(size=(3, 5)).astype(np.float32) for _ in range(3))
    a = openaclnn.smooth_l1_loss_backward(g, x, y, "sum", 2.0)
    b = openaclnn.smooth_l1_loss_backward(grad_output=g, self=x, target=y, reduction=2, beta=2.0)
    c = openaclnn.run("aclnnSmoothL1LossBackward", gradOutput=g, self=x, target=y,
                      reduction="SUM", beta=2)
    d = openaclnn.run("smooth_l1_loss_backward", g, x, y, reduction="sum", beta=np.float32(2))
    for other in (b, c, d):
        assert np.array_equal(a, other)


def layouts(rng, shape):
    """The same values in views of several layouts: contiguous, transposed, sliced with steps,
    negative strides, an offset into a larger array, a broadcast (stride 0)."""
    base = rng.normal(size=shape).astype(np.float32)
    big = rng.normal(size=(shape[0] * 2 + 1, shape[1] * 3 + 2)).astype(np.float32)
    sliced = big[1::2, 2::3][: shape[0], : shape[1]]
    sliced[...] = base
    flipped = np.ascontiguousarray(base[::-1, ::-1])[::-1, ::-1]
    transposed = np.ascontiguousarray(base.T).T
    yield "contiguous", base
    yield "transposed", transposed
    yield "sliced", sliced
    yield "negative strides", flipped
    row = rng.normal(size=(1, shape[1])).astype(np.float32)
    yield "broadcast", np.broadcast_to(row, shape)


@pytest.mark.parametrize("param", ["grad_output", "self", "target"])
def test_strided_inputs_are_used_in_place(rng, param):
    shape = (5, 7)
    args = {p: rng.normal(size=shape).astype(np.float32) for p in ("grad_output", "self", "target")}
    for label, array in layouts(rng, shape):
        args[param] = array
        dense = {k: np.ascontiguousarray(v) for k, v in args.items()}
        got = openaclnn.smooth_l1_loss_backward(**args, reduction="none")
        want = openaclnn.smooth_l1_loss_backward(**dense, reduction="none")
        assert np.array_equal(got, want), label


def test_views_are_not_copied_contiguous(rng):
    """A view that cannot be described as any contiguous array still gives the values of its
    elements: the device sees the same strides (a copy would also pass, so check the values of a
    view whose gaps hold NaNs)."""
    big = np.full((6, 9), np.nan, dtype=np.float32)
    view = big[::2, 1::3]
    view[...] = rng.normal(size=view.shape)
    ones = np.ones(view.shape, np.float32)
    got = openaclnn.smooth_l1_loss_backward(ones, view, np.zeros_like(ones), reduction="none")
    assert not np.isnan(got).any()
    np.testing.assert_allclose(got, smooth_l1_grad(ones, view, np.zeros_like(ones), 1.0, "none"),
                               rtol=1e-6)


OUT_LAYOUTS = {
    "sliced": lambda big: big[1::2, 1::2][:4, :6],
    "transposed": lambda big: big[:6, :4].T,
    "negative strides": lambda big: big[4:0:-1, 11:5:-1],
}


@pytest.mark.parametrize("layout", OUT_LAYOUTS)
def test_out_views_written_only_inside(rng, layout):
    shape = (4, 6)
    g, x, y = (rng.normal(size=shape).astype(np.float32) for _ in range(3))
    want = openaclnn.smooth_l1_loss_backward(g, x, y, reduction="none")
    big = np.full((9, 13), -7.0, dtype=np.float32)
    out = OUT_LAYOUTS[layout](big)
    returned = openaclnn.smooth_l1_loss_backward(g, x, y, reduction="none", out=out)
    assert returned is out
    assert np.array_equal(out, want)
    inside = np.zeros(big.shape, bool)
    OUT_LAYOUTS[layout](inside)[...] = True
    assert (big[~inside] == -7.0).all()


def test_in_place_output_over_an_input(rng):
    """out= the input's own array: the library sees one allocation (the exact in-place case it
    allows), the result is the same as out of place."""
    g, x, y = (rng.normal(size=(3, 33)).astype(np.float32) for _ in range(3))
    want = openaclnn.smooth_l1_loss_backward(g, x, y, reduction="none")
    openaclnn.smooth_l1_loss_backward(g, x, y, reduction="none", out=g)
    assert np.array_equal(g, want)


def test_partial_overlap_is_refused(rng):
    """An out= array that overlaps an input without being it: the library's overlap check fires,
    as it would on the device."""
    buf = rng.normal(size=40).astype(np.float32)
    x, y = rng.normal(size=(2, 30)).astype(np.float32)
    with pytest.raises(openaclnn.Error) as raised:
        openaclnn.smooth_l1_loss_backward(buf[:30], x, y, reduction="none", out=buf[5:35])
    assert raised.value.code == 161002
    assert "gradInput" in raised.value.message


def test_bf16_as_uint16_bit_patterns(rng):
    values = rng.normal(size=(4, 5)).astype(np.float32)
    bits = openaclnn.encode(values, "bf16")
    assert bits.dtype == np.uint16
    got = openaclnn.smooth_l1_loss_backward(bits, bits, np.zeros_like(values), reduction="none",
                                            dtype={"grad_output": "bf16", "self": "bfloat16",
                                                   "grad_input": "bf16"})
    assert got.dtype == np.uint16
    as_float = openaclnn.decode(bits, "bf16")
    want = openaclnn.smooth_l1_loss_backward(as_float, as_float, np.zeros_like(values),
                                             reduction="none", dtype="bf16")
    assert np.array_equal(got, want)
    np.testing.assert_allclose(openaclnn.decode(got, "bf16"),
                               smooth_l1_grad(as_float, as_float, np.zeros_like(values), 1.0,
                                              "none"), rtol=8e-3)


def test_uint16_without_a_dtype_is_uint16(rng):
    bits = openaclnn.encode(rng.normal(size=3).astype(np.float32), "bf16")
    with pytest.raises(openaclnn.Error) as raised:
        openaclnn.smooth_l1_loss_backward(bits, bits, bits)
    assert raised.value.code == 161002 and "UINT16" in raised.value.message


@pytest.mark.parametrize("dtype", ["float16", np.float16, "bf16", "bfloat16", "float32"])
def test_output_dtype_override(rng, dtype):
    x = rng.normal(size=(2, 3)).astype(np.float32)
    got = openaclnn.smooth_l1_loss(x, np.zeros_like(x), reduction="none", dtype=dtype)
    name = np.dtype(dtype).name if dtype not in ("bf16", "bfloat16") else "uint16"
    assert got.dtype == np.dtype(name) and got.shape == (2, 3)


def test_empty_and_zero_d(rng):
    empty = np.zeros((0, 3), np.float32)
    got = openaclnn.smooth_l1_loss_backward(empty, empty, np.ones(3, np.float32), reduction="none")
    assert got.shape == (0, 3)
    scalar = openaclnn.smooth_l1_loss(np.float32(2.0) * np.ones((), np.float32),
                                      np.zeros((), np.float32))
    assert scalar.shape == () and scalar == np.float32(1.5)


def test_byte_swapped_inputs_are_converted(rng):
    x = rng.normal(size=(3, 4)).astype(np.float32)
    swapped = x.astype(">f4")
    y = np.zeros_like(x)
    assert np.array_equal(openaclnn.smooth_l1_loss(swapped, y, reduction="none"),
                          openaclnn.smooth_l1_loss(x, y, reduction="none"))


def test_format_is_passed(rng):
    x = rng.normal(size=(1, 2, 3, 4)).astype(np.float32)
    a = openaclnn.smooth_l1_loss(x, x, format="NCHW")
    b = openaclnn.smooth_l1_loss(x, x, format={"self": "nchw", "target": "ND"})
    assert a == b == 0


@pytest.mark.parametrize("threads", [1, 2, 3])
def test_impl_and_threads_give_the_same_bits(rng, threads):
    g, x, y = (rng.normal(size=(64, 129)).astype(np.float32) for _ in range(3))
    default = openaclnn.smooth_l1_loss_backward(g, x, y)
    for impl in openaclnn.ops("SmoothL1LossBackward").impls:
        got = openaclnn.smooth_l1_loss_backward(g, x, y, impl=impl, threads=threads)
        assert np.array_equal(got, default), impl


def test_options_do_not_leak_into_the_environment(rng):
    import os

    before = (os.environ.get("OPENACLNN_IMPL"), os.environ.get("OPENACLNN_NUM_THREADS"))
    x = rng.normal(size=8).astype(np.float32)
    openaclnn.smooth_l1_loss(x, x, impl="reference", threads=1)
    assert (os.environ.get("OPENACLNN_IMPL"), os.environ.get("OPENACLNN_NUM_THREADS")) == before


def test_calls_from_threads(rng):
    from concurrent.futures import ThreadPoolExecutor

    g, x, y = (rng.normal(size=(16, 40)).astype(np.float32) for _ in range(3))
    want = openaclnn.smooth_l1_loss_backward(g, x, y)

    def one(k):
        impl = "reference" if k % 2 else None
        return openaclnn.smooth_l1_loss_backward(g, x, y, impl=impl, threads=1 + k % 3)

    with ThreadPoolExecutor(4) as pool:
        for got in pool.map(one, range(16)):
            assert np.array_equal(got, want)


def test_encode_decode_round_trip():
    values = np.array([0.0, -0.0, 1.0, -2.5, 3.140625, np.inf, -np.inf], np.float32)
    for dtype in ("bf16", "float16"):
        assert np.array_equal(openaclnn.decode(openaclnn.encode(values, dtype), dtype), values)
    assert openaclnn.encode(np.float32(1.0), "bf16") == 0x3F80
    assert np.isnan(openaclnn.decode(openaclnn.encode(np.float32(np.nan), "bf16"), "bf16"))
    for dtype in ("hifloat8", "float8_e4m3fn"):
        small = np.array([0.0, 1.0, -2.0, 0.5], np.float32)
        assert np.array_equal(openaclnn.decode(openaclnn.encode(small, dtype), dtype), small)
