// aclnnBinaryCrossEntropy: -weight (target log self + (1 - target) log(1 - self)) per element,
// each log clamped at -100 (as PyTorch), or its deterministic mean or sum. self holds
// probabilities: outside [0, 1] the loss is NaN (CANN does not check the data, nor does openaclnn).
#include "aclnnop/aclnn_binary_cross_entropy.h"

#include "core/op/build.h"
#include "ops/loss/elementwise_loss.h"
#include "ops/loss/loss_rules.h"

namespace oa::loss {
namespace {

const OpDef& definition() {
  static const OpDef def = [] {
    using namespace build;
    OpDef d("BinaryCrossEntropy", "aclnnop/aclnn_binary_cross_entropy.h",
            "binary cross entropy of probabilities self against target");
    d.params = {input("self", kFloatDtypes, "probabilities, rank 0-8"),
                input("target", kFloatDtypes, "self's shape"),
                optional_input("weight", kFloatDtypes,
                               "broadcasts to self; with it, every "
                               "tensor has self's dtype"),
                reduction(),
                output("out", kFloatDtypes, "self's shape (reduction none) or one element")};
    const rules::Names tensors = {"self", "target", "weight", "out"};
    d.checks = {
        rules::not_null({"self", "target", "out"}),
        rules::dtype_in(tensors, kFloatDtypes),
        only_with(rules::same_dtype({"target", "weight", "out"}, "self"), "weight"),
        rules::rank_in(tensors, 0, 8),
        rules::same_shape({"target"}, "self"),
        broadcasts_to({"weight"}, "self"),
        rules::named_value("reduction"),
        loss_result({"self"}, "out", ReducedShape::one_element),
        rules::in_device_memory(tensors),
        rules::disjoint_output("out", {"self", "target", "weight"}, true),
    };
    const Variants variants = by_presence(
        {"weight"},
        {formula_op({"self", "target"}, "out", bce_term_formula(false), no_params(), "reduction"),
         formula_op({"self", "target", "weight"}, "out", bce_term_formula(true), no_params(),
                    "reduction")});
    d.infer = variant_infer(variants);
    d.tolerance = elementwise_tolerance(variants.ops[0]);
    d.impls = variant_impls(variants);
    d.input_values = probability_inputs(d, {"self", "target"});
    const auto call = [&](Shape shape, aclDataType dtype, aclDataType target, int64_t reduction) {
      return sample(d, {{"self", tensor(shape, dtype)},
                        {"target", tensor(shape, target)},
                        {"reduction", integer(reduction)}});
    };
    const auto weighted = [&](Shape shape, Shape weight, aclDataType dtype, int64_t reduction) {
      return sample(d, {{"self", tensor(shape, dtype)},
                        {"target", tensor(shape, dtype)},
                        {"weight", tensor(std::move(weight), dtype)},
                        {"reduction", integer(reduction)}});
    };
    d.samples = {
        call({2, 67}, ACL_FLOAT, ACL_FLOAT, 0),
        weighted({4, 3, 37}, {3, 37}, ACL_FLOAT16, 1),
        weighted({3, 70}, {3, 70}, ACL_BF16, 2),
        with_dtype(d, call({5, 40}, ACL_FLOAT16, ACL_BF16, 0), "out", ACL_FLOAT16),
        call({2, 3, 41}, ACL_BF16, ACL_FLOAT, 1),
        weighted({6, 39}, {6, 1}, ACL_FLOAT, 0),
        with_dtype(d, call({}, ACL_FLOAT, ACL_FLOAT, 2), "out", ACL_BF16),
        call({0, 5}, ACL_FLOAT16, ACL_FLOAT16, 1),
    };
    return d;
  }();
  return def;
}

const OpRegistration kRegistration(definition);

}  // namespace
}  // namespace oa::loss

extern "C" aclnnStatus aclnnBinaryCrossEntropyGetWorkspaceSize(
    const aclTensor* self, const aclTensor* target, const aclTensor* weight, int64_t reduction,
    aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return oa::plan_op(oa::loss::definition(), {self, target, weight, reduction, out}, workspaceSize,
                     executor);
}

extern "C" aclnnStatus aclnnBinaryCrossEntropy(void* workspace, uint64_t workspaceSize,
                                               aclOpExecutor* executor, aclrtStream stream) {
  return oa::launch_op(oa::loss::definition(), workspace, workspaceSize, executor, stream);
}
