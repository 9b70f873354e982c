#include "ops/loss/loss_rules.h"

#include "core/elementwise_op.h"
#include "runtime/error.h"

namespace oa::loss {

Check loss_result(rules::Names inputs, std::string result) {
  // The broadcast rule, for reduction none, and its violations.
  Check check = rules::broadcast_to(inputs, result);
  check.rule = result + ": the broadcast of the inputs (reduction none), else 0-d or [1]";
  const auto broadcast = check.run;
  check.run = [inputs, result, broadcast](const Call& call) {
    const int64_t reduction = call.integer("reduction");
    if (static_cast<Reduction>(reduction) == Reduction::none) {
      return broadcast(call);
    }
    std::vector<Named> named;
    for (const std::string& name : inputs) {
      named.push_back(call.named(name.c_str()));
    }
    Shape shape;
    OA_TRY(check_broadcast(call.op(), named, &shape));
    const Shape& got = call.tensor(result.c_str())->shape;
    if (got != Shape{} && got != Shape{1}) {
      return failf(ACLNN_ERR_PARAM_INVALID,
                   "%s: %s shape must be [] or [1] for reduction %s, got %s", call.op(),
                   result.c_str(), reduction == 1 ? "mean" : "sum", shape_string(got).c_str());
    }
    return ACLNN_SUCCESS;
  };
  check.violations.push_back({result + " not 0-d for a reduction",
                              [result](const OpDef& def, CallSpec* spec) {
                                ArgSpec& out =
                                    spec->args[static_cast<size_t>(def.param_index(result))];
                                const ArgSpec& reduction =
                                    spec->args[static_cast<size_t>(def.param_index("reduction"))];
                                if (reduction.integer == 0) {
                                  return false;
                                }
                                out.tensor = {{2}, out.tensor.dtype};
                                return true;
                              },
                              ACLNN_ERR_PARAM_INVALID,
                              {result + " shape must be [] or [1] for reduction"}});
  return check;
}

}  // namespace oa::loss
