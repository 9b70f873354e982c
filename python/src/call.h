// Running an operator of the library from Python: host arrays placed in device memory as the
// strided views they are, both phases through the definition (what the C entry points do), and
// the outputs copied back.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <string>

#include "core/op/definition.h"

namespace oa::python {

namespace py = pybind11;

// The code of a Failure that is no aclnn code: the implementation asked for does not apply.
constexpr int kImplNotApplied = -1;

// Runs def on `args`, one per parameter in the definition's order:
//   input:      None or (array, dtype, format)
//   output:     (array or None, dtype or -1, format or -1): the array given by out=, else one is
//               made as the definition infers it (dtype and format overridden where not -1)
//   integer:    int;  flag: bool;  real: float;  int_array, bool_array: list or None
// Arrays are numpy arrays whose strides are multiples of their itemsize (the package's own views
// of torch tensors included); their memory is read and, for outputs, written in place.
// impl: "" or the implementation to force; threads: 0 or the thread count.
// Returns (failure, outputs): failure None or (api, code, message); outputs one per output
// parameter: None (out= given, or an optional output the call does not produce) or
// (uint8 array of the bytes, shape, dtype).
py::tuple call_operator(const OpDef& def, const py::list& args, const std::string& impl,
                        int threads);

// Runs sample `index` of def as the C++ side does (tests/support's way, without the package's
// argument handling): each tensor in a device allocation of its own holding storages[i] (uint8,
// C-contiguous, as many bytes as the sample's view reaches), described by the sample's shape,
// strides, offset and format, attributes straight from the sample; every tensor's storage is
// copied back into storages[i] afterwards. Returns the failure as call_operator does, or None.
py::object run_sample(const OpDef& def, size_t index, const py::list& storages,
                      const std::string& impl);

}  // namespace oa::python
