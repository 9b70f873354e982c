// aclnnMseLossBackward: out = 2 (self - target) gradOutput / N over the broadcast of the three,
// N the number of loss terms for reduction mean (CANN divides by self's element count, which is
// wrong when self itself is broadcast), else 1.
#include "aclnnop/aclnn_mse_loss_backward.h"

#include "core/op/build.h"
#include "ops/loss/elementwise_loss.h"
#include "ops/loss/loss_rules.h"
#include "ops/loss/samples.h"

namespace oa::loss {
namespace {

const OpDef& definition() {
  static const OpDef def = [] {
    using namespace build;
    OpDef d("MseLossBackward", "aclnnop/aclnn_mse_loss_backward.h",
            "gradient of the mean squared error with respect to self");
    const std::string rank = "rank 0-8, broadcasts; the dtype of self";
    d.params = {input("gradOutput", kFloatDtypes, rank),
                input("self", kFloatDtypes, "rank 0-8, broadcasts"),
                input("target", kFloatDtypes, rank), reduction(),
                output("out", kFloatDtypes, "the broadcast of gradOutput, self and target")};
    const rules::Names inputs = {"gradOutput", "self", "target"};
    d.checks = {
        rules::not_null({"workspaceSize", "executor", "gradOutput", "self", "target", "out"}),
        rules::same_dtype({"gradOutput", "target"}, "self"),
        violated_together(rules::dtype_in({"self"}, kFloatDtypes), inputs,
                          {"self dtype must be one of", "got INT16"}),
        rules::dtype_in({"out"}, kFloatDtypes),
        rules::named_value("reduction"),
        rules::rank_in(inputs, 0, 8),
        rules::broadcast_to(inputs, "out"),
        rules::in_device_memory({"gradOutput", "self", "target", "out"}),
        rules::disjoint_output("out", inputs, true),
    };
    const Variants variants =
        single(formula_op(inputs, "out", mse_grad_formula(), scale_params(2.0), ""));
    d.infer = variant_infer(variants);
    d.impls = variant_impls(variants);
    d.samples = gradient_samples(d, "out", true);
    return d;
  }();
  return def;
}

const OpRegistration kRegistration(definition);

}  // namespace
}  // namespace oa::loss

extern "C" aclnnStatus aclnnMseLossBackwardGetWorkspaceSize(
    const aclTensor* gradOutput, const aclTensor* self, const aclTensor* target, int64_t reduction,
    aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return oa::plan_op(oa::loss::definition(), {gradOutput, self, target, reduction, out},
                     workspaceSize, executor);
}

extern "C" aclnnStatus aclnnMseLossBackward(void* workspace, uint64_t workspaceSize,
                                            aclOpExecutor* executor, aclrtStream stream) {
  return oa::launch_op(oa::loss::definition(), workspace, workspaceSize, executor, stream);
}
