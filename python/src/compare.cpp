#include "compare.h"

#include <pybind11/stl.h>

#include <cstring>

#include "openaclnn/accuracy.h"

namespace oa::python {
namespace {

tool::Array to_array(const py::array& array, int dtype, const std::vector<int64_t>& shape) {
  tool::Array a;
  a.dtype = static_cast<aclDataType>(dtype);
  a.shape = shape;
  a.bytes.resize(static_cast<size_t>(array.nbytes()));
  if (!a.bytes.empty()) {
    std::memcpy(a.bytes.data(), array.data(), a.bytes.size());
  }
  return a;
}

py::object index_of(int64_t flat, const std::vector<int64_t>& shape) {
  if (flat < 0) {
    return py::none();
  }
  return py::tuple(py::cast(tool::unravel_index(flat, shape)));
}

}  // namespace

py::dict compare_arrays(const py::array& expected, int expected_dtype, const py::array& actual,
                        int actual_dtype, const std::vector<int64_t>& shape, const py::object& rtol,
                        const py::object& atol, size_t keep) {
  const tool::Array e = to_array(expected, expected_dtype, shape);
  const tool::Array a = to_array(actual, actual_dtype, shape);
  // As `openaclnn compare`: the dtypes' default rtol unless given, atol the rtol in effect unless
  // given.
  tool::Tolerance tolerance = tool::default_tolerance(e.dtype, a.dtype);
  tolerance.rtol = rtol.is_none() ? tolerance.rtol : rtol.cast<double>();
  tolerance.atol = atol.is_none() ? tolerance.rtol : atol.cast<double>();
  tool::Accuracy result;
  try {
    result = tool::measure_accuracy(tool::to_doubles(e), tool::to_doubles(a), tolerance, keep);
  } catch (const tool::UsageError& error) {
    throw py::value_error(error.what());
  }
  py::dict d;
  d["rtol"] = tolerance.rtol;
  d["atol"] = tolerance.atol;
  d["count"] = result.count;
  d["finite_count"] = result.finite_count;
  d["max_abs_error"] = result.max_abs_error;
  d["max_abs_index"] = index_of(result.max_abs_index, shape);
  d["relative_count"] = result.relative_count;
  d["max_rel_error"] = result.max_rel_error;
  d["max_rel_index"] = index_of(result.max_rel_index, shape);
  d["mean_rel_error"] = result.mean_rel_error;
  d["cosine_similarity"] = result.cosine_similarity;
  d["nan_mismatches"] = result.nan_mismatches;
  d["inf_mismatches"] = result.inf_mismatches;
  d["outside"] = result.outside;
  py::list first;
  for (const tool::Mismatch& m : result.first_outside) {
    first.append(py::make_tuple(index_of(m.index, shape), m.expected, m.actual));
  }
  d["first_outside"] = first;
  return d;
}

}  // namespace oa::python
