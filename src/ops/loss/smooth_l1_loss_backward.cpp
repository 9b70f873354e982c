// aclnnSmoothL1LossBackward (SPEC section 9): gradInput = grad(self - target) · gradOutput · norm,
// broadcast over the three inputs, computed in float32 per element.
#include "aclnnop/aclnn_smooth_l1_loss_backward.h"

#include <limits>

#include "core/elementwise_op.h"
#include "core/op/build.h"
#include "core/op/rules.h"
#include "ops/loss/loss_rules.h"
#include "ops/loss/smooth_l1.h"
#include "runtime/error.h"

namespace oa::loss {
namespace {

const ElementwiseOp kOp = {
    {"gradOutput", "self", "target"},
    "gradInput",
    smooth_l1_backward_formula,
    smooth_l1_backward_kernels,
    [](const Call& call, const Shape& shape) {
      // The mean's derivative divides by the number of loss terms: the broadcast element count.
      const bool mean = static_cast<Reduction>(call.integer("reduction")) == Reduction::mean;
      ElementwiseParams p;
      p.v[0] = static_cast<float>(call.real("beta"));
      p.v[1] = mean ? static_cast<float>(1.0 / static_cast<double>(numel(shape))) : 1.0f;
      return p;
    },
    "",
    nullptr};

// beta >= 0, the boundary included: -inf and the smallest negative values fail too.
Check beta_at_least_zero() {
  Check check = rules::at_least("beta", 0);
  for (double beta : {-std::numeric_limits<double>::infinity(), -1e-30}) {
    check.violations.push_back({"beta " + format("%g", beta),
                                [beta](const OpDef& def, CallSpec* spec) {
                                  arg_of(def, spec, "beta")->real = beta;
                                  return true;
                                },
                                ACLNN_ERR_PARAM_INVALID,
                                {"beta must be >= 0", "got " + format("%g", beta)}});
  }
  return check;
}

const OpDef& definition() {
  static const OpDef def = [] {
    using namespace build;
    OpDef d("SmoothL1LossBackward", "aclnnop/aclnn_smooth_l1_loss_backward.h",
            "gradient of the smooth L1 loss with respect to self");
    const std::string rank = "rank 0-8, broadcasts";
    d.params = {input("gradOutput", kFloatDtypes, rank),
                input("self", kFloatDtypes, rank),
                input("target", kFloatDtypes, rank),
                reduction(),
                real("beta", "float >= 0 (0: the L1 loss)", 1.0),
                output("gradInput", kFloatDtypes, "the broadcast of gradOutput, self and target")};
    const rules::Names tensors = {"gradOutput", "self", "target", "gradInput"};
    d.checks = {
        rules::not_null({"workspaceSize", "executor", "gradOutput", "self", "target", "gradInput"}),
        rules::dtype_in(tensors, kFloatDtypes),
        rules::rank_in(tensors, 0, 8),
        rules::named_value("reduction"),
        beta_at_least_zero(),
        rules::broadcast_to({"gradOutput", "self", "target"}, "gradInput"),
        rules::in_device_memory(tensors),
        rules::disjoint_output("gradInput", {"gradOutput", "self", "target"}, true),
    };
    d.infer = elementwise_infer(kOp);
    d.impls = {elementwise_simd(kOp), elementwise_reference(kOp)};
    d.samples = {
        sample(d, {{"gradOutput", tensor({2, 67})},
                   {"self", tensor({2, 67})},
                   {"target", tensor({2, 67})},
                   {"reduction", integer(0)}}),
        sample(d, {{"gradOutput", tensor({}, ACL_BF16)},
                   {"self", tensor({4, 1, 37}, ACL_FLOAT16)},
                   {"target", tensor({5, 37})},
                   {"beta", real(0.5)}}),
        sample(d, {{"gradOutput", tensor({3, 70}, ACL_BF16)},
                   {"self", tensor({3, 70}, ACL_BF16)},
                   {"target", tensor({3, 70}, ACL_BF16)},
                   {"reduction", integer(2)},
                   {"beta", real(0)}}),
        sample(d,
               {{"gradOutput", tensor({0, 3})}, {"self", tensor({0, 3})}, {"target", tensor({3})}}),
    };
    return d;
  }();
  return def;
}

const OpRegistration kRegistration(definition);

}  // namespace
}  // namespace oa::loss

extern "C" aclnnStatus aclnnSmoothL1LossBackwardGetWorkspaceSize(
    const aclTensor* gradOutput, const aclTensor* self, const aclTensor* target, int64_t reduction,
    float beta, aclTensor* gradInput, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return oa::plan_op(oa::loss::definition(), {gradOutput, self, target, reduction, beta, gradInput},
                     workspaceSize, executor);
}

extern "C" aclnnStatus aclnnSmoothL1LossBackward(void* workspace, uint64_t workspaceSize,
                                                 aclOpExecutor* executor, aclrtStream stream) {
  return oa::launch_op(oa::loss::definition(), workspace, workspaceSize, executor, stream);
}
