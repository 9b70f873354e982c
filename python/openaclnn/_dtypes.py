"""Dtype and format names: CANN's aclDataType/aclFormat codes and how numpy and torch spell them."""

from . import _core

_CODE_OF_CANN = {name: code for code, name, _ in _core.dtypes()}
_CANN_OF_CODE = {code: name for code, name, _ in _core.dtypes()}
_BITS = {code: bits for code, _, bits in _core.dtypes()}
_FORMAT_OF_NAME = {name: code for code, name in _core.formats()}
_FORMAT_NAME = {code: name for code, name in _core.formats()}

# CANN dtypes numpy has, by numpy's name.
_NUMPY_NAME = {
    "FLOAT": "float32",
    "FLOAT16": "float16",
    "DOUBLE": "float64",
    "INT8": "int8",
    "UINT8": "uint8",
    "INT16": "int16",
    "UINT16": "uint16",
    "INT32": "int32",
    "UINT32": "uint32",
    "INT64": "int64",
    "UINT64": "uint64",
    "BOOL": "bool",
    "COMPLEX64": "complex64",
    "COMPLEX128": "complex128",
}
# The names of those numpy lacks (numpy arrays hold them as bit patterns in unsigned integers of
# their size: bf16 as uint16, the 8-bit floats as uint8), and the short names also accepted.
_OTHER_NAME = {
    "BF16": ("bfloat16", "bf16"),
    "HIFLOAT8": ("hifloat8", "hif8"),
    "FLOAT8_E4M3FN": ("float8_e4m3fn", "e4m3fn"),
    "FLOAT8_E5M2": ("float8_e5m2", "e5m2"),
    "FLOAT8_E8M0": ("float8_e8m0fnu", "e8m0"),
    "COMPLEX32": ("complex32",),
}
_AMBIGUOUS = {
    "float": "float32 in CANN and torch, float64 in numpy: say float32 or float64",
    "int": "int32 in torch, int64 in numpy: say int32 or int64",
}

_CODE_OF_NAME = {}
for _cann, _name in _NUMPY_NAME.items():
    _CODE_OF_NAME[_name] = _CODE_OF_CANN[_cann]
for _cann, _names in _OTHER_NAME.items():
    if _cann in _CODE_OF_CANN:
        for _name in _names:
            _CODE_OF_NAME[_name] = _CODE_OF_CANN[_cann]


def name(code):
    """The package's name of a dtype code: numpy's where numpy has it ("float32"), else "bfloat16",
    "hifloat8", "float8_e4m3fn", ..."""
    cann = _CANN_OF_CODE.get(code, "DT_%d" % code)
    if cann in _NUMPY_NAME:
        return _NUMPY_NAME[cann]
    if cann in _OTHER_NAME:
        return _OTHER_NAME[cann][0]
    return cann.lower()


def bits(code):
    return _BITS.get(code, 0)


def code(dtype):
    """The aclDataType code of a dtype given as numpy or torch spell it (a string, a numpy dtype or
    type, a torch dtype), as CANN spells it ("FLOAT", "BF16"), or as "bf16", "hifloat8",
    "float8_e4m3fn". ValueError for a name of no dtype, TypeError for anything else."""
    if isinstance(dtype, str):
        if dtype in _CODE_OF_CANN:
            return _CODE_OF_CANN[dtype]
        lower = dtype.lower()
        if lower in _AMBIGUOUS:
            raise ValueError("dtype %r is ambiguous (%s)" % (dtype, _AMBIGUOUS[lower]))
        if lower in _CODE_OF_NAME:
            return _CODE_OF_NAME[lower]
        return _numpy_code(dtype)
    if type(dtype).__module__ == "torch" and str(dtype).startswith("torch."):
        torch_name = str(dtype)[len("torch."):]
        if torch_name in _CODE_OF_NAME:
            return _CODE_OF_NAME[torch_name]
        raise ValueError("torch dtype %s has no aclDataType" % dtype)
    return _numpy_code(dtype)


def _numpy_code(dtype):
    import numpy as np

    try:
        numpy_dtype = np.dtype(dtype)
    except TypeError as error:
        raise TypeError("not a dtype: %r" % (dtype,)) from error
    if numpy_dtype.name not in _CODE_OF_NAME:
        raise ValueError("dtype %r has no aclDataType (dtypes: %s)" %
                         (dtype, ", ".join(sorted(_CODE_OF_NAME))))
    return _CODE_OF_NAME[numpy_dtype.name]


def numpy_holder(code):
    """The numpy dtype that holds a dtype's elements: its own, or an unsigned integer of its size
    for its bit patterns; None for one numpy cannot hold (sub-byte dtypes)."""
    import numpy as np

    cann = _CANN_OF_CODE.get(code)
    if cann in _NUMPY_NAME:
        return np.dtype(_NUMPY_NAME[cann])
    holders = {8: np.uint8, 16: np.uint16, 32: np.uint32, 64: np.uint64}
    if bits(code) in holders:
        return np.dtype(holders[bits(code)])
    return None


def numpy_code(numpy_dtype):
    """The code of a numpy dtype (its own dtype, bf16 arrays being uint16 ones); None for one with
    no aclDataType."""
    return _CODE_OF_NAME.get(numpy_dtype.name) if numpy_dtype.isnative else None


def format_code(fmt):
    """An aclFormat code from its CANN name ("NCHW", any case) or its code."""
    if isinstance(fmt, bool) or not isinstance(fmt, (str, int)):
        raise TypeError("a format is a name such as 'NCHW' or an aclFormat code, got %r" % (fmt,))
    if isinstance(fmt, int):
        if fmt not in _FORMAT_NAME:
            raise ValueError("%d is not an aclFormat" % fmt)
        return fmt
    if fmt.upper() not in _FORMAT_OF_NAME:
        raise ValueError("unknown format %r (formats: %s)" % (fmt, ", ".join(_FORMAT_OF_NAME)))
    return _FORMAT_OF_NAME[fmt.upper()]


def format_name(fmt_code):
    return _FORMAT_NAME.get(fmt_code, "FORMAT_%d" % fmt_code)


BF16 = _CODE_OF_CANN["BF16"]
EIGHT_BIT_FLOATS = {_CODE_OF_CANN[n] for n in ("HIFLOAT8", "FLOAT8_E4M3FN", "FLOAT8_E5M2",
                                                "FLOAT8_E8M0") if n in _CODE_OF_CANN}
