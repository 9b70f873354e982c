"""openaclnn: Huawei CANN's aclnn operators on the CPU, on numpy arrays and torch tensors.

Every operator of the library is a function here, made at import from its definition, named as
CANN names it in snake_case and taking CANN's parameters in CANN's order::

    import numpy as np, openaclnn
    g = openaclnn.smooth_l1_loss_backward(grad_output, x, y, reduction="none", beta=0.5)
    openaclnn.run("aclnnSmoothL1LossBackward", grad_output, x, y)   # the same, by CANN's name

Inputs are numpy arrays or torch CPU tensors, used as the strided views they are (any strides,
negative ones too, and offsets: the array's memory span goes to device memory with the same
strides, nothing is made contiguous). Attributes are Python values: named values as strings or
their integers (reduction="sum" or 2), bools, lists for arrays. Outputs are shaped and typed as the
operator's definition infers them and come back as the kind of array that went in (torch tensors
when any input was one); several outputs come as a namedtuple. Options, all keyword-only:

- out=: the output array(s) to write, in place (a tuple or {name: array} for several); returned.
- dtype=: an output's dtype ("float16", np.float16, torch.bfloat16, "bf16", "hifloat8",
  "float8_e4m3fn"), or {name: dtype} for several, and for numpy inputs that hold bit patterns.
  numpy has no bfloat16: a numpy bf16 tensor is a uint16 array of bit patterns declared with
  dtype={"self": "bf16"}, and a bf16 output of a numpy call is such a uint16 array (encode() and
  decode() convert). torch tensors need none of this: bf16 in, bf16 out.
- format=: the aclFormat of the tensors ("NCHW"), or {name: format}; ND by default.
- impl=: an implementation of the operator by name ("reference": the plain float64-checked
  loops); the library's OPENACLNN_IMPL for this call.
- threads=: the thread count (OPENACLNN_NUM_THREADS) for this call.

impl= and threads= set those environment variables for the duration of the call, under a lock
that every call of this package takes: calls from several Python threads run one at a time
(each on all the threads it is given).

A call the library rejects raises openaclnn.Error (.code, .api, .message: CANN's code and the
library's message); wrong Python arguments raise TypeError or ValueError before anything runs.
compare() checks one array against another as `openaclnn compare` does; info() and ops() describe
the build and the operators.
"""

from . import _core, _dtypes
from ._compare import CompareResult, compare
from ._errors import Error
from ._info import Info, info
from ._catalog import OpInfo, ParamInfo, ops
from ._ops import FUNCTIONS as _FUNCTIONS
from ._ops import run

__version__ = _core.info()["version"]


def encode(values, dtype):
    """The bit patterns of float values in a dtype numpy lacks ("bf16", "hifloat8",
    "float8_e4m3fn"; "float16" too): uint16 or uint8 arrays, rounded to nearest-even by the
    library's own conversions."""
    return _core.encode(values, _dtypes.code(dtype))


def decode(bits, dtype):
    """The float32 values of bit patterns (uint16 or uint8 arrays) of dtype."""
    return _core.decode(bits, _dtypes.code(dtype))


__all__ = ["CompareResult", "Error", "Info", "OpInfo", "ParamInfo", "compare", "decode", "encode",
           "info", "ops", "run"]
for _name, _function in _FUNCTIONS.items():
    # An operator whose name is one of the names above stays reachable through run().
    if _name not in globals():
        globals()[_name] = _function
        __all__.append(_name)
del _name, _function
