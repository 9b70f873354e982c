// openaclnn._core: the extension under the openaclnn package (python/openaclnn). It hands Python
// the operator definitions and runs calls the package has assembled; the package itself
// (argument names and values, numpy and torch, results) is Python.
#include <oneapi/dnnl/dnnl.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <hwy/targets.h>

#include "base/float_convert.h"
#include "base/parallel.h"
#include "call.h"
#include "catalog.h"
#include "compare.h"
#include "core/isa.h"

namespace oa::python {
namespace {

py::dict info() {
  py::list targets;
  for (int64_t rest = hwy::SupportedTargets(); rest != 0; rest &= rest - 1) {
    targets.append(hwy::TargetName(rest & -rest));
  }
  const dnnl_version_t* dnnl = dnnl_version();
  py::dict d;
  d["version"] = OPENACLNN_VERSION;
  d["build_type"] = OPENACLNN_BUILD_TYPE;
  d["simd"] = selected_isa() == Isa::scalar ? "scalar" : simd_target_name();
  d["simd_targets"] = targets;
  d["threads"] = num_threads();
  d["gemm"] = "oneDNN " + std::to_string(dnnl->major) + "." + std::to_string(dnnl->minor) + "." +
              std::to_string(dnnl->patch);
  return d;
}

// The bit patterns of float32 values in a 16- or 8-bit float dtype, rounded to nearest-even (the
// library's own conversions), and back.
py::array encode(const py::array_t<float, py::array::c_style | py::array::forcecast>& values,
                 int dtype) {
  const float* in = values.data();
  const std::vector<py::ssize_t> shape(values.shape(), values.shape() + values.ndim());
  switch (static_cast<aclDataType>(dtype)) {
    case ACL_BF16:
    case ACL_FLOAT16: {
      py::array_t<uint16_t> bits(shape);
      uint16_t* out = bits.mutable_data();
      for (py::ssize_t i = 0; i < values.size(); ++i) {
        out[i] = dtype == ACL_BF16 ? float_to_bf16(in[i]) : float_to_half(in[i]);
      }
      return std::move(bits);
    }
    case ACL_HIFLOAT8:
    case ACL_FLOAT8_E4M3FN: {
      py::array_t<uint8_t> bits(shape);
      uint8_t* out = bits.mutable_data();
      for (py::ssize_t i = 0; i < values.size(); ++i) {
        out[i] = dtype == ACL_HIFLOAT8 ? float_to_hif8(in[i]) : float_to_e4m3fn(in[i]);
      }
      return std::move(bits);
    }
    default:
      throw py::value_error("encode converts to bf16, float16, hifloat8 and float8_e4m3fn");
  }
}

template <typename Bits>
py::array_t<float> decode_as(const py::array& bits, float (*convert)(Bits)) {
  const auto in = py::array_t<Bits, py::array::c_style | py::array::forcecast>::ensure(bits);
  if (!in) {
    throw py::type_error("decode takes an array of bit patterns");
  }
  py::array_t<float> values(std::vector<py::ssize_t>(in.shape(), in.shape() + in.ndim()));
  float* out = values.mutable_data();
  for (py::ssize_t i = 0; i < in.size(); ++i) {
    out[i] = convert(in.data()[i]);
  }
  return values;
}

py::array_t<float> decode(const py::array& bits, int dtype) {
  switch (static_cast<aclDataType>(dtype)) {
    case ACL_BF16:
      return decode_as<uint16_t>(bits, bf16_to_float);
    case ACL_FLOAT16:
      return decode_as<uint16_t>(bits, half_to_float);
    case ACL_HIFLOAT8:
      return decode_as<uint8_t>(bits, hif8_to_float);
    case ACL_FLOAT8_E4M3FN:
      return decode_as<uint8_t>(bits, e4m3fn_to_float);
    default:
      throw py::value_error("decode converts from bf16, float16, hifloat8 and float8_e4m3fn");
  }
}

}  // namespace
}  // namespace oa::python

PYBIND11_MODULE(_core, m) {
  namespace py = pybind11;
  using namespace oa::python;
  m.doc() = "The compiled part of openaclnn: operator definitions and calls";
  m.attr("IMPL_NOT_APPLIED") = kImplNotApplied;
  m.def("definitions", &definitions_list);
  m.def("dtypes", &dtypes_list);
  m.def("formats", &formats_list);
  m.def("info", &info);
  m.def(
      "call",
      [](const std::string& name, const py::list& args, const std::string& impl, int threads) {
        return call_operator(definition(name), args, impl, threads);
      },
      py::arg("name"), py::arg("args"), py::arg("impl") = "", py::arg("threads") = 0);
  m.def("samples", [](const std::string& name) { return samples_list(definition(name)); });
  m.def("sample_input_values", [](const std::string& name, size_t index, int param) {
    return sample_input_values(definition(name), index, param);
  });
  m.def(
      "run_sample",
      [](const std::string& name, size_t index, const py::list& storages, const std::string& impl) {
        return run_sample(definition(name), index, storages, impl);
      },
      py::arg("name"), py::arg("index"), py::arg("storages"), py::arg("impl") = "");
  m.def("compare", &compare_arrays);
  m.def("encode", &encode);
  m.def("decode", &decode);
}
