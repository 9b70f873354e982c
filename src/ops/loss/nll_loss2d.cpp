// aclnnNLLLoss2d: aclnnNLLLoss over the pixels of [N, C, H, W] log-probabilities, target [N, H, W]
// (nll.h): out per pixel ([N, H, W]) or reduced, totalWeightOut the sum of the weights of the
// pixels not ignored (written for every reduction).
#include "aclnnop/aclnn_nll_loss2d.h"

#include "core/op/build.h"
#include "ops/loss/loss_rules.h"
#include "ops/loss/nll.h"
#include "ops/loss/nll_rules.h"

namespace oa::loss {
namespace {

const OpDef& definition() {
  static const OpDef def = [] {
    using namespace build;
    OpDef d("NLLLoss2d", "aclnnop/aclnn_nll_loss2d.h",
            "negative log likelihood of [N, C, H, W] log-probabilities at target classes");
    d.params = {input("self", kFloatDtypes, "[N, C, H, W] log-probabilities"),
                input("target", nll::kTargetDtypes, "[N, H, W]: classes in [0, C)"),
                input("weight", kFloatDtypes, "[C], self's dtype"),
                reduction(),
                integer("ignoreIndex", "a target value that contributes nothing", {}, -100),
                output("out", kFloatDtypes, "target's shape (reduction none), else one element"),
                output("totalWeightOut", kFloatDtypes, "one element")};
    const rules::Names tensors = {"self", "target", "weight", "out", "totalWeightOut"};
    d.checks = {
        rules::not_null(tensors),
        rules::dtype_in({"self"}, kFloatDtypes),
        rules::same_dtype({"weight"}, "self"),
        can_cast({"self"}, "out"),
        can_cast({"self"}, "totalWeightOut"),
        computed_dtypes({}, {"out", "totalWeightOut"}, "DOUBLE and complex outputs"),
        rules::dtype_in({"target"}, nll::kTargetDtypes),
        rules::named_value("reduction"),
        rules::rank_in({"self"}, 4, 4),
        nll::class_weight(),
        rules::rank_in({"target"}, 3, 3),
        nll::target_plane(),
        nll::per_row("out", true, false),
        nll::one_element("totalWeightOut"),
        rules::in_device_memory(tensors),
        disjoint_output("out", {"self", "target", "weight"}),
        disjoint_output("totalWeightOut", {"self", "target", "weight", "out"}, true),
    };
    d.infer = [](const OpDef& def, CallSpec* spec) {
      const TensorSpec& self = arg_of(def, *spec, "self").tensor;
      const Shape pixels = {self.shape[0], self.shape[2], self.shape[3]};
      arg_of(def, spec, "out")->tensor = {reduction_of(def, *spec) == 0 ? pixels : Shape{},
                                          self.dtype};
      arg_of(def, spec, "totalWeightOut")->tensor = {Shape{}, self.dtype};
      return true;
    };
    d.input_values = nll::target_values(d);
    d.tolerance = [](const OpDef&, const CallSpec&) { return Tolerance{1e-6, 1e-6}; };
    d.impls = {nll::forward_fast(true), nll::forward_reference(true)};
    const auto call = [&](Shape self, aclDataType dtype, aclDataType target, int64_t reduction,
                          int64_t ignore) {
      const Shape pixels = {self[0], self[2], self[3]};
      const int64_t classes = self[1];
      return sample(d, {{"self", tensor(std::move(self), dtype)},
                        {"target", tensor(pixels, target)},
                        {"weight", tensor({classes}, dtype)},
                        {"reduction", integer(reduction)},
                        {"ignoreIndex", integer(ignore)}});
    };
    d.samples = {
        call({2, 5, 3, 40}, ACL_FLOAT, ACL_INT64, 0, -100),
        call({1, 3, 150, 1}, ACL_FLOAT16, ACL_INT32, 1, 0),
        call({3, 4, 2, 5}, ACL_BF16, ACL_UINT8, 2, 2),
        with_dtype(
            d, with_dtype(d, call({2, 6, 1, 38}, ACL_FLOAT, ACL_INT64, 1, -1), "out", ACL_FLOAT16),
            "totalWeightOut", ACL_FLOAT16),
        call({3, 2, 0, 2}, ACL_FLOAT, ACL_INT64, 0, -100),
        call({3, 2, 0, 2}, ACL_FLOAT16, ACL_INT64, 1, -100),
    };
    return d;
  }();
  return def;
}

const OpRegistration kRegistration(definition);

}  // namespace
}  // namespace oa::loss

extern "C" aclnnStatus aclnnNLLLoss2dGetWorkspaceSize(
    const aclTensor* self, const aclTensor* target, const aclTensor* weight, int64_t reduction,
    int64_t ignoreIndex, aclTensor* out, aclTensor* totalWeightOut, uint64_t* workspaceSize,
    aclOpExecutor** executor) {
  return oa::plan_op(oa::loss::definition(),
                     {self, target, weight, reduction, ignoreIndex, out, totalWeightOut},
                     workspaceSize, executor);
}

extern "C" aclnnStatus aclnnNLLLoss2d(void* workspace, uint64_t workspaceSize,
                                      aclOpExecutor* executor, aclrtStream stream) {
  return oa::launch_op(oa::loss::definition(), workspace, workspaceSize, executor, stream);
}
