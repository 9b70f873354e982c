// aclnnMseLoss: (self - target)^2 per broadcast element, or its deterministic mean or sum.
#include "aclnnop/aclnn_mse_loss.h"

#include "core/op/build.h"
#include "ops/loss/elementwise_loss.h"
#include "ops/loss/loss_rules.h"
#include "ops/loss/samples.h"

namespace oa::loss {
namespace {

const OpDef& definition() {
  static const OpDef def = [] {
    using namespace build;
    OpDef d("MseLoss", "aclnnop/aclnn_mse_loss.h", "mean squared error of self against target");
    d.params = {input("self", kFloatDtypes, "rank 0-8, broadcasts with target"),
                input("target", kFloatDtypes, "rank 0-8, broadcasts with self"), reduction(),
                output("out", kFloatDtypes, "the broadcast shape (reduction none) or 0-d")};
    d.checks = {
        rules::not_null({"workspaceSize", "executor", "self", "target", "out"}),
        promoted_in({"self", "target"}, kFloatDtypes),
        rules::dtype_in({"self", "target", "out"}, kFloatDtypes),
        rules::named_value("reduction"),
        rules::rank_in({"self", "target"}, 0, 8),
        loss_result({"self", "target"}, "out", ReducedShape::scalar),
        rules::in_device_memory({"self", "target", "out"}),
        rules::disjoint_output("out", {"self", "target"}, true),
    };
    const Variants variants =
        single(formula_op({"self", "target"}, "out", mse_term_formula(), no_params(), "reduction"));
    d.infer = variant_infer(variants);
    d.tolerance = elementwise_tolerance(variants.ops[0]);
    d.impls = variant_impls(variants);
    d.samples = pair_samples(d, "out");
    d.samples.push_back(
        sample(d, {{"self", tensor({5, 38}, ACL_BF16)}, {"target", tensor({5, 38}, ACL_BF16)}}));
    return d;
  }();
  return def;
}

const OpRegistration kRegistration(definition);

}  // namespace
}  // namespace oa::loss

extern "C" aclnnStatus aclnnMseLossGetWorkspaceSize(const aclTensor* self, const aclTensor* target,
                                                    int64_t reduction, aclTensor* out,
                                                    uint64_t* workspaceSize,
                                                    aclOpExecutor** executor) {
  return oa::plan_op(oa::loss::definition(), {self, target, reduction, out}, workspaceSize,
                     executor);
}

extern "C" aclnnStatus aclnnMseLoss(void* workspace, uint64_t workspaceSize,
                                    aclOpExecutor* executor, aclrtStream stream) {
  return oa::launch_op(oa::loss::definition(), workspace, workspaceSize, executor, stream);
}
