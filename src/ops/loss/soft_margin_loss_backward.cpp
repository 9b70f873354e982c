// aclnnSoftMarginLossBackward: out = -target sigma(-target self) gradOutput / N over the broadcast
// of the three, N the number of loss terms for reduction mean, else 1. CANN does not check the
// reduction here (it indexes a table of three names with it); openaclnn rejects any value but 0,
// 1 and 2.
#include "aclnnop/aclnn_soft_margin_loss_backward.h"

#include "core/op/build.h"
#include "ops/loss/elementwise_loss.h"
#include "ops/loss/loss_rules.h"
#include "ops/loss/samples.h"

namespace oa::loss {
namespace {

const OpDef& definition() {
  static const OpDef def = [] {
    using namespace build;
    OpDef d("SoftMarginLossBackward", "aclnnop/aclnn_soft_margin_loss_backward.h",
            "gradient of the soft margin loss with respect to self");
    const std::string rank = "rank 0-8, broadcasts";
    d.params = {input("gradOutput", kFloatDtypes, rank), input("self", kFloatDtypes, rank),
                input("target", kFloatDtypes, rank), reduction(),
                output("out", kFloatDtypes, "the broadcast of gradOutput, self and target")};
    const rules::Names inputs = {"gradOutput", "self", "target"};
    d.checks = {
        rules::not_null({"workspaceSize", "executor", "gradOutput", "self", "target", "out"}),
        rules::dtype_in({"gradOutput", "self", "target", "out"}, kFloatDtypes),
        rules::rank_in(inputs, 0, 8),
        rules::broadcast_to(inputs, "out"),
        rules::named_value("reduction"),
        rules::in_device_memory({"gradOutput", "self", "target", "out"}),
        rules::disjoint_output("out", inputs, true),
    };
    const Variants variants =
        single(formula_op(inputs, "out", soft_margin_grad_formula(), scale_params(1.0), ""));
    d.infer = variant_infer(variants);
    d.impls = variant_impls(variants);
    d.samples = gradient_samples(d, "out", false);
    return d;
  }();
  return def;
}

const OpRegistration kRegistration(definition);

}  // namespace
}  // namespace oa::loss

extern "C" aclnnStatus aclnnSoftMarginLossBackwardGetWorkspaceSize(
    const aclTensor* gradOutput, const aclTensor* self, const aclTensor* target, int64_t reduction,
    aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return oa::plan_op(oa::loss::definition(), {gradOutput, self, target, reduction, out},
                     workspaceSize, executor);
}

extern "C" aclnnStatus aclnnSoftMarginLossBackward(void* workspace, uint64_t workspaceSize,
                                                   aclOpExecutor* executor, aclrtStream stream) {
  return oa::launch_op(oa::loss::definition(), workspace, workspaceSize, executor, stream);
}
