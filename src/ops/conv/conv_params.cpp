#include "ops/conv/conv_params.h"

#include "ops/conv/tbc_params.h"

namespace oa::conv {

Param conv_cube_math_type_param(int64_t max) {
  std::vector<std::pair<std::string, int64_t>> names = {
      {"KEEP_DTYPE", 0}, {"ALLOW_FP32_DOWN_PRECISION", 1}, {"USE_FP16", 2}, {"USE_HF32", 3}};
  std::string rule = "int8: 0 KEEP_DTYPE, 1 ALLOW_FP32_DOWN_PRECISION, 2 USE_FP16, 3 USE_HF32";
  if (max == 4) {
    names.emplace_back("USE_FP32_ADD", 4);
    rule += ", 4 USE_FP32_ADD (computed as KEEP_DTYPE)";
  }
  return build::integer("cubeMathType", rule, names, 0);
}

Param stride_param() { return build::int_array("stride", "one value >= 1 per spatial dim"); }

Param padding_param(std::string rule) { return build::int_array("padding", std::move(rule)); }

Param dilation_param() { return build::int_array("dilation", "one value >= 1 per spatial dim"); }

bool spec_attrs(const OpDef& def, const CallSpec& spec, int spatial, bool two_sided_1d,
                ConvAttrs* attrs) {
  const ArgSpec& stride = arg_of(def, spec, "stride");
  const ArgSpec& padding = arg_of(def, spec, "padding");
  const ArgSpec& dilation = arg_of(def, spec, "dilation");
  const bool transposed =
      def.param_index("transposed") >= 0 && arg_of(def, spec, "transposed").integer != 0;
  const auto dims = static_cast<size_t>(spatial);
  if (stride.null || padding.null || dilation.null || stride.ints.size() != dims ||
      dilation.ints.size() != dims ||
      !(padding.ints.size() == dims ||
        (padding.ints.size() == 2 * dims && (spatial == 2 || two_sided_1d)))) {
    return false;
  }
  std::vector<int64_t> op;
  if (transposed) {
    const ArgSpec& given = arg_of(def, spec, "outputPadding");
    if (given.null || given.ints.size() < dims) {
      return false;
    }
    op = given.ints;
  }
  for (size_t d = 0; d < dims; ++d) {
    if (stride.ints[d] < 1 || dilation.ints[d] < 1) {
      return false;
    }
  }
  *attrs = make_attrs(spatial, stride.ints, padding.ints, dilation.ints, transposed, op);
  return true;
}

bool conv_output(const ConvAttrs& a, int64_t groups, const Shape& x, const Shape& w, Shape* out) {
  *out = {x[0], a.transposed ? w[1] * groups : w[0]};
  for (int d = 0; d < a.spatial; ++d) {
    const auto i = static_cast<size_t>(d + 2);
    const int64_t size = output_size(a, d, x[i], w[i]);
    if (size < 0) {
      return false;
    }
    out->push_back(size);
  }
  return true;
}

void set_output(ArgSpec* output, const Shape& shape, const TensorSpec& like) {
  const bool fresh = output->null || output->tensor.shape.empty();
  output->null = false;
  if (fresh) {
    output->tensor.dtype = like.dtype;
    output->tensor.format = like.format;
  }
  output->tensor.shape = shape;
  output->tensor.strides.clear();
}

}  // namespace oa::conv
