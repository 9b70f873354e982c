// aclnnSmoothL1Loss (SPEC section 11): the loss per broadcast element, or its deterministic mean or
// sum (core/reduce.h).
#include "aclnnop/aclnn_smooth_l1_loss.h"

#include "core/elementwise_op.h"
#include "core/op/build.h"
#include "core/op/rules.h"
#include "ops/loss/loss_rules.h"
#include "ops/loss/smooth_l1.h"

namespace oa::loss {
namespace {

const ElementwiseOp kOp = {{"self", "target"},
                           "result",
                           smooth_l1_forward_formula,
                           smooth_l1_forward_kernels,
                           [](const Call& call, const Shape&) {
                             ElementwiseParams p;
                             p.v[0] = static_cast<float>(call.real("beta"));
                             return p;
                           },
                           "reduction",
                           nullptr};

// result overlaps neither input, except as exactly its view (reduction none): a reduction's 0-d
// result at an input's first element is no in-place use.
Check result_disjoint() {
  Check check = rules::disjoint_output("result", {"self", "target"}, true);
  check.violations.push_back({"0-d result of a sum at self's first element",
                              [](const OpDef& def, CallSpec* spec) {
                                arg_of(def, spec, "reduction")->integer = 2;
                                ArgSpec* result = arg_of(def, spec, "result");
                                result->tensor.shape.clear();
                                result->tensor.strides.clear();
                                result->alias_of = def.param_index("self");
                                return numel(arg_of(def, spec, "self")->tensor.shape) > 0;
                              },
                              ACLNN_ERR_PARAM_INVALID,
                              {"result overlaps self"}});
  return check;
}

const OpDef& definition() {
  static const OpDef def = [] {
    using namespace build;
    OpDef d("SmoothL1Loss", "aclnnop/aclnn_smooth_l1_loss.h",
            "smooth L1 loss of self against target");
    d.params = {
        input("self", kFloatDtypes, "rank 0-8, broadcasts with target"),
        input("target", kFloatDtypes, "rank 0-8, broadcasts with self"), reduction(),
        real("beta", "float >= 0 (0: the L1 loss)", 1.0),
        output("result", kFloatDtypes, "the broadcast shape (reduction none) or 0-d (mean, sum)")};
    const rules::Names tensors = {"self", "target", "result"};
    d.checks = {
        rules::not_null({"workspaceSize", "executor", "self", "target", "result"}),
        rules::dtype_in(tensors, kFloatDtypes),
        rules::rank_in(tensors, 0, 8),
        rules::named_value("reduction"),
        rules::at_least("beta", 0),
        loss_result({"self", "target"}, "result"),
        rules::in_device_memory(tensors),
        result_disjoint(),
    };
    d.infer = elementwise_infer(kOp);
    d.tolerance = elementwise_tolerance(kOp);
    d.impls = {elementwise_simd(kOp), elementwise_reference(kOp)};
    d.samples = {
        sample(d,
               {{"self", tensor({2, 67})}, {"target", tensor({2, 67})}, {"reduction", integer(0)}}),
        sample(d,
               {{"self", tensor({4, 1, 37}, ACL_FLOAT16)}, {"target", tensor({5, 37}, ACL_BF16)}}),
        sample(d, {{"self", tensor({3, 70}, ACL_BF16)},
                   {"target", tensor({3, 70})},
                   {"reduction", integer(2)},
                   {"beta", real(0)}}),
        sample(d, {{"self", tensor({3, 40})}, {"target", tensor({40})}, {"reduction", integer(0)}}),
        sample(d, {{"self", tensor({0, 3})}, {"target", tensor({3})}}),
    };
    return d;
  }();
  return def;
}

const OpRegistration kRegistration(definition);

}  // namespace
}  // namespace oa::loss

extern "C" aclnnStatus aclnnSmoothL1LossGetWorkspaceSize(const aclTensor* self,
                                                         const aclTensor* target, int64_t reduction,
                                                         float beta, aclTensor* result,
                                                         uint64_t* workspaceSize,
                                                         aclOpExecutor** executor) {
  return oa::plan_op(oa::loss::definition(), {self, target, reduction, beta, result}, workspaceSize,
                     executor);
}

extern "C" aclnnStatus aclnnSmoothL1Loss(void* workspace, uint64_t workspaceSize,
                                         aclOpExecutor* executor, aclrtStream stream) {
  return oa::launch_op(oa::loss::definition(), workspace, workspaceSize, executor, stream);
}
