"""Every operator through the package against the same call through the C++ side, on each sample
of its definition: the package's arguments (views, names, values, out=, dtype=, format=) must make
exactly the call the definition's sample describes, bit for bit, also outside the views."""

import numpy as np
import pytest

import openaclnn
from openaclnn import _core

from helpers import encoded, holder, random_values, storage_elements, view

CASES = [(op.name, index) for op in openaclnn.ops()
         for index in range(len(_core.samples(op.api)))]
# Each sample with the implementation the definition chooses (None) and with each one forced.
IMPL_CASES = [(name, index, impl) for name, index in CASES
              for impl in (None,) + openaclnn.ops(name).impls]


def make_storages(op, sample, index, seed):
    """Bytes for each tensor of the sample: inputs hold values of their dtype (the definition's own
    where it needs them), outputs a fill byte."""
    rng = np.random.default_rng(seed)
    storages = []
    for k, (p, value) in enumerate(zip(op.params, sample)):
        if p.kind not in ("input", "output") or value is None or value["alias_of"] >= 0:
            storages.append(None)
            continue
        storage = np.full(storage_elements(value) * holder(value["dtype"]).itemsize, 0x5A,
                          dtype=np.uint8)
        if p.kind == "input":
            count = int(np.prod(value["shape"], dtype=np.int64))
            given = _core.sample_input_values(op.api, index, k)
            values = np.array(given) if given else random_values(rng, value["dtype"], count)
            view(storage, value)[...] = encoded(values, value["dtype"]).reshape(value["shape"])
        storages.append(storage)
    return storages


def views(op, sample, storages):
    made = {}
    for k, (p, value) in enumerate(zip(op.params, sample)):
        if p.kind in ("input", "output") and value is not None:
            owner = value["alias_of"] if value["alias_of"] >= 0 else k
            made[p.python_name] = view(storages[owner], value)
    return made


def package_arguments(op, sample, tensor_views):
    """The call as a user writes it: inputs and attributes by name (named values by their names),
    dtype= for the arrays that hold bit patterns, format= for every tensor."""
    kwargs, dtypes, formats = {}, {}, {}
    for p, value in zip(op.params, sample):
        if p.kind in ("input", "output"):
            if value is None:
                if p.kind == "input":
                    kwargs[p.python_name] = None
                continue
            if p.kind == "input":
                kwargs[p.python_name] = tensor_views[p.python_name]
            dtypes[p.python_name] = openaclnn._dtypes.name(value["dtype"])
            formats[p.python_name] = openaclnn._dtypes.format_name(value["format"])
        elif p.kind == "integer" and p.choices:
            names = [n for n, v in p.choices.items() if v == value]
            kwargs[p.python_name] = names[0] if names else value
        else:
            kwargs[p.python_name] = value
    return kwargs, dtypes, formats


@pytest.mark.parametrize("name,index,impl", IMPL_CASES)
def test_sample_matches_the_c_api(name, index, impl):
    op = openaclnn.ops(name)
    sample = _core.samples(op.api)[index]
    if any(v is not None and p.kind in ("input", "output") and v["on_host"]
           for p, v in zip(op.params, sample)):
        pytest.skip("a sample in host memory")
    ours = make_storages(op, sample, index, seed=index)
    theirs = [None if s is None else s.copy() for s in ours]
    failure = _core.run_sample(op.api, index, theirs, impl or "")
    tensor_views = views(op, sample, ours)
    kwargs, dtypes, formats = package_arguments(op, sample, tensor_views)
    outs = {p.python_name: tensor_views[p.python_name] for p in op.outputs
            if p.python_name in tensor_views}
    if failure is not None and failure[1] == _core.IMPL_NOT_APPLIED:
        # The implementation declines this call: the package says so and writes nothing.
        with pytest.raises(ValueError, match="implementation '%s' does not apply" % impl):
            openaclnn.run(op.api, out=outs, dtype=dtypes, format=formats, impl=impl, **kwargs)
        result = None
    else:
        assert failure is None, failure
        result = openaclnn.run(op.api, out=outs, dtype=dtypes, format=formats, impl=impl,
                               **kwargs)
        if len(op.outputs) == 1:
            assert result is outs.get(op.outputs[0].python_name)
    for k, storage in enumerate(ours):
        if storage is not None:
            assert np.array_equal(storage, theirs[k]), "%s sample %d: %s differs" % (
                name, index, op.params[k].name)


@pytest.mark.parametrize("name,index", CASES)
def test_sample_outputs_inferred(name, index):
    """Without out=: the package makes the sample's outputs, as the definition infers them."""
    op = openaclnn.ops(name)
    sample = _core.samples(op.api)[index]
    ours = make_storages(op, sample, index, seed=100 + index)
    theirs = [None if s is None else s.copy() for s in ours]
    assert _core.run_sample(op.api, index, theirs) is None
    tensor_views = views(op, sample, ours)
    kwargs, dtypes, formats = package_arguments(op, sample, tensor_views)
    result = openaclnn.run(op.name, dtype=dtypes, format=formats, **kwargs)
    results = result if len(op.outputs) > 1 else (result,)
    expected_views = views(op, sample, theirs)
    for p, got in zip(op.outputs, results):
        if p.python_name not in expected_views:
            assert got is None
            continue
        expected = expected_views[p.python_name]
        assert got.shape == expected.shape and got.dtype == expected.dtype
        assert got.flags.c_contiguous
        assert got.tobytes() == expected.tobytes()


def as_torch(array, code):
    """A torch tensor over the same memory with the same strides; None where torch has no dtype
    for it (unsigned 16- to 64-bit integers)."""
    torch = pytest.importorskip("torch")
    if openaclnn._dtypes.name(code) == "bfloat16":
        return torch.from_numpy(array.view(np.int16)).view(torch.bfloat16)
    if array.dtype in (np.uint16, np.uint32, np.uint64):
        return None
    return torch.from_numpy(array)


@pytest.mark.parametrize("name,index", CASES)
def test_sample_through_torch(name, index):
    """The same calls with torch tensors over the same memory, in and out."""
    op = openaclnn.ops(name)
    sample = _core.samples(op.api)[index]
    ours = make_storages(op, sample, index, seed=200 + index)
    theirs = [None if s is None else s.copy() for s in ours]
    assert _core.run_sample(op.api, index, theirs) is None
    tensor_views = views(op, sample, ours)
    tensors = {}
    for p, value in zip(op.params, sample):
        if p.python_name in tensor_views:
            tensors[p.python_name] = as_torch(tensor_views[p.python_name], value["dtype"])
            if tensors[p.python_name] is None:
                pytest.skip("a dtype torch lacks")
    kwargs, dtypes, formats = package_arguments(op, sample, tensors)
    outs = {p.python_name: tensors[p.python_name] for p in op.outputs if p.python_name in tensors}
    openaclnn.run(op.api, out=outs, dtype=dtypes, format=formats, **kwargs)
    for k, storage in enumerate(ours):
        if storage is not None:
            assert np.array_equal(storage, theirs[k]), op.params[k].name
