// aclnnL1LossBackward: gradInput = sign(self - target) gradOutput / N (sign(0) = 0) over the
// broadcast of the three, N the number of loss terms for reduction mean, else 1.
#include "aclnnop/aclnn_l1_loss_backward.h"

#include "core/op/build.h"
#include "ops/loss/elementwise_loss.h"
#include "ops/loss/loss_rules.h"
#include "ops/loss/samples.h"

namespace oa::loss {
namespace {

const OpDef& definition() {
  static const OpDef def = [] {
    using namespace build;
    OpDef d("L1LossBackward", "aclnnop/aclnn_l1_loss_backward.h",
            "gradient of the mean absolute error with respect to self");
    const std::string rank = "rank 0-8, broadcasts";
    d.params = {input("gradOutput", kFloatDtypes, rank), input("self", kFloatDtypes, rank),
                input("target", kFloatDtypes, rank), reduction(),
                output("gradInput", kFloatDtypes, "the broadcast of self, gradOutput and target")};
    const rules::Names inputs = {"gradOutput", "self", "target"};
    d.checks = {
        rules::not_null({"workspaceSize", "executor", "gradOutput", "self", "target", "gradInput"}),
        rules::named_value("reduction"),
        can_cast(inputs, "gradInput"),
        promoted_in(inputs, kFloatDtypes),
        computed_dtypes(inputs, {"gradInput"}, "integral inputs and other outputs"),
        rules::rank_in({"self", "target", "gradOutput", "gradInput"}, 0, 8),
        rules::broadcast_to({"self", "gradOutput", "target"}, "gradInput"),
        rules::in_device_memory({"gradOutput", "self", "target", "gradInput"}),
        rules::disjoint_output("gradInput", inputs, true),
    };
    const Variants variants =
        single(formula_op(inputs, "gradInput", l1_grad_formula(), scale_params(1.0), ""));
    d.infer = variant_infer(variants);
    d.impls = variant_impls(variants);
    d.samples = gradient_samples(d, "gradInput", false);
    return d;
  }();
  return def;
}

const OpRegistration kRegistration(definition);

}  // namespace
}  // namespace oa::loss

extern "C" aclnnStatus aclnnL1LossBackwardGetWorkspaceSize(
    const aclTensor* gradOutput, const aclTensor* self, const aclTensor* target, int64_t reduction,
    aclTensor* gradInput, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return oa::plan_op(oa::loss::definition(), {gradOutput, self, target, reduction, gradInput},
                     workspaceSize, executor);
}

extern "C" aclnnStatus aclnnL1LossBackward(void* workspace, uint64_t workspaceSize,
                                           aclOpExecutor* executor, aclrtStream stream) {
  return oa::launch_op(oa::loss::definition(), workspace, workspaceSize, executor, stream);
}
