// aclnnConvTbcBackward (SPEC section 8): the gradients of the TBC convolution with respect to its
// input, weight and bias, from self = the gradient of its output.
#include "aclnnop/aclnn_convolution_backward.h"

#include "core/op/build.h"
#include "core/op/rules.h"
#include "ops/conv/impls.h"
#include "ops/conv/tbc_checks.h"
#include "ops/conv/tbc_params.h"

namespace oa::conv {
namespace {

// gradWeight may also be one of the two 8-bit float types.
const DtypeSet kGradWeightDtypes{ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_HIFLOAT8, ACL_FLOAT8_E4M3FN};

// cubeMathType's rule; USE_FP16 fails with any BF16 operand of the products, weight too (the rule's
// own violation makes self BF16).
Check backward_cube_math_type() {
  Check check = cube_math_type({"self", "input", "weight"}, {"self"});
  check.violations.push_back({"USE_FP16 with a BF16 weight",
                              [](const OpDef& def, CallSpec* spec) {
                                for (const char* name : {"weight", "gradWeight"}) {
                                  arg_of(def, spec, name).tensor.dtype = ACL_BF16;
                                }
                                arg_of(def, spec, "cubeMathType").integer = 2;
                                return arg_of(def, *spec, "self").tensor.dtype != ACL_BF16 &&
                                       arg_of(def, *spec, "input").tensor.dtype != ACL_BF16;
                              },
                              ACLNN_ERR_PARAM_INVALID,
                              {"cubeMathType 2 (USE_FP16) cannot be used with BF16 inputs, got "
                               "weight dtype BF16"}});
  return check;
}

// gradInput, gradWeight and gradBias: the shapes and dtypes of input, weight and bias; gradBias ND.
bool infer(const OpDef& def, CallSpec* spec) {
  for (const char* name : {"input", "weight", "bias"}) {
    if (arg_of(def, *spec, name).null) {
      return false;
    }
  }
  const TensorSpec& input = arg_of(def, *spec, "input").tensor;
  const TensorSpec& weight = arg_of(def, *spec, "weight").tensor;
  const TensorSpec& bias = arg_of(def, *spec, "bias").tensor;
  arg_of(def, spec, "gradInput") = build::tensor(input.shape, input.dtype, input.format);
  arg_of(def, spec, "gradWeight") = build::tensor(weight.shape, weight.dtype, weight.format);
  arg_of(def, spec, "gradBias") = build::tensor(bias.shape, bias.dtype);
  return true;
}

// The dtypes of one sample: self, input, weight, bias (and gradBias), gradWeight.
struct Dtypes {
  aclDataType self;
  aclDataType input;
  aclDataType weight;
  aclDataType bias;
  aclDataType grad_weight;
};

const OpDef& definition() {
  static const OpDef def = [] {
    using namespace build;
    OpDef d("ConvTbcBackward", "aclnnop/aclnn_convolution_backward.h",
            "gradients of ConvTbc with respect to its input, weight and bias");
    d.params = {
        input("self", kFloatDtypes, "(T + 2 pad - K + 1, B, Cout): the output's gradient"),
        input("input", kFloatDtypes, "(T, B, Cin)"),
        input("weight", kFloatDtypes, "(K, Cin, Cout)"),
        input("bias", kFloatDtypes, "(Cout)"),
        pad_param(),
        cube_math_type_param(),
        output("gradInput", kFloatDtypes, "input's shape and dtype"),
        output("gradWeight", kGradWeightDtypes, "weight's shape; weight's dtype or an 8-bit float"),
        output("gradBias", kFloatDtypes, "bias's shape and dtype")};
    const rules::Names inputs = {"self", "input", "weight", "bias"};
    const rules::Names tensors = {"self",      "input",      "weight",  "bias",
                                  "gradInput", "gradWeight", "gradBias"};
    d.checks = {
        rules::not_null({"self", "input", "weight", "bias", "gradInput", "gradWeight", "gradBias",
                         "workspaceSize", "executor"}),
        rules::dtype_in({"self", "input", "weight", "bias", "gradInput", "gradBias"}, kFloatDtypes),
        rules::dtype_in({"gradWeight"}, kGradWeightDtypes),
        rules::same_dtype({"gradInput"}, "input"),
        rules::same_dtype({"gradBias"}, "bias"),
        grad_weight_dtype(),
        rules::format_in({"self", "input", "weight", "bias", "gradInput", "gradWeight"},
                         tbc_formats()),
        rules::format_in({"gradBias"}, {ACL_FORMAT_ND}),
        rules::rank_in({"self", "input", "weight", "gradInput", "gradWeight"}, 3, 3),
        rules::rank_in({"bias", "gradBias"}, 1, 1),
        tbc_channels("input"),
        tbc_kernel_size(),
        tbc_pad(),
        not_empty("self"),
        tbc_output_length("self", "input"),
        rules::same_shape({"gradInput"}, "input"),
        rules::same_shape({"gradWeight"}, "weight"),
        rules::same_shape({"gradBias"}, "bias"),
        backward_cube_math_type(),
        rules::in_device_memory(tensors),
        rules::disjoint_output("gradInput", inputs, false),
        rules::disjoint_output("gradWeight", {"self", "input", "weight", "bias", "gradInput"},
                               false),
        rules::disjoint_output(
            "gradBias", {"self", "input", "weight", "bias", "gradInput", "gradWeight"}, false),
    };
    d.infer = infer;
    d.impls = {tbc_backward_onednn(), tbc_backward_reference()};
    // T, B, Cin, Cout, K, pad.
    auto call = [&d](Shape s, const Dtypes& t, int64_t cube_math_type,
                     aclFormat format = ACL_FORMAT_ND) {
      const int64_t tout = tbc_tout(s[0], s[5], s[4]);
      CallSpec spec = sample(d, {{"self", tensor({tout, s[1], s[3]}, t.self, format)},
                                 {"input", tensor({s[0], s[1], s[2]}, t.input, format)},
                                 {"weight", tensor({s[4], s[2], s[3]}, t.weight, format)},
                                 {"bias", tensor({s[3]}, t.bias, format)},
                                 {"pad", integer(s[5])},
                                 {"cubeMathType", integer(cube_math_type)}});
      arg_of(d, &spec, "gradWeight").tensor.dtype = t.grad_weight;
      return spec;
    };
    const Dtypes f32{ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, ACL_FLOAT};
    const Dtypes bf16{ACL_BF16, ACL_BF16, ACL_BF16, ACL_BF16, ACL_BF16};
    d.samples = {
        call({6, 2, 3, 4, 3, 1}, f32, 0),
        // Mixed input dtypes (promoted), every tensor but gradBias NCL.
        call({9, 3, 5, 7, 4, 2}, {ACL_FLOAT16, ACL_BF16, ACL_FLOAT, ACL_BF16, ACL_FLOAT}, 1,
             ACL_FORMAT_NCL),
        // 8-bit gradWeight; FLOAT operands rounded to float16 and to HF32.
        call({12, 2, 6, 3, 5, 2}, {ACL_FLOAT, ACL_FLOAT16, ACL_FLOAT, ACL_FLOAT16, ACL_HIFLOAT8},
             2),
        call({20, 3, 8, 5, 7, 3}, {ACL_BF16, ACL_FLOAT, ACL_BF16, ACL_FLOAT, ACL_FLOAT8_E4M3FN}, 3),
        // bfloat16 products, a kernel whose classes fold across the batches.
        call({17, 3, 4, 9, 5, 2}, bf16, 0),
        // A pad far beyond the kernel: most times of self see only padding.
        call({3, 2, 4, 4, 3, 30}, f32, 3),
        // One tap over one input channel: gradients small enough to lie inside bias's storage
        // (where the conformance test puts them to overlap bias).
        call({2, 1, 1, 8, 1, 0}, f32, 1),
        // No input times (gradInput empty, gradWeight zeros), no input channels.
        call({0, 2, 3, 4, 2, 1}, f32, 0),
        call({5, 2, 0, 4, 3, 1}, {ACL_FLOAT16, ACL_FLOAT16, ACL_FLOAT16, ACL_FLOAT16, ACL_FLOAT16},
             2),
    };
    return d;
  }();
  return def;
}

const OpRegistration kRegistration(definition);

}  // namespace
}  // namespace oa::conv

extern "C" aclnnStatus aclnnConvTbcBackwardGetWorkspaceSize(
    const aclTensor* self, const aclTensor* input, const aclTensor* weight, const aclTensor* bias,
    int64_t pad, int8_t cubeMathType, aclTensor* gradInput, aclTensor* gradWeight,
    aclTensor* gradBias, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return oa::plan_op(
      oa::conv::definition(),
      {self, input, weight, bias, pad, cubeMathType, gradInput, gradWeight, gradBias},
      workspaceSize, executor);
}

extern "C" aclnnStatus aclnnConvTbcBackward(void* workspace, uint64_t workspaceSize,
                                            aclOpExecutor* executor, const aclrtStream stream) {
  return oa::launch_op(oa::conv::definition(), workspace, workspaceSize, executor, stream);
}
