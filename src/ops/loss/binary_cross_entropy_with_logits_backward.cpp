// aclnnBinaryCrossEntropyWithLogitsBackward: out = ((posWeight target + 1 - target) sigma(self) -
// posWeight target) gradOutput weight / N (as PyTorch; without posWeight (sigma(self) - target)
// gradOutput weight / N), N = self's element count for reduction mean, else 1; gradOutput, weight
// and posWeight broadcast to self.
#include "aclnnop/aclnn_binary_cross_entropy_with_logits_backward.h"

#include "core/op/build.h"
#include "ops/loss/elementwise_loss.h"
#include "ops/loss/loss_rules.h"

namespace oa::loss {
namespace {

const rules::Names kOptional = {"weightOptional", "posWeightOptional"};

// The variant of a set of optional inputs (bit 0 weight, bit 1 posWeight).
ElementwiseOp variant(size_t present) {
  rules::Names inputs = {"gradOutput", "self", "target"};
  for (size_t k = 0; k < kOptional.size(); ++k) {
    if ((present >> k & 1) != 0) {
      inputs.push_back(kOptional[k]);
    }
  }
  return formula_op(inputs, "out", bce_logits_grad_formula((present & 1) != 0, (present & 2) != 0),
                    scale_params(1.0), "");
}

const OpDef& definition() {
  static const OpDef def = [] {
    using namespace build;
    OpDef d("BinaryCrossEntropyWithLogitsBackward",
            "aclnnop/aclnn_binary_cross_entropy_with_logits_backward.h",
            "gradient of the binary cross entropy of logits with respect to self");
    const std::string to_self = "rank 0-8, broadcasts to self";
    d.params = {input("gradOutput", kFloatDtypes, to_self),
                input("self", kFloatDtypes, "logits, rank 0-8"),
                input("target", kFloatDtypes, "self's shape"),
                optional_input("weightOptional", kFloatDtypes, to_self),
                optional_input("posWeightOptional", kFloatDtypes, to_self),
                reduction(),
                output("out", kFloatDtypes, "self's shape, target's dtype")};
    const rules::Names inputs = {"gradOutput", "self", "target", "weightOptional",
                                 "posWeightOptional"};
    rules::Names tensors = inputs;
    tensors.push_back("out");
    d.checks = {
        rules::not_null({"gradOutput", "self", "target", "out"}),
        rules::rank_in(tensors, 0, 8),
        rules::dtype_in(tensors, kFloatDtypes),
        rules::same_dtype({"out"}, "target"),
        same_format({"self", "target", "out"}),
        rules::same_shape({"target", "out"}, "self"),
        broadcasts_to({"gradOutput", "weightOptional", "posWeightOptional"}, "self"),
        rules::named_value("reduction"),
        rules::in_device_memory(tensors),
        rules::disjoint_output("out", inputs, true),
    };
    const Variants variants =
        by_presence(kOptional, {variant(0), variant(1), variant(2), variant(3)});
    d.infer = variant_infer(variants, "out", "target");
    d.impls = variant_impls(variants);
    const auto call = [&](ArgSpec g, Shape shape, ArgSpec weight, ArgSpec pos_weight,
                          aclDataType dtype, aclDataType target, int64_t reduction) {
      return sample(d, {{"gradOutput", std::move(g)},
                        {"self", tensor(shape, dtype)},
                        {"target", tensor(shape, target)},
                        {"weightOptional", std::move(weight)},
                        {"posWeightOptional", std::move(pos_weight)},
                        {"reduction", integer(reduction)}});
    };
    d.samples = {
        call(tensor({2, 67}), {2, 67}, null(), null(), ACL_FLOAT, ACL_FLOAT, 0),
        call(tensor({}, ACL_FLOAT16), {4, 3, 37}, tensor({3, 37}, ACL_FLOAT16),
             tensor({37}, ACL_FLOAT16), ACL_FLOAT16, ACL_FLOAT16, 1),
        call(tensor({}, ACL_BF16), {3, 70}, null(), tensor({3, 70}, ACL_BF16), ACL_BF16, ACL_BF16,
             2),
        call(tensor({5, 1}), {5, 40}, tensor({5, 1}), null(), ACL_FLOAT16, ACL_FLOAT, 0),
        call(tensor({}), {2, 3, 41}, null(), null(), ACL_BF16, ACL_FLOAT16, 1),
        call(tensor({6, 39}, ACL_BF16), {6, 39}, tensor({6, 1}), tensor({39}, ACL_BF16), ACL_FLOAT,
             ACL_FLOAT, 0),
        call(tensor({2, 45}), {2, 45}, tensor({2, 45}), tensor({2, 45}), ACL_FLOAT, ACL_FLOAT, 0),
        call(tensor({}), {}, null(), null(), ACL_FLOAT16, ACL_FLOAT, 2),
        call(tensor({}), {5, 0, 3}, tensor({3}), null(), ACL_FLOAT, ACL_FLOAT, 1),
    };
    return d;
  }();
  return def;
}

const OpRegistration kRegistration(definition);

}  // namespace
}  // namespace oa::loss

extern "C" aclnnStatus aclnnBinaryCrossEntropyWithLogitsBackwardGetWorkspaceSize(
    const aclTensor* gradOutput, const aclTensor* self, const aclTensor* target,
    const aclTensor* weightOptional, const aclTensor* posWeightOptional, int64_t reduction,
    aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return oa::plan_op(oa::loss::definition(),
                     {gradOutput, self, target, weightOptional, posWeightOptional, reduction, out},
                     workspaceSize, executor);
}

extern "C" aclnnStatus aclnnBinaryCrossEntropyWithLogitsBackward(void* workspace,
                                                                 uint64_t workspaceSize,
                                                                 aclOpExecutor* executor,
                                                                 const aclrtStream stream) {
  return oa::launch_op(oa::loss::definition(), workspace, workspaceSize, executor, stream);
}
