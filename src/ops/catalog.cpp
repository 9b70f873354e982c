#include "ops/catalog.h"

#include "core/elementwise.h"
#include "ops/dtype_sets.h"

namespace oa::ops {
namespace {

OpParam input(std::string name, DtypeSet dtypes, std::string rule) {
  return {std::move(name), ParamKind::input, std::move(dtypes), std::move(rule)};
}

OpParam output(std::string name, DtypeSet dtypes, std::string rule) {
  return {std::move(name), ParamKind::output, std::move(dtypes), std::move(rule)};
}

OpParam attribute(std::string name, std::string rule) {
  return {std::move(name), ParamKind::attribute, {}, std::move(rule)};
}

const std::string kElementwiseRank = "rank 0-" + std::to_string(kMaxElementwiseRank);
const std::string kReduction = "int64: 0 none, 1 mean, 2 sum";
const std::string kBeta = "float >= 0 (0: the L1 loss)";
const std::string kPad = "int64 >= 0, zeros on both ends of T";
const std::string kCubeMathType =
    "int8: 0 KEEP_DTYPE, 1 ALLOW_FP32_DOWN_PRECISION, 2 USE_FP16, 3 USE_HF32";

std::vector<OpInfo> build_catalog() {
  return {
      {"SmoothL1Loss",
       "aclnnop/aclnn_smooth_l1_loss.h",
       "smooth L1 loss of self against target",
       {input("self", kFloatDtypes, kElementwiseRank + ", broadcasts with target"),
        input("target", kFloatDtypes, kElementwiseRank + ", broadcasts with self"),
        attribute("reduction", kReduction), attribute("beta", kBeta),
        output("result", kFloatDtypes, "the broadcast shape (reduction none) or 0-d (mean, sum)")}},
      {"SmoothL1LossBackward",
       "aclnnop/aclnn_smooth_l1_loss_backward.h",
       "gradient of the smooth L1 loss with respect to self",
       {input("gradOutput", kFloatDtypes, kElementwiseRank + ", broadcasts"),
        input("self", kFloatDtypes, kElementwiseRank + ", broadcasts"),
        input("target", kFloatDtypes, kElementwiseRank + ", broadcasts"),
        attribute("reduction", kReduction), attribute("beta", kBeta),
        output("gradInput", kFloatDtypes, "the broadcast shape of gradOutput, self and target")}},
      {"ConvTbc",
       "aclnnop/aclnn_convolution.h",
       "1-D convolution over time of a (time, batch, channel) sequence",
       {input("self", kFloatDtypes, "(T, B, Cin)"),
        input("weight", kFloatDtypes, "(K, Cin, Cout), K >= 1, self's dtype"),
        input("bias", kFloatDtypes, "(Cout), any of the float dtypes (converted)"),
        attribute("pad", kPad),
        output("output", kFloatDtypes, "(T + 2 pad - K + 1, B, Cout), self's dtype"),
        attribute("cubeMathType", kCubeMathType)}},
      {"ConvTbcBackward",
       "aclnnop/aclnn_convolution_backward.h",
       "gradients of ConvTbc with respect to its input, weight and bias",
       {input("self", kFloatDtypes, "(T + 2 pad - K + 1, B, Cout): the output's gradient"),
        input("input", kFloatDtypes, "(T, B, Cin)"),
        input("weight", kFloatDtypes, "(K, Cin, Cout)"), input("bias", kFloatDtypes, "(Cout)"),
        attribute("pad", kPad), attribute("cubeMathType", kCubeMathType),
        output("gradInput", kFloatDtypes, "input's shape and dtype"),
        output("gradWeight", kGradWeightDtypes, "weight's shape; weight's dtype or an 8-bit float"),
        output("gradBias", kFloatDtypes, "bias's shape and dtype")}},
      {"AdaptiveMaxPool2d",
       "aclnnop/aclnn_adaptive_max_pool2d.h",
       "adaptive 2-D max pooling with the positions of the maxima",
       {input("self", kPoolForwardDtypes, "[N, C, H, W] or [C, H, W], format ND or NCHW"),
        attribute("outputSize", "two int64 >= 1: Ho, Wo"),
        output("outputOut", kPoolForwardDtypes, "self's dtype, shape [..., Ho, Wo]"),
        output("indicesOut", {ACL_INT64}, "shape [..., Ho, Wo], index h * W + w in the plane")}},
      {"AdaptiveMaxPool2dBackward",
       "aclnnop/aclnn_adaptive_max_pool2d_backward.h",
       "gradient of AdaptiveMaxPool2d with respect to self",
       {input("gradOutput", kFloatDtypes, "[N, C, Ho, Wo] or [C, Ho, Wo], self's dtype"),
        input("self", kFloatDtypes, "the forward input (only its shape is used)"),
        input("indices", kIndexDtypes, "gradOutput's shape, values in [0, H * W)"),
        output("gradInput", kFloatDtypes, "self's shape and dtype")}},
  };
}

}  // namespace

const std::vector<OpInfo>& operator_catalog() {
  static const std::vector<OpInfo> catalog = build_catalog();
  return catalog;
}

}  // namespace oa::ops
