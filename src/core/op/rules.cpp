#include "core/op/rules.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "runtime/error.h"

namespace oa::rules {
namespace {

// The keys of names (param_key), for a check's run to look its parameters up by address.
std::vector<const char*> keys_of(const Names& names) {
  std::vector<const char*> keys;
  for (const std::string& name : names) {
    keys.push_back(param_key(name));
  }
  return keys;
}

std::string joined(const Names& names) {
  std::string text;
  for (const std::string& name : names) {
    text += (text.empty() ? "" : ", ") + name;
  }
  return text;
}

// The spec of parameter `name` in a call of def.
ArgSpec* arg_of(const OpDef& def, CallSpec* spec, const std::string& name) {
  return &spec->args[static_cast<size_t>(def.param_index(name))];
}

// The first of `candidates` not in `excluded`.
template <typename T>
T first_outside(const std::vector<T>& candidates, const std::vector<T>& excluded) {
  for (T value : candidates) {
    if (std::find(excluded.begin(), excluded.end(), value) == excluded.end()) {
      return value;
    }
  }
  return candidates.front();
}

// A violation that changes one tensor parameter when it is present.
Violation on_tensor(std::string what, const std::string& name,
                    std::function<bool(const OpDef&, ArgSpec*)> change,
                    std::vector<std::string> message) {
  return {std::move(what),
          [name, change](const OpDef& def, CallSpec* spec) {
            ArgSpec* arg = arg_of(def, spec, name);
            return !arg->null && change(def, arg);
          },
          ACLNN_ERR_PARAM_INVALID, std::move(message)};
}

// A dim added in front (a rank one higher) or the front dim removed.
void change_rank(TensorSpec* t, bool higher) {
  if (higher) {
    t->shape.insert(t->shape.begin(), 1);
  } else {
    t->shape.erase(t->shape.begin());
  }
  t->strides.clear();
}

// A shape that differs from `shape` in its first dim (or [2] for a 0-d shape).
void change_shape(TensorSpec* t) {
  if (t->shape.empty()) {
    t->shape = {2};
  } else {
    t->shape[0] += 1;
  }
  t->strides.clear();
}

}  // namespace

Check not_null(Names names) {
  Check check;
  check.rule = joined(names) + " not null";
  for (const std::string& name : names) {
    check.violations.push_back({name + " null",
                                [name](const OpDef& def, CallSpec* spec) {
                                  if (name == "workspaceSize") {
                                    spec->null_workspace_size = true;
                                  } else if (name == "executor") {
                                    spec->null_executor = true;
                                  } else {
                                    arg_of(def, spec, name)->null = true;
                                  }
                                  return true;
                                },
                                ACLNN_ERR_PARAM_NULLPTR,
                                {name + " must not be null"}});
  }
  check.run = [names = keys_of(names), workspace_size = param_key("workspaceSize"),
               executor = param_key("executor")](const Call& call) {
    for (const char* name : names) {
      const void* pointer = name == workspace_size ? static_cast<const void*>(call.workspace_size())
                            : name == executor     ? static_cast<const void*>(call.executor())
                                                   : call.handle(name);
      OA_TRY(check_not_null(call.op(), {{pointer, name}}));
    }
    return ACLNN_SUCCESS;
  };
  return check;
}

Check dtype_in(Names names, DtypeSet allowed) {
  Check check;
  check.rule = joined(names) + " dtype in " + dtype_list(allowed);
  const DtypeSet candidates = {ACL_INT16, ACL_HIFLOAT8, ACL_FLOAT, ACL_INT64, ACL_DOUBLE};
  const aclDataType bad = first_outside(candidates, allowed);
  for (const std::string& name : names) {
    check.violations.push_back(on_tensor(
        name + " dtype " + dtype_name(bad), name,
        [bad](const OpDef&, ArgSpec* arg) {
          arg->tensor.dtype = bad;
          return true;
        },
        {name + " dtype must be one of " + dtype_list(allowed), "got " + dtype_name(bad)}));
  }
  check.run = [names = keys_of(names), allowed](const Call& call) {
    for (const char* name : names) {
      if (const Named tensor = call.named(name); tensor.tensor != nullptr) {
        OA_TRY(check_dtype(call.op(), tensor, allowed));
      }
    }
    return ACLNN_SUCCESS;
  };
  return check;
}

Check same_dtype(Names names, std::string reference) {
  Check check;
  check.rule = joined(names) + " dtype equal to " + reference + "'s";
  for (const std::string& name : names) {
    check.violations.push_back(on_tensor(name + " dtype unlike " + reference + "'s", name,
                                         [name, reference](const OpDef& def, ArgSpec* arg) {
                                           // Another dtype the parameter accepts, so that earlier
                                           // dtype checks still pass.
                                           const DtypeSet& own = def.param(name).dtypes;
                                           for (aclDataType dtype : own) {
                                             if (dtype != arg->tensor.dtype) {
                                               arg->tensor.dtype = dtype;
                                               return true;
                                             }
                                           }
                                           return false;
                                         },
                                         {name + " dtype must equal " + reference + " dtype"}));
  }
  check.run = [names = keys_of(names), reference = param_key(reference)](const Call& call) {
    for (const char* name : names) {
      if (const Named tensor = call.named(name); tensor.tensor != nullptr) {
        OA_TRY(check_same_dtype(call.op(), tensor, call.named(reference)));
      }
    }
    return ACLNN_SUCCESS;
  };
  return check;
}

Check format_in(Names names, std::vector<aclFormat> allowed) {
  Check check;
  std::string list;
  for (aclFormat format : allowed) {
    list += (list.empty() ? "" : ", ") + format_name(format);
  }
  check.rule = joined(names) + " format in {" + list + "}";
  const std::vector<aclFormat> candidates = {ACL_FORMAT_NHWC, ACL_FORMAT_NCDHW, ACL_FORMAT_NCHW,
                                             ACL_FORMAT_ND};
  const aclFormat bad = first_outside(candidates, allowed);
  for (const std::string& name : names) {
    check.violations.push_back(
        on_tensor(name + " format " + format_name(bad), name,
                  [bad](const OpDef&, ArgSpec* arg) {
                    arg->tensor.format = bad;
                    return true;
                  },
                  {name + " format must be one of {" + list + "}", "got " + format_name(bad)}));
  }
  check.run = [names = keys_of(names), allowed](const Call& call) {
    for (const char* name : names) {
      if (const Named tensor = call.named(name); tensor.tensor != nullptr) {
        OA_TRY(check_format(call.op(), tensor, allowed));
      }
    }
    return ACLNN_SUCCESS;
  };
  return check;
}

Check same_public_format(Names names) {
  Check check;
  check.rule = joined(names) + " share one format, not a private one";
  for (size_t k = 1; k < names.size(); ++k) {
    check.violations.push_back(
        on_tensor(names[k] + " format unlike " + names[0] + "'s", names[k],
                  [](const OpDef&, ArgSpec* arg) {
                    arg->tensor.format =
                        arg->tensor.format == ACL_FORMAT_NCHW ? ACL_FORMAT_ND : ACL_FORMAT_NCHW;
                    return true;
                  },
                  {names[k] + " format must equal " + names[0] + " format"}));
  }
  check.violations.push_back({"every format private",
                              [names](const OpDef& def, CallSpec* spec) {
                                for (const std::string& name : names) {
                                  arg_of(def, spec, name)->tensor.format = ACL_FORMAT_FRACTAL_Z;
                                }
                                return true;
                              },
                              ACLNN_ERR_PARAM_INVALID,
                              {names[0] + " format FRACTAL_Z is a private hardware format"}});
  check.run = [names = keys_of(names)](const Call& call) {
    std::vector<Named> tensors;
    for (const char* name : names) {
      tensors.push_back(call.named(name));
    }
    return check_same_public_format(call.op(), tensors);
  };
  return check;
}

Check rank_in(Names names, int min_rank, int max_rank) {
  Check check;
  check.rule = joined(names) + " rank " + std::to_string(min_rank) +
               (min_rank == max_rank ? "" : ".." + std::to_string(max_rank));
  for (const std::string& name : names) {
    check.violations.push_back(on_tensor(name + " rank " + std::to_string(max_rank + 1), name,
                                         [max_rank](const OpDef&, ArgSpec* arg) {
                                           while (static_cast<int>(arg->tensor.shape.size()) <=
                                                  max_rank) {
                                             change_rank(&arg->tensor, true);
                                           }
                                           return true;
                                         },
                                         {name + " rank must be"}));
    if (min_rank > 0) {
      check.violations.push_back(on_tensor(name + " rank " + std::to_string(min_rank - 1), name,
                                           [min_rank](const OpDef&, ArgSpec* arg) {
                                             while (static_cast<int>(arg->tensor.shape.size()) >=
                                                    min_rank) {
                                               change_rank(&arg->tensor, false);
                                             }
                                             return true;
                                           },
                                           {name + " rank must be"}));
    }
  }
  check.run = [names = keys_of(names), min_rank, max_rank](const Call& call) {
    for (const char* name : names) {
      if (const Named tensor = call.named(name); tensor.tensor != nullptr) {
        OA_TRY(check_rank(call.op(), tensor, min_rank, max_rank));
      }
    }
    return ACLNN_SUCCESS;
  };
  return check;
}

Check same_rank(Names names) {
  Check check;
  check.rule = joined(names) + " share one rank";
  for (size_t k = 1; k < names.size(); ++k) {
    check.violations.push_back(on_tensor(names[k] + " rank unlike " + names[0] + "'s", names[k],
                                         [](const OpDef&, ArgSpec* arg) {
                                           change_rank(&arg->tensor, arg->tensor.shape.size() < 4);
                                           return true;
                                         },
                                         {names[k] + " rank must equal " + names[0] + " rank"}));
  }
  check.run = [names = keys_of(names)](const Call& call) {
    const Named first = call.named(names[0]);
    for (const char* name : names) {
      OA_TRY(check_same_rank(call.op(), {first, call.named(name)}));
    }
    return ACLNN_SUCCESS;
  };
  return check;
}

Check named_value(std::string name) {
  Check check;
  check.rule = name + " one of its named values";
  check.violations.push_back({name + " out of range",
                              [name](const OpDef& def, CallSpec* spec) {
                                int64_t largest = 0;
                                for (const auto& [text, value] : def.param(name).names) {
                                  largest = std::max(largest, value);
                                }
                                arg_of(def, spec, name)->integer = largest + 7;
                                return true;
                              },
                              ACLNN_ERR_PARAM_INVALID,
                              {name + " must be"}});
  check.run = [name = param_key(name)](const Call& call) {
    const Param& param = call.def().params[static_cast<size_t>(call.index(name))];
    const int64_t value = call.integer(name);
    std::string list;
    for (const auto& [text, allowed] : param.names) {
      if (allowed == value) {
        return ACLNN_SUCCESS;
      }
      list += (list.empty() ? "" : ", ") + std::to_string(allowed) + " (" + text + ")";
    }
    return failf(ACLNN_ERR_PARAM_INVALID, "%s: %s must be %s, got %lld", call.op(), name,
                 list.c_str(), static_cast<long long>(value));
  };
  return check;
}

Check at_least(std::string name, double min) {
  Check check;
  check.rule = name + " >= " + format("%g", min);
  check.violations.push_back({name + " below " + format("%g", min),
                              [name, min](const OpDef& def, CallSpec* spec) {
                                arg_of(def, spec, name)->real = min - 1;
                                return true;
                              },
                              ACLNN_ERR_PARAM_INVALID,
                              {name + " must be >= " + format("%g", min)}});
  check.violations.push_back({name + " NaN",
                              [name](const OpDef& def, CallSpec* spec) {
                                arg_of(def, spec, name)->real = std::nan("");
                                return true;
                              },
                              ACLNN_ERR_PARAM_INVALID,
                              {name + " must be >= " + format("%g", min), "got nan"}});
  check.run = [name = param_key(name), min](const Call& call) {
    const double value = call.real(name);
    if (!(value >= min)) {
      return failf(ACLNN_ERR_PARAM_INVALID, "%s: %s must be >= %g, got %g", call.op(), name, min,
                   value);
    }
    return ACLNN_SUCCESS;
  };
  return check;
}

Check broadcast_to(Names inputs, std::string output) {
  Check check;
  check.rule = joined(inputs) + " broadcast to " + output + "'s shape";
  if (inputs.size() >= 2) {
    check.violations.push_back({joined(inputs) + " not broadcastable",
                                [inputs](const OpDef& def, CallSpec* spec) {
                                  arg_of(def, spec, inputs[0])->tensor = {{2}};
                                  arg_of(def, spec, inputs[1])->tensor = {{3}};
                                  return true;
                                },
                                ACLNN_ERR_PARAM_INVALID,
                                {inputs[1] + " shape [3] does not broadcast with the shape [2]"}});
  }
  check.violations.push_back(
      on_tensor(output + " shape unlike the broadcast", output,
                [](const OpDef&, ArgSpec* arg) {
                  change_shape(&arg->tensor);
                  return true;
                },
                {output + " shape must be the broadcast of " + joined(inputs)}));
  check.run = [inputs = keys_of(inputs), output = param_key(output),
               what = "the broadcast of " + joined(inputs)](const Call& call) {
    Shape shape;
    std::vector<Named> named;
    for (const char* name : inputs) {
      named.push_back(call.named(name));
    }
    OA_TRY(check_broadcast(call.op(), named, &shape));
    return check_shape(call.op(), call.named(output), shape, what.c_str());
  };
  return check;
}

Check same_shape(Names names, std::string reference) {
  Check check;
  check.rule = joined(names) + " shape equal to " + reference + "'s";
  for (const std::string& name : names) {
    check.violations.push_back(
        on_tensor(name + " shape unlike " + reference + "'s", name,
                  [](const OpDef&, ArgSpec* arg) {
                    change_shape(&arg->tensor);
                    return true;
                  },
                  {name + " shape must be equal to " + reference + " shape"}));
  }
  check.run = [names = keys_of(names), reference = param_key(reference)](const Call& call) {
    for (const char* name : names) {
      if (const Named tensor = call.named(name); tensor.tensor != nullptr) {
        OA_TRY(check_same_shape(call.op(), tensor, call.named(reference)));
      }
    }
    return ACLNN_SUCCESS;
  };
  return check;
}

Check in_device_memory(Names names) {
  Check check;
  check.rule = joined(names) + " inside device memory";
  for (const std::string& name : names) {
    check.violations.push_back(on_tensor(name + " in host memory", name,
                                         [](const OpDef&, ArgSpec* arg) {
                                           arg->on_host = true;
                                           return numel(arg->tensor.shape) >
                                                  0;  // an empty view touches no memory
                                         },
                                         {name, "is not inside device memory"}));
  }
  check.run = [names = keys_of(names)](const Call& call) {
    std::vector<Named> present;
    present.reserve(names.size());
    for (const char* name : names) {
      if (const Named tensor = call.named(name); tensor.tensor != nullptr) {
        present.push_back(tensor);
      }
    }
    return check_in_device_memory(call.op(), present);
  };
  return check;
}

Check disjoint_output(std::string output, Names inputs, bool allow_in_place) {
  Check check;
  check.rule = output + " writes no element twice and overlaps none of " + joined(inputs) +
               (allow_in_place ? " (an exactly identical view is in place)" : "");
  check.violations.push_back(on_tensor(output + " writing an element twice", output,
                                       [](const OpDef&, ArgSpec* arg) {
                                         if (numel(arg->tensor.shape) < 2) {
                                           return false;
                                         }
                                         arg->tensor.strides.assign(arg->tensor.shape.size(), 0);
                                         return true;
                                       },
                                       {output, "would write some element more than once"}));
  for (const std::string& input : inputs) {
    check.violations.push_back({output + " overlapping " + input,
                                [output, input](const OpDef& def, CallSpec* spec) {
                                  ArgSpec* out = arg_of(def, spec, output);
                                  if (out->null || arg_of(def, spec, input)->null) {
                                    return false;
                                  }
                                  out->alias_of = def.param_index(input);
                                  out->tensor.offset += 1;  // shifted: never the same view
                                  return true;
                                },
                                ACLNN_ERR_PARAM_INVALID,
                                {output + " overlaps " + input}});
  }
  check.run = [output = param_key(output), inputs = keys_of(inputs),
               allow_in_place](const Call& call) {
    const Named out = call.named(output);
    if (out.tensor == nullptr) {
      return ACLNN_SUCCESS;
    }
    std::vector<Named> present;
    present.reserve(inputs.size());
    for (const char* input : inputs) {
      if (const Named tensor = call.named(input); tensor.tensor != nullptr) {
        present.push_back(tensor);
      }
    }
    return check_output(call.op(), out, present, allow_in_place);
  };
  return check;
}

Check custom(std::string rule, std::function<aclnnStatus(const Call&)> run,
             std::vector<Violation> violations) {
  return {std::move(rule), std::move(run), std::move(violations)};
}

}  // namespace oa::rules
