// aclnnBinaryCrossEntropyBackward: out = gradOutput (self - target) / max(self (1 - self), 1e-12)
// weight / N (as PyTorch), N = self's element count for reduction mean, else 1; target, weight
// and gradOutput broadcast to self.
#include "aclnnop/aclnn_binary_cross_entropy_backward.h"

#include "core/op/build.h"
#include "ops/loss/elementwise_loss.h"
#include "ops/loss/loss_rules.h"

namespace oa::loss {
namespace {

const OpDef& definition() {
  static const OpDef def = [] {
    using namespace build;
    OpDef d("BinaryCrossEntropyBackward", "aclnnop/aclnn_binary_cross_entropy_backward.h",
            "gradient of the binary cross entropy with respect to self");
    const std::string to_self = "rank 0-8, broadcasts to self";
    d.params = {input("gradOutput", kFloatDtypes, to_self),
                input("self", kFloatDtypes, "probabilities, rank 0-8"),
                input("target", kFloatDtypes, to_self),
                optional_input("weightOptional", kFloatDtypes, to_self),
                reduction(),
                output("out", kFloatDtypes, "self's shape")};
    const rules::Names tensors = {"gradOutput", "self", "target", "weightOptional", "out"};
    const rules::Names inputs = {"gradOutput", "self", "target", "weightOptional"};
    d.checks = {
        rules::not_null({"gradOutput", "self", "target", "out"}),
        rules::rank_in(tensors, 0, 8),
        rules::dtype_in({"gradOutput", "self", "target", "out", "weightOptional"}, kFloatDtypes),
        same_format({"self", "target", "weightOptional"}),
        rules::same_shape({"out"}, "self"),
        broadcasts_to({"target", "weightOptional", "gradOutput"}, "self"),
        rules::named_value("reduction"),
        rules::in_device_memory(tensors),
        rules::disjoint_output("out", inputs, true),
    };
    const rules::Names required = {"gradOutput", "self", "target"};
    const Variants variants =
        by_presence({"weightOptional"},
                    {formula_op(required, "out", bce_grad_formula(false), scale_params(1.0), ""),
                     formula_op(inputs, "out", bce_grad_formula(true), scale_params(1.0), "")});
    d.infer = variant_infer(variants);
    d.impls = variant_impls(variants);
    d.input_values = probability_inputs(d, {"self", "target"});
    const auto call = [&](Shape g, Shape x, Shape y, aclDataType tx, aclDataType other,
                          int64_t reduction) {
      return sample(d, {{"gradOutput", tensor(std::move(g), other)},
                        {"self", tensor(std::move(x), tx)},
                        {"target", tensor(std::move(y), other)},
                        {"reduction", integer(reduction)}});
    };
    const auto weighted = [&](Shape g, Shape x, Shape w, aclDataType dtype, int64_t reduction) {
      return sample(d, {{"gradOutput", tensor(std::move(g), dtype)},
                        {"self", tensor(x, dtype)},
                        {"target", tensor(x, dtype)},
                        {"weightOptional", tensor(std::move(w), dtype)},
                        {"reduction", integer(reduction)}});
    };
    d.samples = {
        call({2, 67}, {2, 67}, {2, 67}, ACL_FLOAT, ACL_FLOAT, 0),
        weighted({}, {4, 3, 37}, {3, 37}, ACL_FLOAT16, 1),
        weighted({}, {3, 70}, {3, 70}, ACL_BF16, 2),
        call({5, 1}, {5, 40}, {40}, ACL_FLOAT16, ACL_FLOAT, 0),
        with_dtype(d, call({}, {2, 3, 41}, {2, 3, 41}, ACL_FLOAT16, ACL_FLOAT16, 1), "out",
                   ACL_FLOAT),
        weighted({6, 39}, {6, 39}, {6, 1}, ACL_FLOAT, 0),
        call({}, {}, {}, ACL_BF16, ACL_FLOAT, 2),
        call({}, {2, 0}, {2, 0}, ACL_FLOAT, ACL_FLOAT, 1),
    };
    return d;
  }();
  return def;
}

const OpRegistration kRegistration(definition);

}  // namespace
}  // namespace oa::loss

extern "C" aclnnStatus aclnnBinaryCrossEntropyBackwardGetWorkspaceSize(
    const aclTensor* gradOutput, const aclTensor* self, const aclTensor* target,
    const aclTensor* weightOptional, int64_t reduction, aclTensor* out, uint64_t* workspaceSize,
    aclOpExecutor** executor) {
  return oa::plan_op(oa::loss::definition(),
                     {gradOutput, self, target, weightOptional, reduction, out}, workspaceSize,
                     executor);
}

extern "C" aclnnStatus aclnnBinaryCrossEntropyBackward(void* workspace, uint64_t workspaceSize,
                                                       aclOpExecutor* executor,
                                                       const aclrtStream stream) {
  return oa::launch_op(oa::loss::definition(), workspace, workspaceSize, executor, stream);
}
