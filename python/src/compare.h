// The CLI's accuracy comparison (tools/openaclnn/accuracy.h), for openaclnn.compare.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <vector>

namespace oa::python {

namespace py = pybind11;

// expected and actual: C-contiguous arrays of the same shape holding elements of the dtypes
// (aclDataType codes) given; rtol/atol None for the CLI's defaults (by dtype; atol the rtol in
// effect). Returns the statistics as a dict, indices as tuples; ValueError for a dtype the
// comparison does not read.
py::dict compare_arrays(const py::array& expected, int expected_dtype, const py::array& actual,
                        int actual_dtype, const std::vector<int64_t>& shape, const py::object& rtol,
                        const py::object& atol, size_t keep);

}  // namespace oa::python
