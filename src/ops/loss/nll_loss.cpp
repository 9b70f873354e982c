// aclnnNLLLoss: the negative log likelihood of rows of log-probabilities self ([N, C], or [C] for
// one row) at their target classes, weighted (nll.h); out per row or reduced, totalWeightOut the
// sum of the weights of the rows not ignored (written for every reduction).
#include "aclnnop/aclnn_nll_loss.h"

#include "core/op/build.h"
#include "ops/loss/loss_rules.h"
#include "ops/loss/nll.h"
#include "ops/loss/nll_rules.h"

namespace oa::loss {
namespace {

const OpDef& definition() {
  static const OpDef def = [] {
    using namespace build;
    OpDef d("NLLLoss", "aclnnop/aclnn_nll_loss.h",
            "negative log likelihood of log-probabilities at target classes");
    d.params = {input("self", kFloatDtypes, "[N, C] or [C] log-probabilities"),
                input("target", nll::kTargetDtypes, "[N] (or 0-d for self [C]): classes in [0, C)"),
                input("weight", kFloatDtypes, "[C], self's dtype"),
                reduction(),
                integer("ignoreIndex", "a target value that contributes nothing", {}, -100),
                output("out", kFloatDtypes, "[N] (reduction none, self [N, C]), else one element"),
                output("totalWeightOut", kFloatDtypes, "one element")};
    const rules::Names tensors = {"self", "target", "weight", "out", "totalWeightOut"};
    d.checks = {
        rules::not_null(tensors),
        rules::same_dtype({"weight"}, "self"),
        can_cast({"self"}, "out"),
        can_cast({"self"}, "totalWeightOut"),
        computed_dtypes({}, {"out", "totalWeightOut"}, "DOUBLE and complex outputs"),
        violated_together(rules::dtype_in({"self"}, kFloatDtypes), {"self", "weight"},
                          {"self dtype must be one of", "got INT16"}),
        rules::dtype_in({"target"}, nll::kTargetDtypes),
        rules::named_value("reduction"),
        rules::rank_in({"self"}, 1, 2),
        rules::rank_in({"target"}, 0, 1),
        nll::target_rows(),
        nll::class_weight(),
        nll::per_row("out", false, true),
        nll::one_element("totalWeightOut"),
        nll::classes_for_targets(),
        rules::in_device_memory(tensors),
        disjoint_output("out", {"self", "target", "weight"}),
        disjoint_output("totalWeightOut", {"self", "target", "weight", "out"}, true),
    };
    d.infer = [](const OpDef& def, CallSpec* spec) {
      const TensorSpec& self = arg_of(def, *spec, "self").tensor;
      const bool rows = reduction_of(def, *spec) == 0 && self.shape.size() == 2;
      arg_of(def, spec, "out")->tensor = {rows ? Shape{self.shape[0]} : Shape{}, self.dtype};
      arg_of(def, spec, "totalWeightOut")->tensor = {Shape{}, self.dtype};
      return true;
    };
    d.input_values = nll::target_values(d);
    d.tolerance = [](const OpDef&, const CallSpec&) { return Tolerance{1e-6, 1e-6}; };
    d.impls = {nll::forward_fast(false), nll::forward_reference(false)};
    const auto call = [&](Shape self, aclDataType dtype, aclDataType target, int64_t reduction,
                          int64_t ignore) {
      const int64_t classes = self.size() == 1 ? self[0] : self[1];
      Shape rows = self.size() == 1 ? Shape{} : Shape{self[0]};
      return sample(d, {{"self", tensor(std::move(self), dtype)},
                        {"target", tensor(std::move(rows), target)},
                        {"weight", tensor({classes}, dtype)},
                        {"reduction", integer(reduction)},
                        {"ignoreIndex", integer(ignore)}});
    };
    d.samples = {
        call({5, 40}, ACL_FLOAT, ACL_INT64, 0, -100),
        call({67, 37}, ACL_FLOAT16, ACL_INT32, 1, 3),
        call({10, 7}, ACL_BF16, ACL_UINT8, 2, 5),
        call({41}, ACL_FLOAT, ACL_INT64, 2, -100),
        call({38}, ACL_BF16, ACL_INT32, 0, 0),
        with_dtype(d, with_dtype(d, call({9, 45}, ACL_FLOAT, ACL_INT64, 1, -1), "out", ACL_FLOAT16),
                   "totalWeightOut", ACL_BF16),
        call({0, 4}, ACL_FLOAT, ACL_INT64, 1, -100),
        call({0, 4}, ACL_FLOAT16, ACL_INT64, 0, -100),
    };
    return d;
  }();
  return def;
}

const OpRegistration kRegistration(definition);

}  // namespace
}  // namespace oa::loss

extern "C" aclnnStatus aclnnNLLLossGetWorkspaceSize(const aclTensor* self, const aclTensor* target,
                                                    const aclTensor* weight, int64_t reduction,
                                                    int64_t ignoreIndex, aclTensor* out,
                                                    aclTensor* totalWeightOut,
                                                    uint64_t* workspaceSize,
                                                    aclOpExecutor** executor) {
  return oa::plan_op(oa::loss::definition(),
                     {self, target, weight, reduction, ignoreIndex, out, totalWeightOut},
                     workspaceSize, executor);
}

extern "C" aclnnStatus aclnnNLLLoss(void* workspace, uint64_t workspaceSize,
                                    aclOpExecutor* executor, aclrtStream stream) {
  return oa::launch_op(oa::loss::definition(), workspace, workspaceSize, executor, stream);
}
