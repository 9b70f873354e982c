// aclnnKlDivBackward: the gradient with respect to self, -target gradOutput c (or with logTarget
// -exp(target) gradOutput c) per element of the broadcast of self and target, c = 1 / the term
// count for mean, 1 / the broadcast shape's first dim for batchmean, else 1; where self itself is
// broadcast, summed over the dims it was broadcast along (out has self's shape). As CANN (whose
// tests call it with 6), the reduction is not checked: a value other than 1 and 3 has c = 1.
#include "aclnnop/aclnn_kl_div_backward.h"

#include "core/op/build.h"
#include "ops/loss/elementwise_loss.h"
#include "ops/loss/loss_rules.h"
#include "ops/loss/sum_to_output.h"
#include "runtime/error.h"

namespace oa::loss {
namespace {

ElementwiseParams params(const Call& call, const Shape& shape) {
  double c = 1.0;
  if (call.integer("reduction") == 1) {
    c = 1.0 / static_cast<double>(numel(shape));
  } else if (call.integer("reduction") == 3 && !shape.empty()) {
    c = 1.0 / static_cast<double>(shape[0]);
  }
  ElementwiseParams p;
  p.v[0] = static_cast<float>(c);
  return p;
}

ElementwiseOp grad(bool log_target) {
  return formula_op({"gradOutput", "self", "target"}, "out", kl_div_grad_formula(log_target),
                    params, "");
}

// Whether self is broadcast against target (its gradient then sums over those dims).
bool self_broadcast(const Call& call) {
  Shape shape;
  broadcast_shapes(call.tensor("self")->shape, call.tensor("target")->shape, &shape);
  return shape != call.tensor("self")->shape;
}

// self and target broadcast, and gradOutput broadcasts to their broadcast.
Check grad_output_shape() {
  Check check;
  check.rule = "self and target broadcast; gradOutput broadcasts to their broadcast";
  check.run = [](const Call& call) {
    Shape shape;
    OA_TRY(check_broadcast(call.op(), {call.named("self"), call.named("target")}, &shape));
    const Shape& g = call.tensor("gradOutput")->shape;
    Shape with_grad;
    if (!broadcast_shapes(g, shape, &with_grad) || with_grad != shape) {
      return failf(ACLNN_ERR_PARAM_INVALID,
                   "%s: gradOutput shape %s must broadcast to %s, the broadcast of self and target",
                   call.op(), shape_string(g).c_str(), shape_string(shape).c_str());
    }
    return ACLNN_SUCCESS;
  };
  check.violations = {
      {"self, target not broadcastable",
       [](const OpDef& def, CallSpec* spec) {
         arg_of(def, spec, "self")->tensor.shape = {2};
         arg_of(def, spec, "target")->tensor.shape = {3};
         arg_of(def, spec, "out")->tensor.shape = {2};
         arg_of(def, spec, "gradOutput")->tensor.shape = {};
         for (const char* name : {"self", "target", "out", "gradOutput"}) {
           arg_of(def, spec, name)->tensor.strides.clear();
         }
         return true;
       },
       ACLNN_ERR_PARAM_INVALID,
       {"target shape [3] does not broadcast with the shape [2]"}},
      {"gradOutput larger than the broadcast",
       [](const OpDef& def, CallSpec* spec) {
         TensorSpec& g = arg_of(def, spec, "gradOutput")->tensor;
         g.shape.insert(g.shape.begin(), 2);
         g.strides.clear();
         return true;
       },
       ACLNN_ERR_PARAM_INVALID,
       {"gradOutput shape", "must broadcast to"}},
  };
  return check;
}

const OpDef& definition() {
  static const OpDef def = [] {
    using namespace build;
    OpDef d("KlDivBackward", "aclnnop/aclnn_kl_div_backward.h",
            "gradient of the Kullback-Leibler divergence with respect to self");
    d.params = {input("gradOutput", kFloatDtypes,
                      "rank 0-8, broadcasts to the broadcast of self and target"),
                input("self", kFloatDtypes, "rank 0-8, broadcasts with target"),
                input("target", kFloatDtypes, "rank 0-8, broadcasts with self"),
                integer("reduction",
                        "1 mean, 3 batchmean, any other value none or sum (as CANN, unchecked)",
                        {{"none", 0}, {"mean", 1}, {"sum", 2}, {"batchmean", 3}}, 1),
                flag("logTarget", "target holds log-probabilities", false),
                output("out", kFloatDtypes, "self's shape")};
    const rules::Names inputs = {"gradOutput", "self", "target"};
    // out INT16 would fail the cast first.
    Check dtypes = rules::dtype_in({"gradOutput", "self", "target", "out"}, kFloatDtypes);
    dtypes.violations.back() = dtype_violation("out", ACL_DOUBLE);
    d.checks = {
        rules::not_null({"workspaceSize", "executor", "gradOutput", "self", "target", "out"}),
        can_cast({"self"}, "out"),
        dtypes,
        rules::rank_in({"gradOutput", "self", "target", "out"}, 0, 8),
        grad_output_shape(),
        rules::same_shape({"out"}, "self"),
        rules::in_device_memory({"gradOutput", "self", "target", "out"}),
        rules::disjoint_output("out", inputs, true),
    };
    const Variants variants = by_flag("logTarget", grad(false), grad(true));
    d.infer = [](const OpDef& def, CallSpec* spec) {
      const TensorSpec& self = arg_of(def, *spec, "self").tensor;
      arg_of(def, spec, "out")->tensor = {self.shape, self.dtype};
      return true;
    };
    std::vector<Impl> impls = variant_impls(variants);
    impls[0].applies = [](const Call& call, std::string* why_not) {
      if (self_broadcast(call)) {
        *why_not = "self is broadcast against target (the reference sums its gradient)";
        return false;
      }
      return true;
    };
    const std::vector<Impl> sums = {sum_to_output_reference(variants.ops[0]),
                                    sum_to_output_reference(variants.ops[1])};
    const auto elementwise = impls[1].plan;
    impls[1].plan = [variants, sums, elementwise](const Call& call, Planned* planned) {
      if (self_broadcast(call)) {
        return sums[variants.of_call(call)].plan(call, planned);
      }
      return elementwise(call, planned);
    };
    impls[1].reference_bits = true;
    d.impls = impls;
    const auto call = [&](Shape g, aclDataType tg, Shape x, aclDataType tx, Shape y, aclDataType ty,
                          int64_t reduction, bool log_target) {
      return sample(d, {{"gradOutput", tensor(std::move(g), tg)},
                        {"self", tensor(std::move(x), tx)},
                        {"target", tensor(std::move(y), ty)},
                        {"reduction", integer(reduction)},
                        {"logTarget", flag(log_target)}});
    };
    d.samples = {
        call({2, 67}, ACL_FLOAT, {2, 67}, ACL_FLOAT, {2, 67}, ACL_FLOAT, 0, false),
        call({}, ACL_FLOAT16, {4, 3, 37}, ACL_FLOAT, {3, 37}, ACL_FLOAT16, 1, false),
        call({}, ACL_BF16, {3, 70}, ACL_BF16, {3, 70}, ACL_BF16, 3, true),
        call({3, 1}, ACL_FLOAT, {3, 40}, ACL_FLOAT, {3, 40}, ACL_FLOAT, 0, false),
        call({3, 40}, ACL_FLOAT, {3, 1}, ACL_FLOAT16, {3, 40}, ACL_FLOAT, 0, true),
        with_dtype(d, call({}, ACL_FLOAT, {2, 45}, ACL_FLOAT16, {2, 45}, ACL_FLOAT, 2, false),
                   "out", ACL_FLOAT),
        call({5, 38}, ACL_FLOAT16, {5, 38}, ACL_FLOAT16, {5, 38}, ACL_FLOAT16, 6, false),
        call({}, ACL_FLOAT, {}, ACL_FLOAT, {}, ACL_FLOAT, 3, true),
        call({3, 0}, ACL_FLOAT, {3, 0}, ACL_FLOAT, {3, 0}, ACL_FLOAT, 0, false),
    };
    return d;
  }();
  return def;
}

const OpRegistration kRegistration(definition);

}  // namespace
}  // namespace oa::loss

extern "C" aclnnStatus aclnnKlDivBackwardGetWorkspaceSize(
    const aclTensor* gradOutput, const aclTensor* self, const aclTensor* target, int64_t reduction,
    bool logTarget, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return oa::plan_op(oa::loss::definition(), {gradOutput, self, target, reduction, logTarget, out},
                     workspaceSize, executor);
}

extern "C" aclnnStatus aclnnKlDivBackward(void* workspace, uint64_t workspaceSize,
                                          aclOpExecutor* executor, aclrtStream stream) {
  return oa::launch_op(oa::loss::definition(), workspace, workspaceSize, executor, stream);
}
