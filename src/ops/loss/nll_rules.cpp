#include "ops/loss/nll_rules.h"

#include "ops/loss/loss_rules.h"
#include "runtime/error.h"

namespace oa::loss::nll {
namespace {

int64_t classes_of(const Shape& self) { return self.size() == 1 ? self[0] : self[1]; }

// A violation replacing the shape of `name` by change(def, spec) (false: not applicable).
Violation reshaped(std::string what, std::string name,
                   std::function<bool(const OpDef&, const CallSpec&, Shape*)> change,
                   std::vector<std::string> message) {
  return {std::move(what),
          [name, change](const OpDef& def, CallSpec* spec) {
            TensorSpec& t = arg_of(def, spec, name)->tensor;
            Shape shape = t.shape;
            if (!change(def, *spec, &shape)) {
              return false;
            }
            t.shape = shape;
            t.strides.clear();
            return true;
          },
          ACLNN_ERR_PARAM_INVALID, std::move(message)};
}

}  // namespace

Check target_rows() {
  Check check;
  check.rule = "self [C] with a 0-d target, or self [N, C] with target [N]";
  check.run = [](const Call& call) {
    const Shape& self = call.tensor("self")->shape;
    const Shape& target = call.tensor("target")->shape;
    const bool one_row = self.size() == 1 && target.empty();
    const bool rows = self.size() == 2 && target.size() == 1 && target[0] == self[0];
    if (!one_row && !rows) {
      return failf(ACLNN_ERR_PARAM_INVALID,
                   "%s: target shape %s does not fit self shape %s: self [C] takes a 0-d target, "
                   "self [N, C] a target [N]",
                   call.op(), shape_string(target).c_str(), shape_string(self).c_str());
    }
    return ACLNN_SUCCESS;
  };
  check.violations.push_back(reshaped("target not one per row", "target",
                                      [](const OpDef&, const CallSpec&, Shape* shape) {
                                        if (shape->empty()) {
                                          *shape = {1};
                                        } else {
                                          (*shape)[0] += 1;
                                        }
                                        return true;
                                      },
                                      {"target shape", "does not fit self shape"}));
  return check;
}

Check target_plane() {
  Check check;
  check.rule = "target [N, H, W] for self [N, C, H, W]";
  check.run = [](const Call& call) {
    const Shape& self = call.tensor("self")->shape;
    const Shape expected = {self[0], self[2], self[3]};
    return check_shape(call.op(), call.named("target"), expected, "[N, H, W] of self");
  };
  check.violations.push_back(reshaped("target of another batch", "target",
                                      [](const OpDef&, const CallSpec&, Shape* shape) {
                                        (*shape)[0] += 1;
                                        return true;
                                      },
                                      {"target shape must be [N, H, W] of self"}));
  return check;
}

Check class_weight() {
  Check check;
  check.rule = "weight [C]";
  check.run = [](const Call& call) {
    const Shape expected = {classes_of(call.tensor("self")->shape)};
    return check_shape(call.op(), call.named("weight"), expected, "[C] of self");
  };
  check.violations.push_back(reshaped("weight of another class count", "weight",
                                      [](const OpDef& def, const CallSpec& spec, Shape* shape) {
                                        *shape = {
                                            classes_of(arg_of(def, spec, "self").tensor.shape) + 1};
                                        return true;
                                      },
                                      {"weight shape must be [C] of self"}));
  return check;
}

Check per_row(std::string name, bool two_d, bool rank_at_most_one) {
  Check check;
  check.rule = name + ": one value per row (reduction none), else one element";
  check.run = [name, two_d, rank_at_most_one](const Call& call) {
    const Shape& self = call.tensor("self")->shape;
    const Named t = call.named(name.c_str());
    const bool per_row = call.integer("reduction") == 0 && (two_d || self.size() == 2);
    if (per_row) {
      const Shape expected = two_d ? call.tensor("target")->shape : Shape{self[0]};
      return check_shape(call.op(), t, expected, two_d ? "target's" : "[N] of self");
    }
    if (numel(t.tensor->shape) != 1 || (rank_at_most_one && t.tensor->shape.size() > 1)) {
      return failf(ACLNN_ERR_PARAM_INVALID, "%s: %s shape must be %s, got %s", call.op(),
                   name.c_str(), rank_at_most_one ? "[] or [1]" : "one element",
                   shape_string(t.tensor->shape).c_str());
    }
    return ACLNN_SUCCESS;
  };
  check.violations.push_back(reshaped(name + " shaped wrongly", name,
                                      [](const OpDef&, const CallSpec&, Shape* shape) {
                                        if (numel(*shape) == 1) {
                                          *shape = {2};
                                        } else {
                                          (*shape)[0] += 1;
                                        }
                                        return true;
                                      },
                                      {name + " shape must be"}));
  return check;
}

Check one_element(std::string name) {
  Check check;
  check.rule = name + " one element";
  check.run = [name](const Call& call) {
    const Shape& shape = call.tensor(name.c_str())->shape;
    if (numel(shape) != 1) {
      return failf(ACLNN_ERR_PARAM_INVALID, "%s: %s must have one element, got shape %s", call.op(),
                   name.c_str(), shape_string(shape).c_str());
    }
    return ACLNN_SUCCESS;
  };
  check.violations.push_back(reshaped(name + " of two elements", name,
                                      [](const OpDef&, const CallSpec&, Shape* shape) {
                                        *shape = {2};
                                        return true;
                                      },
                                      {name + " must have one element"}));
  return check;
}

Check classes_for_targets() {
  Check check;
  check.rule = "C > 0 where target is not empty";
  check.run = [](const Call& call) {
    const Shape& self = call.tensor("self")->shape;
    const Shape& target = call.tensor("target")->shape;
    if (classes_of(self) == 0 && numel(target) > 0) {
      return failf(ACLNN_ERR_PARAM_INVALID,
                   "%s: self shape %s has no classes, so every target of shape %s is out of bounds",
                   call.op(), shape_string(self).c_str(), shape_string(target).c_str());
    }
    return ACLNN_SUCCESS;
  };
  check.violations.push_back({"no classes",
                              [](const OpDef& def, CallSpec* spec) {
                                TensorSpec& self = arg_of(def, spec, "self")->tensor;
                                if (self.shape.size() != 2 || self.shape[0] == 0) {
                                  return false;
                                }
                                self.shape[1] = 0;
                                self.strides.clear();
                                TensorSpec& weight = arg_of(def, spec, "weight")->tensor;
                                weight.shape = {0};
                                weight.strides.clear();
                                return true;
                              },
                              ACLNN_ERR_PARAM_INVALID,
                              {"has no classes"}});
  return check;
}

}  // namespace oa::loss::nll
