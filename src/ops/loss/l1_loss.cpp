// aclnnL1Loss: |self - target| per broadcast element, or its deterministic mean or sum.
#include "aclnnop/aclnn_l1_loss.h"

#include "core/op/build.h"
#include "ops/loss/elementwise_loss.h"
#include "ops/loss/loss_rules.h"
#include "ops/loss/samples.h"
#include "runtime/error.h"

namespace oa::loss {
namespace {

bool floating(aclDataType dtype) {
  return dtype == ACL_FLOAT || dtype == ACL_FLOAT16 || dtype == ACL_BF16 || dtype == ACL_DOUBLE;
}

// CANN's two rules on integral inputs, before the promotion: for reduction none an integral self
// with a floating target is rejected, for mean two integral inputs (a mean needs a floating type).
Check integral_inputs() {
  Check check;
  check.rule = "reduction none: self floating when target is; mean: self or target floating";
  check.run = [](const Call& call) {
    const aclDataType self = call.tensor("self")->dtype;
    const aclDataType target = call.tensor("target")->dtype;
    const int64_t reduction = call.integer("reduction");
    if (reduction == 0 && !floating(self) && floating(target)) {
      return failf(ACLNN_ERR_PARAM_INVALID,
                   "%s: self dtype %s must be floating for reduction none when target's (%s) is",
                   call.op(), dtype_name(self).c_str(), dtype_name(target).c_str());
    }
    if (reduction == 1 && !floating(self) && !floating(target)) {
      return failf(ACLNN_ERR_PARAM_INVALID,
                   "%s: self or target dtype must be floating for reduction mean, got %s and %s",
                   call.op(), dtype_name(self).c_str(), dtype_name(target).c_str());
    }
    return ACLNN_SUCCESS;
  };
  const auto set = [](int64_t reduction, aclDataType self, aclDataType target) {
    return [=](const OpDef& def, CallSpec* spec) {
      if (reduction_of(def, *spec) != reduction) {
        return false;
      }
      arg_of(def, spec, "self")->tensor.dtype = self;
      arg_of(def, spec, "target")->tensor.dtype = target;
      return true;
    };
  };
  check.violations = {
      {"integral self, floating target, reduction none",
       set(0, ACL_INT32, ACL_FLOAT),
       ACLNN_ERR_PARAM_INVALID,
       {"self dtype INT32 must be floating for reduction none"}},
      {"integral self and target, reduction mean",
       set(1, ACL_INT32, ACL_INT16),
       ACLNN_ERR_PARAM_INVALID,
       {"self or target dtype must be floating for reduction mean"}},
  };
  return check;
}

const OpDef& definition() {
  static const OpDef def = [] {
    using namespace build;
    OpDef d("L1Loss", "aclnnop/aclnn_l1_loss.h", "mean absolute error of self against target");
    d.params = {input("self", kFloatDtypes, "rank 0-8, broadcasts with target"),
                input("target", kFloatDtypes, "rank 0-8, broadcasts with self"), reduction(),
                output("out", kFloatDtypes, "the broadcast shape (reduction none) or 0-d")};
    d.checks = {
        rules::not_null({"workspaceSize", "executor", "self", "target", "out"}),
        rules::named_value("reduction"),
        integral_inputs(),
        promoted_in({"self", "target"}, {ACL_FLOAT, ACL_FLOAT16, ACL_INT64, ACL_BF16}),
        can_cast({"self", "target"}, "out"),
        computed_dtypes({"self", "target"}, {"out"}, "INT64 inputs and other outputs"),
        rules::rank_in({"self", "target"}, 0, 8),
        loss_result({"self", "target"}, "out", ReducedShape::scalar),
        rules::in_device_memory({"self", "target", "out"}),
        rules::disjoint_output("out", {"self", "target"}, true),
    };
    const Variants variants =
        single(formula_op({"self", "target"}, "out", l1_term_formula(), no_params(), "reduction"));
    d.infer = variant_infer(variants);
    d.tolerance = elementwise_tolerance(variants.ops[0]);
    d.impls = variant_impls(variants);
    d.samples = pair_samples(d, "out");
    // CANN's test: empty FLOAT with empty FLOAT16, sum, into FLOAT16.
    d.samples.push_back(with_dtype(d,
                                   sample(d, {{"self", tensor({0, 5})},
                                              {"target", tensor({0, 5}, ACL_FLOAT16)},
                                              {"reduction", integer(2)}}),
                                   "out", ACL_FLOAT16));
    return d;
  }();
  return def;
}

const OpRegistration kRegistration(definition);

}  // namespace
}  // namespace oa::loss

extern "C" aclnnStatus aclnnL1LossGetWorkspaceSize(const aclTensor* self, const aclTensor* target,
                                                   int64_t reduction, aclTensor* out,
                                                   uint64_t* workspaceSize,
                                                   aclOpExecutor** executor) {
  return oa::plan_op(oa::loss::definition(), {self, target, reduction, out}, workspaceSize,
                     executor);
}

extern "C" aclnnStatus aclnnL1Loss(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                   aclrtStream stream) {
  return oa::launch_op(oa::loss::definition(), workspace, workspaceSize, executor, stream);
}
