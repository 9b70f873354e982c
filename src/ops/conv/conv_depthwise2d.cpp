// aclnnConvDepthwise2d (SPEC section 12): the depthwise 2-D convolution of self (N, C, H, W) with
// weight (C m, 1, kH, kW): output channel j convolves input channel j / m, plus an optional bias
// (C m). self, weight, out and bias share one dtype.
#include "aclnnop/aclnn_convolution.h"

#include "core/op/build.h"
#include "core/op/rules.h"
#include "ops/conv/conv_checks.h"
#include "ops/conv/conv_params.h"
#include "ops/conv/impls.h"
#include "ops/conv/tbc_params.h"

namespace oa::conv {
namespace {

bool infer(const OpDef& def, CallSpec* spec) {
  const ArgSpec& self = arg_of(def, *spec, "self");
  const ArgSpec& weight = arg_of(def, *spec, "weight");
  ConvAttrs attrs;
  Shape out;
  if (self.null || weight.null || self.tensor.shape.size() != 4 ||
      weight.tensor.shape.size() != 4 || !spec_attrs(def, *spec, 2, false, &attrs) ||
      !conv_output(attrs, 1, self.tensor.shape, weight.tensor.shape, &out)) {
    return false;
  }
  set_output(&arg_of(def, spec, "out"), out, self.tensor);
  return true;
}

const OpDef& definition() {
  static const OpDef def = [] {
    using namespace build;
    OpDef d("ConvDepthwise2d", "aclnnop/aclnn_convolution.h",
            "depthwise 2-D convolution (one group per input channel) with an optional bias");
    d.params = {input("self", kFloatDtypes, "(N, C, H, W), NCHW"),
                input("weight", kFloatDtypes, "(C m, 1, kH, kW), self's dtype"),
                int_array("kernelSize", "[kH, kW], weight's kernel dims"),
                optional_input("bias", kFloatDtypes, "(C m), self's dtype"),
                stride_param(),
                padding_param("[pH, pW], on both sides"),
                dilation_param(),
                output("out", kFloatDtypes, "(N, C m, Ho, Wo), self's dtype"),
                conv_cube_math_type_param(4)};
    const rules::Names tensors = {"self", "weight", "bias", "out"};
    d.checks = {
        rules::not_null({"self", "weight", "kernelSize", "stride", "padding", "dilation", "out",
                         "workspaceSize", "executor"}),
        depthwise_kernel_size(),
        rules::dtype_in({"bias"}, kFloatDtypes),
        rules::same_dtype({"bias"}, "self"),
        rules::dtype_in({"self", "weight", "out"}, kFloatDtypes),
        rules::same_dtype({"weight", "out"}, "self"),
        rules::rank_in({"self", "weight", "out"}, 4, 4),
        rules::rank_in({"bias"}, 1, 1),
        depthwise_array_lengths(),
        rules::format_in({"self", "weight", "out"}, {ACL_FORMAT_NCHW}),
        depthwise_values(),
        conv_extents("self"),
        conv_kernel_fits("self"),
        conv_output_shape("self", "out"),
        conv_cube_math_type(4),
        rules::in_device_memory(tensors),
        rules::disjoint_output("out", {"self", "weight", "bias"}, false),
    };
    d.infer = infer;
    d.impls = {conv_forward_onednn(), conv_forward_reference()};
    auto call = [&d](Shape x, Shape w, bool bias, std::vector<int64_t> stride,
                     std::vector<int64_t> padding, std::vector<int64_t> dilation, aclDataType dtype,
                     int64_t cube) {
      return sample(d, {{"self", tensor(x, dtype, ACL_FORMAT_NCHW)},
                        {"weight", tensor(w, dtype, ACL_FORMAT_NCHW)},
                        {"kernelSize", ints({w[2], w[3]})},
                        {"bias", bias ? tensor({w[0]}, dtype) : null()},
                        {"stride", ints(stride)},
                        {"padding", ints(padding)},
                        {"dilation", ints(dilation)},
                        {"cubeMathType", integer(cube)}});
    };
    d.samples = {
        call({2, 3, 6, 5}, {6, 1, 3, 3}, true, {1, 2}, {1, 1}, {1, 1}, ACL_FLOAT, 0),
        call({1, 4, 7, 7}, {4, 1, 3, 2}, false, {2, 1}, {0, 1}, {2, 1}, ACL_FLOAT16, 2),
        call({2, 2, 5, 5}, {4, 1, 1, 3}, true, {1, 1}, {0, 2}, {1, 2}, ACL_BF16, 1),
        call({1, 3, 4, 6}, {3, 1, 2, 2}, true, {2, 2}, {1, 0}, {1, 1}, ACL_FLOAT, 3),
        // An output small enough to lie inside bias's storage (the conformance test's overlap).
        call({1, 2, 1, 1}, {4, 1, 1, 1}, true, {1, 1}, {0, 0}, {1, 1}, ACL_FLOAT, 0),
        call({0, 3, 5, 5}, {3, 1, 3, 3}, true, {1, 1}, {1, 1}, {1, 1}, ACL_FLOAT, 0),
    };
    return d;
  }();
  return def;
}

const OpRegistration kRegistration(definition);

}  // namespace
}  // namespace oa::conv

extern "C" aclnnStatus aclnnConvDepthwise2dGetWorkspaceSize(
    const aclTensor* self, const aclTensor* weight, const aclIntArray* kernelSize,
    const aclTensor* bias, const aclIntArray* stride, const aclIntArray* padding,
    const aclIntArray* dilation, aclTensor* out, int8_t cubeMathType, uint64_t* workspaceSize,
    aclOpExecutor** executor) {
  return oa::plan_op(oa::conv::definition(),
                     {self, weight, kernelSize, bias, stride, padding, dilation, out, cubeMathType},
                     workspaceSize, executor);
}

extern "C" aclnnStatus aclnnConvDepthwise2d(void* workspace, const uint64_t workspaceSize,
                                            aclOpExecutor* executor, aclrtStream stream) {
  return oa::launch_op(oa::conv::definition(), workspace, workspaceSize, executor, stream);
}
