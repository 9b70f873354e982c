// aclnnNLLLossBackward: out (self's shape) is 0 except at each row's target class, -weight[t] s
// with s = gradOutput[n] (none), gradOutput (sum) or gradOutput / totalWeight (mean, the given
// total weight as it is: 0 gives inf or NaN, as PyTorch).
#include "aclnnop/aclnn_nll_loss_backward.h"

#include "core/op/build.h"
#include "ops/loss/loss_rules.h"
#include "ops/loss/nll.h"
#include "ops/loss/nll_rules.h"

namespace oa::loss {
namespace {

const OpDef& definition() {
  static const OpDef def = [] {
    using namespace build;
    OpDef d("NLLLossBackward", "aclnnop/aclnn_nll_loss_backward.h",
            "gradient of the negative log likelihood with respect to self");
    d.params = {
        input("gradOutput", kFloatDtypes, "[N] (reduction none, self [N, C]), else one element"),
        input("self", kFloatDtypes, "[N, C] or [C]"),
        input("target", nll::kTargetDtypes, "[N] (or 0-d for self [C]): classes in [0, C)"),
        input("weight", kFloatDtypes, "[C], self's dtype"),
        reduction(),
        integer("ignoreIndex", "a target value that contributes nothing", {}, -100),
        input("totalWeight", kFloatDtypes, "one element, self's dtype"),
        output("out", kFloatDtypes, "self's shape")};
    const rules::Names inputs = {"gradOutput", "self", "target", "weight", "totalWeight"};
    rules::Names tensors = inputs;
    tensors.push_back("out");
    d.checks = {
        rules::not_null({"gradOutput", "self", "target", "weight", "totalWeight", "out"}),
        rules::same_dtype({"weight", "gradOutput", "totalWeight"}, "self"),
        can_cast({"self"}, "out"),
        computed_dtypes({}, {"out"}, "DOUBLE and complex outputs"),
        violated_together(rules::dtype_in({"self"}, kFloatDtypes),
                          {"self", "weight", "gradOutput", "totalWeight"},
                          {"self dtype must be one of", "got INT16"}),
        rules::dtype_in({"target"}, nll::kTargetDtypes),
        rules::named_value("reduction"),
        rules::rank_in({"self"}, 1, 2),
        rules::rank_in({"target"}, 0, 1),
        nll::target_rows(),
        nll::class_weight(),
        nll::one_element("totalWeight"),
        nll::per_row("gradOutput", false, true),
        rules::same_shape({"out"}, "self"),
        rules::in_device_memory(tensors),
        disjoint_output("out", inputs),
    };
    d.infer = [](const OpDef& def, CallSpec* spec) {
      const TensorSpec& self = arg_of(def, *spec, "self").tensor;
      arg_of(def, spec, "out")->tensor = {self.shape, self.dtype};
      return true;
    };
    d.input_values = nll::target_values(d);
    d.impls = {nll::backward_fast(false), nll::backward_reference(false)};
    const auto call = [&](Shape self, aclDataType dtype, aclDataType target, int64_t reduction,
                          int64_t ignore) {
      const int64_t classes = self.size() == 1 ? self[0] : self[1];
      Shape rows = self.size() == 1 ? Shape{} : Shape{self[0]};
      Shape grad = reduction == 0 ? rows : Shape{};
      return sample(d, {{"gradOutput", tensor(std::move(grad), dtype)},
                        {"self", tensor(std::move(self), dtype)},
                        {"target", tensor(std::move(rows), target)},
                        {"weight", tensor({classes}, dtype)},
                        {"reduction", integer(reduction)},
                        {"ignoreIndex", integer(ignore)},
                        {"totalWeight", tensor({}, dtype)}});
    };
    d.samples = {
        call({5, 40}, ACL_FLOAT, ACL_INT64, 0, -100),
        call({67, 37}, ACL_FLOAT16, ACL_INT32, 1, 3),
        call({10, 7}, ACL_BF16, ACL_UINT8, 2, 5),
        call({41}, ACL_FLOAT, ACL_INT64, 2, -100),
        call({38}, ACL_BF16, ACL_INT32, 0, 0),
        with_dtype(d, call({9, 45}, ACL_FLOAT, ACL_INT64, 1, -1), "out", ACL_FLOAT16),
        call({0, 4}, ACL_FLOAT, ACL_INT64, 1, -100),
        call({3, 0}, ACL_FLOAT, ACL_INT64, 0, -100),
    };
    return d;
  }();
  return def;
}

const OpRegistration kRegistration(definition);

}  // namespace
}  // namespace oa::loss

extern "C" aclnnStatus aclnnNLLLossBackwardGetWorkspaceSize(
    const aclTensor* gradOutput, const aclTensor* self, const aclTensor* target,
    const aclTensor* weight, int64_t reduction, int64_t ignoreIndex, const aclTensor* totalWeight,
    aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return oa::plan_op(oa::loss::definition(),
                     {gradOutput, self, target, weight, reduction, ignoreIndex, totalWeight, out},
                     workspaceSize, executor);
}

extern "C" aclnnStatus aclnnNLLLossBackward(void* workspace, uint64_t workspaceSize,
                                            aclOpExecutor* executor, aclrtStream stream) {
  return oa::launch_op(oa::loss::definition(), workspace, workspaceSize, executor, stream);
}
