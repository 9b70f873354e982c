// aclnnSoftMarginLoss: log(1 + exp(-target self)) per broadcast element, or its deterministic mean
// or sum. As CANN (whose tests call it with 3 and -4), a reduction other than 0 (none) and 1
// (mean) is a sum.
#include "aclnnop/aclnn_soft_margin_loss.h"

#include "core/op/build.h"
#include "ops/loss/elementwise_loss.h"
#include "ops/loss/loss_rules.h"
#include "ops/loss/samples.h"

namespace oa::loss {
namespace {

const OpDef& definition() {
  static const OpDef def = [] {
    using namespace build;
    OpDef d("SoftMarginLoss", "aclnnop/aclnn_soft_margin_loss.h",
            "soft margin loss of self against targets of +-1");
    d.params = {input("self", kFloatDtypes, "rank 0-8, broadcasts with target"),
                input("target", kFloatDtypes, "rank 0-8, broadcasts with self"),
                integer("reduction", "0 none, 1 mean, 2 sum (any other value: sum, as CANN)",
                        {{"none", 0}, {"mean", 1}, {"sum", 2}}, 1),
                output("out", kFloatDtypes, "the broadcast shape (reduction none) or 0-d")};
    d.checks = {
        rules::not_null({"workspaceSize", "executor", "self", "target", "out"}),
        rules::dtype_in({"self", "target", "out"}, kFloatDtypes),
        rules::rank_in({"self", "target"}, 0, 8),
        loss_result({"self", "target"}, "out", ReducedShape::scalar),
        rules::in_device_memory({"self", "target", "out"}),
        rules::disjoint_output("out", {"self", "target"}, true),
    };
    const Variants variants = single(formula_op(
        {"self", "target"}, "out", soft_margin_term_formula(), no_params(), "reduction"));
    d.infer = variant_infer(variants);
    d.tolerance = elementwise_tolerance(variants.ops[0]);
    d.impls = variant_impls(variants);
    d.samples = pair_samples(d, "out");
    // CANN's tests: reductions 3 and -4 are sums.
    d.samples.push_back(sample(
        d, {{"self", tensor({6, 39})}, {"target", tensor({6, 1})}, {"reduction", integer(-4)}}));
    d.samples.push_back(sample(d, {{"self", tensor({}, ACL_BF16)},
                                   {"target", tensor({}, ACL_BF16)},
                                   {"reduction", integer(3)}}));
    return d;
  }();
  return def;
}

const OpRegistration kRegistration(definition);

}  // namespace
}  // namespace oa::loss

extern "C" aclnnStatus aclnnSoftMarginLossGetWorkspaceSize(const aclTensor* self,
                                                           const aclTensor* target,
                                                           int64_t reduction, aclTensor* out,
                                                           uint64_t* workspaceSize,
                                                           aclOpExecutor** executor) {
  return oa::plan_op(oa::loss::definition(), {self, target, reduction, out}, workspaceSize,
                     executor);
}

extern "C" aclnnStatus aclnnSoftMarginLoss(void* workspace, uint64_t workspaceSize,
                                           aclOpExecutor* executor, aclrtStream stream) {
  return oa::launch_op(oa::loss::definition(), workspace, workspaceSize, executor, stream);
}
