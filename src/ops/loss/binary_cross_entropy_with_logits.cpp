// aclnnBinaryCrossEntropyWithLogits: weight ((1 - target) self - (1 + (posWeight - 1) target)
// log sigma(self)) per element of the broadcast, in the numerically stable form (as PyTorch), or
// its deterministic mean or sum.
#include "aclnnop/aclnn_binary_cross_entropy_with_logits.h"

#include "core/op/build.h"
#include "ops/loss/elementwise_loss.h"
#include "ops/loss/loss_rules.h"

namespace oa::loss {
namespace {

const rules::Names kOptional = {"weightOptional", "posWeightOptional"};

// The variant of a set of optional inputs (bit 0 weight, bit 1 posWeight).
ElementwiseOp variant(size_t present) {
  rules::Names inputs = {"self", "target"};
  for (size_t k = 0; k < kOptional.size(); ++k) {
    if ((present >> k & 1) != 0) {
      inputs.push_back(kOptional[k]);
    }
  }
  return formula_op(inputs, "out", bce_logits_term_formula((present & 1) != 0, (present & 2) != 0),
                    no_params(), "reduction");
}

const OpDef& definition() {
  static const OpDef def = [] {
    using namespace build;
    OpDef d("BinaryCrossEntropyWithLogits", "aclnnop/aclnn_binary_cross_entropy_with_logits.h",
            "binary cross entropy of logits self against target");
    const std::string with_target = "rank 0-8, broadcasts with target";
    d.params = {input("self", kFloatDtypes, "logits, rank 0-8"),
                input("target", kFloatDtypes, "self's shape"),
                optional_input("weightOptional", kFloatDtypes, with_target),
                optional_input("posWeightOptional", kFloatDtypes, with_target),
                reduction(),
                output("out", kFloatDtypes,
                       "target's dtype; the broadcast shape (reduction none) or one element")};
    const rules::Names inputs = {"self", "target", "weightOptional", "posWeightOptional"};
    rules::Names tensors = inputs;
    tensors.push_back("out");
    d.checks = {
        rules::not_null({"self", "target", "out"}),
        rules::dtype_in({"self", "target", "out"}, kFloatDtypes),
        rules::same_dtype({"out"}, "target"),
        computed_dtypes(kOptional, {}, "other dtypes, cast"),
        rules::named_value("reduction"),
        rules::rank_in(inputs, 0, 8),
        rules::same_shape({"target"}, "self"),
        broadcasts_with(kOptional, "target"),
        loss_result(inputs, "out", ReducedShape::one_element, true),
        rules::in_device_memory(tensors),
        rules::disjoint_output("out", inputs, true),
    };
    const Variants variants =
        by_presence(kOptional, {variant(0), variant(1), variant(2), variant(3)});
    d.infer = variant_infer(variants, "out", "target");
    d.tolerance = elementwise_tolerance(variants.ops[0]);
    d.impls = variant_impls(variants);
    const auto call = [&](Shape shape, aclDataType dtype, aclDataType target, int64_t reduction) {
      return sample(d, {{"self", tensor(shape, dtype)},
                        {"target", tensor(shape, target)},
                        {"reduction", integer(reduction)}});
    };
    const auto weighted = [&](Shape shape, ArgSpec weight, ArgSpec pos_weight, aclDataType dtype,
                              int64_t reduction) {
      return sample(d, {{"self", tensor(shape, dtype)},
                        {"target", tensor(shape, dtype)},
                        {"weightOptional", std::move(weight)},
                        {"posWeightOptional", std::move(pos_weight)},
                        {"reduction", integer(reduction)}});
    };
    d.samples = {
        call({2, 67}, ACL_FLOAT, ACL_FLOAT, 0),
        weighted({4, 3, 37}, tensor({3, 37}, ACL_FLOAT16), tensor({37}, ACL_FLOAT16), ACL_FLOAT16,
                 1),
        weighted({3, 70}, null(), tensor({3, 70}, ACL_BF16), ACL_BF16, 2),
        weighted({5, 40}, tensor({5, 1}), null(), ACL_FLOAT, 0),
        call({2, 3, 41}, ACL_BF16, ACL_FLOAT16, 1),
        weighted({6, 39}, tensor({2, 6, 1}), tensor({39}, ACL_BF16), ACL_FLOAT, 0),
        call({}, ACL_FLOAT16, ACL_FLOAT, 2),
        weighted({5, 0, 3}, tensor({3}), null(), ACL_FLOAT, 2),
    };
    return d;
  }();
  return def;
}

const OpRegistration kRegistration(definition);

}  // namespace
}  // namespace oa::loss

extern "C" aclnnStatus aclnnBinaryCrossEntropyWithLogitsGetWorkspaceSize(
    const aclTensor* self, const aclTensor* target, const aclTensor* weightOptional,
    const aclTensor* posWeightOptional, int64_t reduction, aclTensor* out, uint64_t* workspaceSize,
    aclOpExecutor** executor) {
  return oa::plan_op(oa::loss::definition(),
                     {self, target, weightOptional, posWeightOptional, reduction, out},
                     workspaceSize, executor);
}

extern "C" aclnnStatus aclnnBinaryCrossEntropyWithLogits(void* workspace, uint64_t workspaceSize,
                                                         aclOpExecutor* executor,
                                                         const aclrtStream stream) {
  return oa::launch_op(oa::loss::definition(), workspace, workspaceSize, executor, stream);
}
