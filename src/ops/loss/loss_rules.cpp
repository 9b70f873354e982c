#include "ops/loss/loss_rules.h"

#include <algorithm>
#include <utility>

#include "core/elementwise_op.h"
#include "runtime/error.h"

namespace oa::loss {
namespace {

std::string joined(const rules::Names& names) {
  std::string text;
  for (const std::string& name : names) {
    text += (text.empty() ? "" : ", ") + name;
  }
  return text;
}

// The present tensors among names.
std::vector<Named> present(const Call& call, const rules::Names& names) {
  std::vector<Named> tensors;
  for (const std::string& name : names) {
    if (call.tensor(name.c_str()) != nullptr) {
      tensors.push_back(call.named(name.c_str()));
    }
  }
  return tensors;
}

std::string present_names(const std::vector<Named>& tensors) {
  std::string text;
  for (const Named& t : tensors) {
    text += (text.empty() ? "" : ", ") + std::string(t.name);
  }
  return text;
}

// PyTorch's kinds of dtype, in promotion order.
enum class Kind { boolean, integral, floating, complex, other };

Kind kind_of(aclDataType dtype) {
  switch (dtype) {
    case ACL_BOOL:
      return Kind::boolean;
    case ACL_INT8:
    case ACL_UINT8:
    case ACL_INT16:
    case ACL_UINT16:
    case ACL_INT32:
    case ACL_UINT32:
    case ACL_INT64:
    case ACL_UINT64:
      return Kind::integral;
    case ACL_FLOAT16:
    case ACL_BF16:
    case ACL_FLOAT:
    case ACL_DOUBLE:
      return Kind::floating;
    case ACL_COMPLEX64:
    case ACL_COMPLEX128:
      return Kind::complex;
    default:
      return Kind::other;
  }
}

bool is_unsigned(aclDataType dtype) {
  return dtype == ACL_UINT8 || dtype == ACL_UINT16 || dtype == ACL_UINT32 || dtype == ACL_UINT64;
}

aclDataType signed_of_bits(int bits) {
  return bits <= 8 ? ACL_INT8 : bits <= 16 ? ACL_INT16 : bits <= 32 ? ACL_INT32 : ACL_INT64;
}

// Two integral dtypes: the wider one; signed with unsigned: a signed type holding both (none for
// UINT64 with a signed type).
aclDataType promote_integral(aclDataType a, aclDataType b) {
  const int bits_a = dtype_bits(a);
  const int bits_b = dtype_bits(b);
  if (is_unsigned(a) == is_unsigned(b)) {
    return bits_a >= bits_b ? a : b;
  }
  const aclDataType u = is_unsigned(a) ? a : b;
  const aclDataType s = is_unsigned(a) ? b : a;
  if (dtype_bits(s) > dtype_bits(u)) {
    return s;
  }
  return u == ACL_UINT64 ? ACL_DT_UNDEFINED : signed_of_bits(2 * dtype_bits(u));
}

int float_rank(aclDataType dtype) {
  return dtype == ACL_DOUBLE ? 3 : dtype == ACL_FLOAT ? 2 : 1;  // FLOAT16 and BF16 alike
}

// PyTorch's promotion of two dtypes; ACL_DT_UNDEFINED where there is none (a dtype PyTorch does
// not promote, such as the 8-bit floating types).
aclDataType promote(aclDataType a, aclDataType b) {
  const Kind ka = kind_of(a);
  const Kind kb = kind_of(b);
  if (ka == Kind::other || kb == Kind::other) {
    return ACL_DT_UNDEFINED;
  }
  if (a == b) {
    return a;
  }
  if (ka != kb) {
    const aclDataType high = ka > kb ? a : b;
    const aclDataType low = ka > kb ? b : a;
    if (kind_of(high) == Kind::complex && low == ACL_DOUBLE) {
      return ACL_COMPLEX128;
    }
    return high;
  }
  switch (ka) {
    case Kind::integral:
      return promote_integral(a, b);
    case Kind::floating:
      if (float_rank(a) == float_rank(b)) {
        return ACL_FLOAT;  // FLOAT16 with BF16
      }
      return float_rank(a) > float_rank(b) ? a : b;
    default:
      return ACL_COMPLEX128;  // two different complex types
  }
}

// PyTorch's canCast.
bool can_cast_to(aclDataType from, aclDataType to) {
  const Kind kf = kind_of(from);
  const Kind kt = kind_of(to);
  if (kf == Kind::other || kt == Kind::other) {
    return false;
  }
  if (kf == Kind::complex && kt != Kind::complex) {
    return false;
  }
  if (kf == Kind::floating && (kt == Kind::integral || kt == Kind::boolean)) {
    return false;
  }
  return !(kf != Kind::boolean && kt == Kind::boolean);
}

// The promotion of the present tensors' dtypes; false (with the message recorded) when there is
// none.
aclnnStatus promoted(const Call& call, const std::vector<Named>& tensors, aclDataType* dtype) {
  aclDataType result = ACL_DT_UNDEFINED;
  for (const Named& t : tensors) {
    const aclDataType next =
        result == ACL_DT_UNDEFINED ? t.tensor->dtype : promote(result, t.tensor->dtype);
    if (next == ACL_DT_UNDEFINED || kind_of(t.tensor->dtype) == Kind::other) {
      return failf(ACLNN_ERR_PARAM_INVALID, "%s: %s dtypes (%s) cannot be promoted to one type",
                   call.op(), present_names(tensors).c_str(), dtype_name(t.tensor->dtype).c_str());
    }
    result = next;
  }
  *dtype = result;
  return ACLNN_SUCCESS;
}

// A violation that changes one present tensor parameter.
Violation on_tensor(std::string what, const std::string& name, std::function<bool(ArgSpec*)> change,
                    std::vector<std::string> message) {
  return {std::move(what),
          [name, change](const OpDef& def, CallSpec* spec) {
            ArgSpec* arg = arg_of(def, spec, name);
            return !arg->null && change(arg);
          },
          ACLNN_ERR_PARAM_INVALID, std::move(message)};
}

// A shape that does not broadcast to (nor, unless it is 1, with) a last dim of `last`.
int64_t conflicting_dim(int64_t last) { return std::max<int64_t>(last + 1, 2); }

// The shape reduction `reduced` gives from the broadcast shape.
Shape reduced_shape(ReducedShape reduced, const Shape& broadcast) {
  if (reduced == ReducedShape::first_dim_gone && !broadcast.empty()) {
    return Shape(broadcast.begin() + 1, broadcast.end());
  }
  return {};
}

// "mean", "sum", "batchmean", or the number.
std::string reduction_name(int64_t reduction) {
  switch (reduction) {
    case 1:
      return "mean";
    case 2:
      return "sum";
    case 3:
      return "batchmean";
    default:
      return std::to_string(reduction);
  }
}

// What a reduced result's shape must be, in words, for inputs of the broadcast shape `shape`.
std::string reduced_expectation(ReducedShape reduced, const Shape& shape) {
  return reduced == ReducedShape::first_dim_gone  ? shape_string(reduced_shape(reduced, shape))
         : reduced == ReducedShape::scalar        ? "[]"
         : reduced == ReducedShape::scalar_or_one ? "[] or [1]"
                                                  : "one element";
}

}  // namespace

ArgSpec* arg_of(const OpDef& def, CallSpec* spec, const std::string& name) {
  return &spec->args[static_cast<size_t>(def.param_index(name))];
}

const ArgSpec& arg_of(const OpDef& def, const CallSpec& spec, const std::string& name) {
  return spec.args[static_cast<size_t>(def.param_index(name))];
}

int64_t reduction_of(const OpDef& def, const CallSpec& spec) {
  return def.param_index("reduction") < 0 ? 0 : arg_of(def, spec, "reduction").integer;
}

CallSpec with_dtype(const OpDef& def, CallSpec spec, const std::string& name, aclDataType dtype) {
  arg_of(def, &spec, name)->tensor.dtype = dtype;
  return spec;
}

Check loss_result(rules::Names inputs, std::string result, ReducedShape reduced,
                  bool broadcast_checked) {
  Check check;
  const char* reduced_words[] = {"0-d", "0-d or [1]", "one element",
                                 "the broadcast shape without its first dim"};
  check.rule = result + ": the broadcast of " + joined(inputs) + " (reduction none), else " +
               reduced_words[static_cast<int>(reduced)];
  check.run = [inputs, result, reduced](const Call& call) {
    const std::vector<Named> tensors = present(call, inputs);
    Shape shape;
    OA_TRY(check_broadcast(call.op(), tensors, &shape));
    const Named out = call.named(result.c_str());
    const int64_t reduction = call.integer("reduction");
    if (reduction == 0) {
      const std::string what = "the broadcast of " + present_names(tensors);
      return check_shape(call.op(), out, shape, what.c_str());
    }
    const Shape& got = out.tensor->shape;
    bool ok = false;
    switch (reduced) {
      case ReducedShape::scalar:
        ok = got.empty();
        break;
      case ReducedShape::scalar_or_one:
        ok = got.empty() || got == Shape{1};
        break;
      case ReducedShape::one_element:
        ok = numel(got) == 1;
        break;
      case ReducedShape::first_dim_gone:
        ok = got == reduced_shape(reduced, shape);
        break;
    }
    if (!ok) {
      return failf(ACLNN_ERR_PARAM_INVALID, "%s: %s shape must be %s for reduction %s, got %s",
                   call.op(), result.c_str(), reduced_expectation(reduced, shape).c_str(),
                   reduction_name(reduction).c_str(), shape_string(got).c_str());
    }
    return ACLNN_SUCCESS;
  };
  if (!broadcast_checked && inputs.size() >= 2) {
    check.violations.push_back({joined(inputs) + " not broadcastable",
                                [inputs](const OpDef& def, CallSpec* spec) {
                                  arg_of(def, spec, inputs[0])->tensor = {{2}};
                                  arg_of(def, spec, inputs[1])->tensor = {{3}};
                                  return true;
                                },
                                ACLNN_ERR_PARAM_INVALID,
                                {inputs[1] + " shape [3] does not broadcast with the shape [2]"}});
  }
  check.violations.push_back({result + " shape unlike the broadcast (reduction none)",
                              [result](const OpDef& def, CallSpec* spec) {
                                if (reduction_of(def, *spec) != 0) {
                                  return false;
                                }
                                TensorSpec& t = arg_of(def, spec, result)->tensor;
                                if (t.shape.empty()) {
                                  t.shape = {2};
                                } else {
                                  t.shape[0] += 1;
                                }
                                t.strides.clear();
                                return true;
                              },
                              ACLNN_ERR_PARAM_INVALID,
                              {result + " shape must be the broadcast of"}});
  check.violations.push_back(
      {result + " shaped wrongly for a reduction",
       [result, reduced](const OpDef& def, CallSpec* spec) {
         if (reduction_of(def, *spec) == 0) {
           return false;
         }
         TensorSpec& t = arg_of(def, spec, result)->tensor;
         if (reduced == ReducedShape::first_dim_gone) {
           t.shape.insert(t.shape.begin(), 2);
         } else {
           t.shape = reduced == ReducedShape::scalar ? Shape{1} : Shape{2};
         }
         t.strides.clear();
         return true;
       },
       ACLNN_ERR_PARAM_INVALID,
       {result + " shape must be" +
            (reduced == ReducedShape::first_dim_gone ? "" : " " + reduced_expectation(reduced, {})),
        "for reduction"}});
  return check;
}

Check promoted_in(rules::Names inputs, DtypeSet allowed) {
  Check check;
  check.rule = "the promotion of " + joined(inputs) + " dtypes in " + dtype_list(allowed);
  check.run = [inputs, allowed](const Call& call) {
    const std::vector<Named> tensors = present(call, inputs);
    aclDataType dtype = ACL_DT_UNDEFINED;
    OA_TRY(promoted(call, tensors, &dtype));
    if (std::find(allowed.begin(), allowed.end(), dtype) == allowed.end()) {
      return failf(ACLNN_ERR_PARAM_INVALID, "%s: %s dtypes promote to %s, which must be one of %s",
                   call.op(), present_names(tensors).c_str(), dtype_name(dtype).c_str(),
                   dtype_list(allowed).c_str());
    }
    return ACLNN_SUCCESS;
  };
  check.violations.push_back({joined(inputs) + " all INT16",
                              [inputs](const OpDef& def, CallSpec* spec) {
                                for (const std::string& name : inputs) {
                                  arg_of(def, spec, name)->tensor.dtype = ACL_INT16;
                                }
                                return true;
                              },
                              ACLNN_ERR_PARAM_INVALID,
                              {"dtypes promote to INT16, which must be one of"}});
  return check;
}

Check can_cast(rules::Names from, std::string to) {
  Check check;
  check.rule = "the promotion of " + joined(from) + " dtypes can be cast to " + to + "'s";
  check.run = [from, to](const Call& call) {
    const std::vector<Named> tensors = present(call, from);
    aclDataType dtype = ACL_DT_UNDEFINED;
    OA_TRY(promoted(call, tensors, &dtype));
    const aclDataType target = call.tensor(to.c_str())->dtype;
    if (!can_cast_to(dtype, target)) {
      return failf(ACLNN_ERR_PARAM_INVALID, "%s: %s dtype %s cannot be cast to %s dtype %s",
                   call.op(), present_names(tensors).c_str(), dtype_name(dtype).c_str(), to.c_str(),
                   dtype_name(target).c_str());
    }
    return ACLNN_SUCCESS;
  };
  check.violations.push_back(on_tensor(to + " dtype INT32", to,
                                       [](ArgSpec* arg) {
                                         arg->tensor.dtype = ACL_INT32;
                                         return true;
                                       },
                                       {"cannot be cast to " + to + " dtype INT32"}));
  return check;
}

Check computed_dtypes(rules::Names inputs, rules::Names outputs, std::string what) {
  Check check;
  rules::Names all = inputs;
  all.insert(all.end(), outputs.begin(), outputs.end());
  check.rule = joined(all) + " dtype in " + dtype_list(kFloatDtypes) + " (openaclnn computes " +
               "in floating point only; CANN also takes " + what + ")";
  check.run = [all, what](const Call& call) {
    for (const Named& t : present(call, all)) {
      if (std::find(kFloatDtypes.begin(), kFloatDtypes.end(), t.tensor->dtype) ==
          kFloatDtypes.end()) {
        return failf(ACLNN_ERR_PARAM_INVALID,
                     "%s: %s dtype must be one of %s, got %s (CANN also takes %s; openaclnn does "
                     "not compute them yet)",
                     call.op(), t.name, dtype_list(kFloatDtypes).c_str(),
                     dtype_name(t.tensor->dtype).c_str(), what.c_str());
      }
    }
    return ACLNN_SUCCESS;
  };
  for (const std::string& name : inputs) {
    check.violations.push_back(dtype_violation(name, ACL_INT32));
  }
  for (const std::string& name : outputs) {
    check.violations.push_back(dtype_violation(name, ACL_DOUBLE));
  }
  return check;
}

Check broadcasts_to(rules::Names names, std::string reference) {
  Check check;
  check.rule = joined(names) + " broadcast to " + reference + "'s shape";
  check.run = [names, reference](const Call& call) {
    const Named ref = call.named(reference.c_str());
    for (const Named& t : present(call, names)) {
      Shape shape;
      if (!broadcast_shapes(t.tensor->shape, ref.tensor->shape, &shape) ||
          shape != ref.tensor->shape) {
        return failf(ACLNN_ERR_PARAM_INVALID, "%s: %s shape %s must broadcast to %s shape %s",
                     call.op(), t.name, shape_string(t.tensor->shape).c_str(), ref.name,
                     shape_string(ref.tensor->shape).c_str());
      }
    }
    return ACLNN_SUCCESS;
  };
  for (const std::string& name : names) {
    check.violations.push_back({name + " not broadcasting to " + reference,
                                [name, reference](const OpDef& def, CallSpec* spec) {
                                  ArgSpec* arg = arg_of(def, spec, name);
                                  if (arg->null) {
                                    return false;
                                  }
                                  Shape shape = arg_of(def, spec, reference)->tensor.shape;
                                  if (shape.empty()) {
                                    shape = {2};
                                  } else {
                                    shape.back() = conflicting_dim(shape.back());
                                  }
                                  arg->tensor = {shape, arg->tensor.dtype, arg->tensor.format};
                                  return true;
                                },
                                ACLNN_ERR_PARAM_INVALID,
                                {name + " shape", "must broadcast to " + reference + " shape"}});
  }
  return check;
}

Check broadcasts_with(rules::Names names, std::string reference) {
  Check check;
  check.rule = joined(names) + " broadcast with " + reference + "'s shape";
  check.run = [names, reference](const Call& call) {
    const Named ref = call.named(reference.c_str());
    for (const Named& t : present(call, names)) {
      Shape shape;
      OA_TRY(check_broadcast(call.op(), {ref, t}, &shape));
    }
    return ACLNN_SUCCESS;
  };
  for (const std::string& name : names) {
    check.violations.push_back(
        {name + " not broadcasting with " + reference,
         [name, reference](const OpDef& def, CallSpec* spec) {
           ArgSpec* arg = arg_of(def, spec, name);
           const Shape& ref = arg_of(def, spec, reference)->tensor.shape;
           if (arg->null || ref.empty() || ref.back() == 1) {
             return false;
           }
           arg->tensor = {{conflicting_dim(ref.back())}, arg->tensor.dtype, arg->tensor.format};
           return true;
         },
         ACLNN_ERR_PARAM_INVALID,
         {name + " shape", "does not broadcast with the shape"}});
  }
  return check;
}

Check same_format(rules::Names names) {
  Check check;
  check.rule = joined(names) + " share one format";
  check.run = [names](const Call& call) {
    const std::vector<Named> tensors = present(call, names);
    for (const Named& t : tensors) {
      if (t.tensor->format != tensors[0].tensor->format) {
        return failf(ACLNN_ERR_PARAM_INVALID, "%s: %s format must equal %s format (%s), got %s",
                     call.op(), t.name, tensors[0].name,
                     format_name(tensors[0].tensor->format).c_str(),
                     format_name(t.tensor->format).c_str());
      }
    }
    return ACLNN_SUCCESS;
  };
  for (size_t k = 1; k < names.size(); ++k) {
    check.violations.push_back(
        on_tensor(names[k] + " format unlike " + names[0] + "'s", names[k],
                  [](ArgSpec* arg) {
                    arg->tensor.format =
                        arg->tensor.format == ACL_FORMAT_NCHW ? ACL_FORMAT_ND : ACL_FORMAT_NCHW;
                    return true;
                  },
                  {names[k] + " format must equal " + names[0] + " format"}));
  }
  return check;
}

Violation dtype_violation(std::string name, aclDataType dtype) {
  return on_tensor(name + " dtype " + dtype_name(dtype), name,
                   [dtype](ArgSpec* arg) {
                     arg->tensor.dtype = dtype;
                     return true;
                   },
                   {name + " dtype must be one of", "got " + dtype_name(dtype)});
}

Check only_with(Check check, std::string optional) {
  const auto run = check.run;
  check.rule += " (where " + optional + " is given)";
  check.run = [run, optional](const Call& call) {
    return call.tensor(optional.c_str()) == nullptr ? ACLNN_SUCCESS : run(call);
  };
  for (Violation& v : check.violations) {
    const auto apply = v.apply;
    v.apply = [apply, optional](const OpDef& def, CallSpec* spec) {
      return !arg_of(def, spec, optional)->null && apply(def, spec);
    };
  }
  return check;
}

std::function<void(const CallSpec&, int, std::vector<double>*)> probability_inputs(
    const OpDef& def, const rules::Names& names, const std::string& unless) {
  std::vector<int> params;
  for (const std::string& name : names) {
    params.push_back(def.param_index(name));
  }
  const int flag = unless.empty() ? -1 : def.param_index(unless);
  return [params, flag](const CallSpec& spec, int param, std::vector<double>* values) {
    if (std::find(params.begin(), params.end(), param) == params.end() ||
        (flag >= 0 && spec.args[static_cast<size_t>(flag)].integer != 0)) {
      return;
    }
    uint32_t state = 12345;
    const int64_t count = numel(spec.args[static_cast<size_t>(param)].tensor.shape);
    for (int64_t k = 0; k < count; ++k) {
      state = state * 1664525u + 1013904223u;
      const int64_t kind = k % 11;
      values->push_back(kind == 0   ? 0.0
                        : kind == 1 ? 1.0
                                    : static_cast<double>(state >> 8) / 16777216.0);
    }
  };
}

Check disjoint_output(std::string output, rules::Names inputs, bool one_element) {
  Check check = rules::disjoint_output(output, inputs, false);
  std::vector<Violation> violations;
  if (!one_element) {
    violations.push_back(check.violations.front());  // an element written twice
  }
  for (const std::string& input : inputs) {
    violations.push_back({output + " overlapping " + input,
                          [output, input](const OpDef& def, CallSpec* spec) {
                            ArgSpec* out = arg_of(def, spec, output);
                            ArgSpec* in = arg_of(def, spec, input);
                            if (out->null || in->null) {
                              return false;
                            }
                            const auto bytes = [](const ArgSpec* a) {
                              return numel(a->tensor.shape) * (dtype_bits(a->tensor.dtype) / 8);
                            };
                            if (bytes(out) == 0 || bytes(in) == 0) {
                              return false;  // an empty view overlaps nothing
                            }
                            ArgSpec* smaller = bytes(out) <= bytes(in) ? out : in;
                            smaller->alias_of = def.param_index(smaller == out ? input : output);
                            smaller->tensor.offset = 0;
                            return true;
                          },
                          ACLNN_ERR_PARAM_INVALID,
                          {output + " overlaps " + input}});
  }
  check.violations = std::move(violations);
  return check;
}

Check violated_together(Check check, rules::Names tensors, std::vector<std::string> message) {
  check.violations = {{joined(tensors) + " all INT16",
                       [tensors](const OpDef& def, CallSpec* spec) {
                         for (const std::string& name : tensors) {
                           ArgSpec* arg = arg_of(def, spec, name);
                           if (!arg->null) {
                             arg->tensor.dtype = ACL_INT16;
                           }
                         }
                         return true;
                       },
                       ACLNN_ERR_PARAM_INVALID, std::move(message)}};
  return check;
}

}  // namespace oa::loss
