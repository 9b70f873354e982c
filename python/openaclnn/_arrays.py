"""Arrays in and out: numpy arrays and torch CPU tensors as the strided numpy views the extension
places in device memory, and results as the kind of array the caller passed."""

import sys

import numpy as np

from . import _dtypes


def is_torch(value):
    torch = sys.modules.get("torch")
    return torch is not None and isinstance(value, torch.Tensor)


def _torch_view(tensor, what, writable):
    """A numpy array over a torch CPU tensor's memory, with its strides: bf16 and 8-bit floats as
    their bit patterns (numpy has no such dtypes), with their code."""
    import torch

    if tensor.device.type != "cpu":
        raise ValueError("%s: a torch tensor on %s; openaclnn takes CPU tensors" %
                         (what, tensor.device))
    tensor = tensor.detach()
    if tensor.is_conj() or tensor.is_neg():
        if writable:
            raise ValueError("%s: an out= tensor with a lazy conjugate or negation" % what)
        tensor = tensor.resolve_conj().resolve_neg()
    torch_name = str(tensor.dtype)[len("torch."):]
    code = _dtypes.code(tensor.dtype)
    if tensor.dtype == torch.bfloat16:
        return tensor.view(torch.int16).numpy().view(np.uint16), code
    if code in _dtypes.EIGHT_BIT_FLOATS:
        return tensor.view(torch.uint8).numpy(), code
    try:
        return tensor.numpy(), code
    except (TypeError, RuntimeError) as error:
        raise TypeError("%s: torch dtype %s cannot be read: %s" % (what, torch_name, error))


def host_view(value, what, declared=None, writable=False):
    """(array, code, torch?) for an input (or, writable, an out= array): the numpy array whose
    memory and strides the extension uses, its aclDataType code (`declared` when given: how the
    array's bits are to be read, e.g. bf16 for uint16), and whether it came from torch.

    An array is used as it lies, with its strides (negative ones too) and offset. Only arrays the
    device cannot describe are copied first: non-native byte order, and strides that are not a
    multiple of the itemsize."""
    torch_input = is_torch(value)
    if torch_input:
        array, code = _torch_view(value, what, writable)
    elif isinstance(value, np.ndarray):
        array, code = value, _dtypes.numpy_code(value.dtype)
    elif isinstance(value, np.generic) and not writable:  # a numpy scalar: a 0-d array
        array = np.asarray(value)
        code = _dtypes.numpy_code(array.dtype)
    else:
        raise TypeError("%s: expected a numpy array or a torch CPU tensor, got %s" %
                        (what, type(value).__name__))
    if writable and not array.flags.writeable:
        raise ValueError("%s: the out= array is read-only" % what)
    aligned = all(s % array.itemsize == 0 for s in array.strides) if array.itemsize else False
    if not array.dtype.isnative or not aligned:
        if writable:
            raise ValueError("%s: an out= array must be in native byte order with strides that "
                             "are multiples of its itemsize" % what)
        array = np.ascontiguousarray(array.astype(array.dtype.newbyteorder("=")))
        code = _dtypes.numpy_code(array.dtype)
    if declared is not None:
        if _dtypes.bits(declared) != array.itemsize * 8:
            raise ValueError("%s: dtype %s does not fit an array of %s" %
                             (what, _dtypes.name(declared), array.dtype))
        code = declared
    if code is None:
        raise TypeError("%s: numpy dtype %s has no aclDataType" % (what, array.dtype))
    return array, code, torch_input


def result(raw, shape, code, as_torch):
    """An output the extension made (its bytes as uint8) as a numpy array, or a torch tensor when
    the call's arrays were torch tensors; bf16 and 8-bit floats as bit patterns for numpy."""
    holder = _dtypes.numpy_holder(code)
    array = raw.view(holder).reshape(shape)
    if not as_torch:
        return array
    import torch

    if code == _dtypes.BF16:
        return torch.from_numpy(array.view(np.int16)).view(torch.bfloat16)
    if code in _dtypes.EIGHT_BIT_FLOATS:
        tensor = torch.from_numpy(array)
        own = getattr(torch, _dtypes.name(code), None)  # torch >= 2.1 has the float8 dtypes
        return tensor.view(own) if own is not None else tensor
    return torch.from_numpy(array)


def values(value, what, declared=None):
    """A C-ordered numpy array of anything array-like (for compare), with its code."""
    if not isinstance(value, np.ndarray) and not is_torch(value):
        value = np.asarray(value)
    array, code, _ = host_view(value, what, declared)
    return np.ascontiguousarray(array), code
