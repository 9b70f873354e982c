"""Property tests (Hypothesis): whatever the layout of the arrays (dims in any memory order, steps,
negative strides, offsets into a larger array, broadcasts) and whatever their dtypes, a call gives
the bits the same call on contiguous copies gives, and an out= view is written inside and nowhere
else."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import openaclnn

DTYPES = ["float32", "float16", "bf16"]
FILL = 99.0  # what the elements around an out= view hold (in every dtype)


@st.composite
def layouts(draw, rank):
    """Where a view's elements lie: its dims' order in memory, a step per dim (negative: reversed)
    and a margin before each."""
    return (draw(st.permutations(range(rank))),
            [draw(st.sampled_from([1, 2, 3, -1, -2])) for _ in range(rank)],
            [draw(st.integers(0, 2)) for _ in range(rank)])


def numpy_dtype(name):
    return np.uint16 if name == "bf16" else np.dtype(name)


def strided(values, layout, fill=0.0):
    """values (a numpy array of a numpy dtype, bf16 as bits) copied into a view of that layout."""
    perm, steps, margins = layout
    if values.ndim == 0:
        big = np.full((), fill, values.dtype)
        big[...] = values
        return big, big
    shape = [values.shape[d] for d in perm]
    big = np.full([abs(s) * max(n, 1) + m for n, s, m in zip(shape, steps, margins)], fill,
                  values.dtype)
    view = big[tuple(slice(m, m + abs(s) * n, abs(s)) for n, s, m in zip(shape, steps, margins))]
    view = view[tuple(slice(None, None, -1 if s < 0 else 1) for s in steps)]
    view = view.transpose(np.argsort(perm))
    view[...] = values
    return view, big


def values_of(rng, shape, dtype):
    x = np.asarray(rng.normal(0.0, 2.0, shape), np.float32)
    return openaclnn.encode(x, "bf16") if dtype == "bf16" else x.astype(dtype)


shapes = st.lists(st.integers(0, 5), min_size=1, max_size=4)


@st.composite
def calls(draw):
    """Three input shapes that broadcast together (dims of 1 and missing leading dims), each with
    a dtype and a layout, and the attributes."""
    shape = draw(shapes)
    inputs = []
    for _ in range(3):
        rank = draw(st.integers(0, len(shape)))
        own = [1 if draw(st.booleans()) else n for n in shape[len(shape) - rank:]]
        inputs.append((own, draw(st.sampled_from(DTYPES)), draw(layouts(len(own)))))
    return (inputs, draw(st.sampled_from(["none", "mean", "sum"])),
            draw(st.sampled_from([0.0, 0.5, 1.0])), draw(layouts(len(shape))),
            draw(st.integers(0, 2 ** 32 - 1)))


@given(calls())
def test_any_layout_and_dtypes_give_the_same_bits(call):
    inputs, reduction, beta, out_layout, seed = call
    rng = np.random.default_rng(seed)
    names = ["grad_output", "self", "target"]
    dense, views, dtypes = {}, {}, {}
    for name, (shape, dtype, layout) in zip(names, inputs):
        dense[name] = values_of(rng, shape, dtype)
        views[name], _ = strided(dense[name], layout)
        if dtype == "bf16":
            dtypes[name] = "bf16"
    want = openaclnn.smooth_l1_loss_backward(**dense, reduction=reduction, beta=beta,
                                             dtype=dtypes or None)
    got = openaclnn.smooth_l1_loss_backward(**views, reduction=reduction, beta=beta,
                                            dtype=dtypes or None)
    assert got.dtype == want.dtype and got.shape == want.shape
    assert got.tobytes() == want.tobytes()

    if want.ndim == len(out_layout[0]):
        out, big = strided(np.zeros_like(want), out_layout, FILL)
        _, mark = strided(np.ones(want.shape, bool), out_layout, False)  # True inside the view
        out_dtypes = dict(dtypes, grad_input="bf16") if want.dtype == np.uint16 else dtypes
        openaclnn.smooth_l1_loss_backward(**views, reduction=reduction, beta=beta,
                                          dtype=out_dtypes or None, out=out)
        assert out.tobytes() == want.tobytes()
        assert (big[~mark] == np.full((), FILL, want.dtype)).all()


@given(st.lists(st.integers(1, 6), min_size=2, max_size=3), st.sampled_from(DTYPES),
       st.integers(0, 2 ** 32 - 1))
def test_torch_views(shape, dtype, seed):
    torch = pytest.importorskip("torch")
    torch_dtype = {"float32": torch.float32, "float16": torch.float16,
                   "bf16": torch.bfloat16}[dtype]
    generator = torch.Generator().manual_seed(seed)
    base = torch.randn([2 * n + 1 for n in shape], generator=generator).to(torch_dtype)
    x = base[tuple(slice(1, None, 2) for _ in shape)]  # every other element, offset by one
    y = torch.randn(list(reversed(shape)), generator=generator).to(torch_dtype).permute(
        *reversed(range(len(shape))))
    got = openaclnn.smooth_l1_loss(x, y, reduction="none")
    want = openaclnn.smooth_l1_loss(x.contiguous(), y.contiguous(), reduction="none")
    assert got.dtype == torch_dtype and torch.equal(got, want)
    reference = torch.nn.functional.smooth_l1_loss(x.float(), y.float(), reduction="none")
    assert torch.equal(got, reference.to(torch_dtype))
