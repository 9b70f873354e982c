// aclnnNLLLoss2dBackward: out ([N, C, H, W]) is 0 except at each pixel's target class, -weight[t]
// s with s = gradOutput[n, h, w] (none), gradOutput (sum) or gradOutput / totalWeight (mean).
// Every tensor has self's dtype (no cast, as CANN); the shapes are checked before the reduction.
#include "aclnnop/aclnn_nll_loss2d_backward.h"

#include "core/op/build.h"
#include "ops/loss/loss_rules.h"
#include "ops/loss/nll.h"
#include "ops/loss/nll_rules.h"

namespace oa::loss {
namespace {

const OpDef& definition() {
  static const OpDef def = [] {
    using namespace build;
    OpDef d("NLLLoss2dBackward", "aclnnop/aclnn_nll_loss2d_backward.h",
            "gradient of the 2-d negative log likelihood with respect to self");
    d.params = {input("gradOutput", kFloatDtypes,
                      "target's shape (reduction none), else one element; self's dtype"),
                input("self", kFloatDtypes, "[N, C, H, W]"),
                input("target", nll::kTargetDtypes, "[N, H, W]: classes in [0, C)"),
                input("weight", kFloatDtypes, "[C], self's dtype"),
                reduction(),
                integer("ignoreIndex", "a target value that contributes nothing", {}, -100),
                input("totalWeight", kFloatDtypes, "one element, self's dtype"),
                output("out", kFloatDtypes, "self's shape and dtype")};
    const rules::Names inputs = {"gradOutput", "self", "target", "weight", "totalWeight"};
    rules::Names tensors = inputs;
    tensors.push_back("out");
    d.checks = {
        rules::not_null({"gradOutput", "self", "target", "weight", "out", "totalWeight"}),
        rules::dtype_in({"self"}, kFloatDtypes),
        rules::same_dtype({"gradOutput", "weight", "out", "totalWeight"}, "self"),
        rules::dtype_in({"target"}, nll::kTargetDtypes),
        nll::per_row("gradOutput", true, true),
        rules::rank_in({"self"}, 4, 4),
        rules::rank_in({"target"}, 3, 3),
        nll::target_plane(),
        nll::class_weight(),
        rules::same_shape({"out"}, "self"),
        nll::one_element("totalWeight"),
        rules::named_value("reduction"),
        rules::in_device_memory(tensors),
        disjoint_output("out", inputs),
    };
    d.infer = [](const OpDef& def, CallSpec* spec) {
      const TensorSpec& self = arg_of(def, *spec, "self").tensor;
      arg_of(def, spec, "out")->tensor = {self.shape, self.dtype};
      return true;
    };
    d.input_values = nll::target_values(d);
    d.impls = {nll::backward_fast(true), nll::backward_reference(true)};
    const auto call = [&](Shape self, aclDataType dtype, aclDataType target, int64_t reduction,
                          int64_t ignore) {
      const Shape pixels = {self[0], self[2], self[3]};
      const int64_t classes = self[1];
      return sample(d, {{"gradOutput", tensor(reduction == 0 ? pixels : Shape{}, dtype)},
                        {"self", tensor(std::move(self), dtype)},
                        {"target", tensor(pixels, target)},
                        {"weight", tensor({classes}, dtype)},
                        {"reduction", integer(reduction)},
                        {"ignoreIndex", integer(ignore)},
                        {"totalWeight", tensor({}, dtype)}});
    };
    d.samples = {
        call({2, 5, 3, 40}, ACL_FLOAT, ACL_INT64, 0, -100),
        call({1, 3, 150, 1}, ACL_FLOAT16, ACL_INT32, 1, 0),
        call({3, 4, 2, 5}, ACL_BF16, ACL_UINT8, 2, 2),
        call({2, 6, 1, 38}, ACL_FLOAT, ACL_INT64, 1, -1),
        call({3, 2, 0, 2}, ACL_FLOAT, ACL_INT64, 0, -100),
    };
    return d;
  }();
  return def;
}

const OpRegistration kRegistration(definition);

}  // namespace
}  // namespace oa::loss

extern "C" aclnnStatus aclnnNLLLoss2dBackwardGetWorkspaceSize(
    const aclTensor* gradOutput, const aclTensor* self, const aclTensor* target,
    const aclTensor* weight, int64_t reduction, int64_t ignoreIndex, aclTensor* totalWeight,
    aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return oa::plan_op(oa::loss::definition(),
                     {gradOutput, self, target, weight, reduction, ignoreIndex, totalWeight, out},
                     workspaceSize, executor);
}

extern "C" aclnnStatus aclnnNLLLoss2dBackward(void* workspace, uint64_t workspaceSize,
                                              aclOpExecutor* executor, aclrtStream stream) {
  return oa::launch_op(oa::loss::definition(), workspace, workspaceSize, executor, stream);
}
