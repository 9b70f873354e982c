// aclnnKlDiv: target (log target - self) per element of the broadcast (0 where target is 0, as
// xlogy), or with logTarget exp(target) (target - self); or the deterministic mean, sum or
// batchmean (the sum over the broadcast shape's first dim, as CANN).
#include "aclnnop/aclnn_kl_div.h"

#include "core/op/build.h"
#include "ops/loss/elementwise_loss.h"
#include "ops/loss/loss_rules.h"

namespace oa::loss {
namespace {

// The sum is divided by the term count for mean, the broadcast shape's first dim for batchmean (1
// for 0-d inputs, which CANN reshapes to [1]), else by 1.
double divisor(const Call& call, const Shape& shape) {
  switch (call.integer("reduction")) {
    case 1:
      return static_cast<double>(numel(shape));
    case 3:
      return shape.empty() ? 1.0 : static_cast<double>(shape[0]);
    default:
      return 1.0;
  }
}

ElementwiseOp term(bool log_target) {
  ElementwiseOp op = formula_op({"self", "target"}, "out", kl_div_term_formula(log_target),
                                no_params(), "reduction");
  op.divisor = divisor;
  return op;
}

const OpDef& definition() {
  static const OpDef def = [] {
    using namespace build;
    OpDef d("KlDiv", "aclnnop/aclnn_kl_div.h",
            "Kullback-Leibler divergence of target from log-probabilities self");
    d.params = {input("self", kFloatDtypes, "log-probabilities, rank 0-8, broadcasts with target"),
                input("target", kFloatDtypes, "rank 0-8, broadcasts with self"),
                integer("reduction", "0 none, 1 mean, 2 sum, 3 batchmean",
                        {{"none", 0}, {"mean", 1}, {"sum", 2}, {"batchmean", 3}}, 1),
                flag("logTarget", "target holds log-probabilities", false),
                output("out", kFloatDtypes, "the broadcast shape (reduction none) or one element")};
    d.checks = {
        rules::not_null({"self", "target", "out"}),
        rules::dtype_in({"self", "target", "out"}, kFloatDtypes),
        rules::rank_in({"self", "target"}, 0, 8),
        rules::named_value("reduction"),
        loss_result({"self", "target"}, "out", ReducedShape::one_element),
        rules::in_device_memory({"self", "target", "out"}),
        rules::disjoint_output("out", {"self", "target"}, true),
    };
    const Variants variants = by_flag("logTarget", term(false), term(true));
    d.infer = variant_infer(variants);
    d.tolerance = elementwise_tolerance(variants.ops[0]);
    d.impls = variant_impls(variants);
    // Probabilities (zeros among them) where target is not a logarithm.
    d.input_values = probability_inputs(d, {"target"}, "logTarget");
    const auto call = [&](Shape x, aclDataType tx, Shape y, aclDataType ty, int64_t reduction,
                          bool log_target) {
      return sample(d, {{"self", tensor(std::move(x), tx)},
                        {"target", tensor(std::move(y), ty)},
                        {"reduction", integer(reduction)},
                        {"logTarget", flag(log_target)}});
    };
    d.samples = {
        call({2, 67}, ACL_FLOAT, {2, 67}, ACL_FLOAT, 0, false),
        call({4, 1, 37}, ACL_FLOAT16, {5, 37}, ACL_BF16, 1, false),
        call({3, 70}, ACL_BF16, {3, 70}, ACL_FLOAT, 2, true),
        call({1, 40}, ACL_FLOAT, {6, 40}, ACL_FLOAT, 3, false),
        with_dtype(d, call({2, 3, 41}, ACL_FLOAT16, {2, 3, 41}, ACL_FLOAT16, 0, true), "out",
                   ACL_FLOAT),
        with_dtype(d, call({}, ACL_FLOAT, {}, ACL_FLOAT, 3, false), "out", ACL_BF16),
        call({5}, ACL_FLOAT, {}, ACL_FLOAT, 0, false),
        call({3, 1, 0, 5}, ACL_FLOAT, {3, 1, 0, 5}, ACL_FLOAT, 0, false),
        call({0, 4}, ACL_FLOAT16, {4}, ACL_FLOAT16, 3, true),
    };
    return d;
  }();
  return def;
}

const OpRegistration kRegistration(definition);

}  // namespace
}  // namespace oa::loss

extern "C" aclnnStatus aclnnKlDivGetWorkspaceSize(const aclTensor* self, const aclTensor* target,
                                                  int64_t reduction, bool logTarget, aclTensor* out,
                                                  uint64_t* workspaceSize,
                                                  aclOpExecutor** executor) {
  return oa::plan_op(oa::loss::definition(), {self, target, reduction, logTarget, out},
                     workspaceSize, executor);
}

extern "C" aclnnStatus aclnnKlDiv(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                  aclrtStream stream) {
  return oa::launch_op(oa::loss::definition(), workspace, workspaceSize, executor, stream);
}
