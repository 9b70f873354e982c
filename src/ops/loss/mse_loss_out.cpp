// aclnnMseLossOut: (self - target)^2 per broadcast element for reduction none; for mean and sum,
// unlike aclnnMseLoss, reduced over the broadcast shape's first dim only (as CANN's code: out has
// the broadcast shape without that dim; an empty first dim gives NaN means and zero sums).
#include "aclnnop/aclnn_mse_loss_out.h"

#include "core/op/build.h"
#include "ops/loss/elementwise_loss.h"
#include "ops/loss/first_dim_sum.h"
#include "ops/loss/loss_rules.h"
#include "ops/loss/samples.h"

namespace oa::loss {
namespace {

bool reduces(const Call& call) { return call.integer("reduction") != 0; }

const OpDef& definition() {
  static const OpDef def = [] {
    using namespace build;
    OpDef d("MseLossOut", "aclnnop/aclnn_mse_loss_out.h",
            "mean squared error of self against target, reduced over the first dim");
    d.params = {input("self", kFloatDtypes, "rank 0-8, broadcasts with target"),
                input("target", kFloatDtypes, "rank 0-8, broadcasts with self"), reduction(),
                output("out", kFloatDtypes,
                       "the broadcast shape (reduction none), else without its first dim")};
    d.checks = {
        rules::not_null({"workspaceSize", "executor", "self", "target", "out"}),
        promoted_in({"self", "target"}, kFloatDtypes),
        rules::dtype_in({"self", "target", "out"}, kFloatDtypes),
        rules::named_value("reduction"),
        rules::rank_in({"self", "target"}, 0, 8),
        loss_result({"self", "target"}, "out", ReducedShape::first_dim_gone),
        rules::in_device_memory({"self", "target", "out"}),
        rules::disjoint_output("out", {"self", "target"}, true),
    };
    // The terms as an elementwise operator (reduction none); the reductions sum them by rows.
    const ElementwiseOp op =
        formula_op({"self", "target"}, "out", mse_term_formula(), no_params(), "");
    const auto infer = elementwise_infer(op);
    d.infer = [infer](const OpDef& def, CallSpec* spec) {
      if (!infer(def, spec)) {
        return false;
      }
      TensorSpec& out = arg_of(def, spec, "out")->tensor;
      if (reduction_of(def, *spec) != 0 && !out.shape.empty()) {
        out.shape.erase(out.shape.begin());
      }
      return true;
    };
    Impl simd = elementwise_simd(op);
    simd.applies = [](const Call& call, std::string* why_not) {
      *why_not = "a reduction";
      return !reduces(call);
    };
    Impl rows = first_dim_sum_fast(op);
    rows.applies = [](const Call& call, std::string* why_not) {
      *why_not = "reduction none";
      return reduces(call);
    };
    Impl reference = elementwise_reference(op);
    const auto terms = reference.plan;
    const auto sums = first_dim_sum_reference(op).plan;
    reference.plan = [terms, sums](const Call& call, Planned* planned) {
      return reduces(call) ? sums(call, planned) : terms(call, planned);
    };
    d.impls = {simd, rows, reference};
    d.samples = pair_samples(d, "out");
    d.samples.push_back(sample(
        d, {{"self", tensor({7, 40})}, {"target", tensor({40})}, {"reduction", integer(2)}}));
    d.samples.push_back(sample(d, {{"self", tensor({1, 0, 1, 2})},
                                   {"target", tensor({1, 0, 1, 2})},
                                   {"reduction", integer(2)}}));
    return d;
  }();
  return def;
}

const OpRegistration kRegistration(definition);

}  // namespace
}  // namespace oa::loss

extern "C" aclnnStatus aclnnMseLossOutGetWorkspaceSize(const aclTensor* self,
                                                       const aclTensor* target, int64_t reduction,
                                                       aclTensor* out, uint64_t* workspaceSize,
                                                       aclOpExecutor** executor) {
  return oa::plan_op(oa::loss::definition(), {self, target, reduction, out}, workspaceSize,
                     executor);
}

extern "C" aclnnStatus aclnnMseLossOut(void* workspace, uint64_t workspaceSize,
                                       aclOpExecutor* executor, aclrtStream stream) {
  return oa::launch_op(oa::loss::definition(), workspace, workspaceSize, executor, stream);
}
