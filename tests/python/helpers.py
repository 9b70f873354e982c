"""What the package's tests share: arrays of any dtype the library knows, filled with values of
that dtype, and views laid out as a sample call describes them."""

import numpy as np

import openaclnn
from openaclnn import _dtypes

BITS_DTYPES = {"bfloat16", "hifloat8", "float8_e4m3fn"}  # numpy holds these as bit patterns


def holder(code):
    return _dtypes.numpy_holder(code)


def encoded(values, code):
    """float64 values as a numpy array of dtype `code` (bit patterns where numpy lacks it)."""
    values = np.asarray(values, dtype=np.float64)
    name = _dtypes.name(code)
    if name in BITS_DTYPES:
        return openaclnn.encode(values.astype(np.float32), name)
    if name == "bool":
        return values != 0
    if name.startswith(("int", "uint")):
        return values.astype(np.int64).astype(holder(code))
    if holder(code).kind == "f":
        return values.astype(holder(code))
    return np.random.default_rng(0).integers(0, 256, values.shape, dtype=np.uint8).view(
        holder(code))


def random_values(rng, code, count):
    """count values typical of dtype code: normals (scale 2) for floats, small integers, 0/1."""
    name = _dtypes.name(code)
    if name == "bool":
        return rng.integers(0, 2, count).astype(np.float64)
    if name.startswith(("int", "uint")):
        return rng.integers(0 if name.startswith("u") else -3, 4, count).astype(np.float64)
    return rng.normal(0.0, 2.0, count)


def storage_elements(tensor):
    """Elements of storage a sample's view reaches (one at least, as the tests' tensors have)."""
    reach = tensor["offset"] + 1
    for size, stride in zip(tensor["shape"], tensor["strides"]):
        if size > 0:
            reach += stride * (size - 1)
    return reach


def view(storage, tensor):
    """The view a sample's tensor describes over storage (uint8 bytes)."""
    h = holder(tensor["dtype"])
    return np.ndarray(tuple(tensor["shape"]), h, buffer=storage,
                      offset=tensor["offset"] * h.itemsize,
                      strides=tuple(s * h.itemsize for s in tensor["strides"]))
