#include "operators.h"

#include <cctype>
#include <cmath>
#include <memory>
#include <optional>
#include <sstream>

#include "base/dtype.h"
#include "core/op/bind.h"
#include "device.h"
#include "names.h"

namespace oa::tool {
namespace {

// The attribute's value from its text: a named value or an integer, a number, true/false, or a
// comma-separated list.
ArgSpec parse_attribute(const Param& p, const std::string& text) {
  const std::string option = attribute_option(p);
  ArgSpec arg;
  switch (p.kind) {
    case ParamKind::integer: {
      for (const auto& [name, value] : p.names) {
        if (text == name) {
          arg.integer = value;
          return arg;
        }
      }
      std::vector<int64_t> value;
      try {
        value = parse_int_list(option, text);
      } catch (const UsageError&) {
        value.clear();  // reported below, with the names too
      }
      if (value.size() != 1) {
        std::string names;
        for (const auto& entry : p.names) {
          names += (names.empty() ? "" : ", ") + entry.first;
        }
        throw UsageError(option + " expects " + (names.empty() ? "an" : names + " or an") +
                         " integer, got '" + text + "'");
      }
      arg.integer = value[0];
      return arg;
    }
    case ParamKind::real: {
      std::istringstream in(text);
      in >> arg.real;
      if (in.fail() || !in.eof()) {
        throw UsageError(option + " expects a number, got '" + text + "'");
      }
      return arg;
    }
    case ParamKind::flag:
      if (text == "true" || text == "1") {
        arg.integer = 1;
      } else if (text != "false" && text != "0") {
        throw UsageError(option + " expects true or false, got '" + text + "'");
      }
      arg.flag = arg.integer != 0;
      return arg;
    case ParamKind::int_array:
      arg.ints = parse_int_list(option, text);
      return arg;
    case ParamKind::bool_array:
      for (const int64_t v : parse_int_list(option, text)) {
        arg.bools.push_back(v != 0);
      }
      return arg;
    default:
      throw UsageError(option + " is not an attribute");
  }
}

std::string names_of(const OpDef& op, bool inputs) {
  std::string names;
  for (const Param& p : op.params) {
    if (p.kind == (inputs ? ParamKind::input : ParamKind::output)) {
      names += (names.empty() ? "" : ", ") + p.name;
    }
  }
  return names;
}

// The rank a format implies: 2 for NC, 3 for NCL, 4 for NCHW, NHWC and HWCN, 5 for NCDHW and
// NDHWC; 0 (any) for the others.
size_t format_rank(aclFormat format) {
  switch (format) {
    case ACL_FORMAT_NC:
      return 2;
    case ACL_FORMAT_NCL:
      return 3;
    case ACL_FORMAT_NCHW:
    case ACL_FORMAT_NHWC:
    case ACL_FORMAT_HWCN:
      return 4;
    case ACL_FORMAT_NCDHW:
    case ACL_FORMAT_NDHWC:
      return 5;
    default:
      return 0;
  }
}

// The format the call gives a tensor of parameter `name`, if any.
std::optional<aclFormat> given_format(const OpCall& call, const std::string& name, size_t rank) {
  const auto named = call.formats.find(name);
  if (named != call.formats.end()) {
    return named->second;
  }
  if (call.format != ACL_FORMAT_UNDEFINED &&
      (format_rank(call.format) == 0 || format_rank(call.format) == rank)) {
    return call.format;
  }
  return std::nullopt;
}

// Gives every tensor of `kind` its format from the call.
void apply_formats(const OpDef& op, const OpCall& call, ParamKind kind, CallSpec* spec) {
  for (size_t i = 0; i < op.params.size(); ++i) {
    TensorSpec& t = spec->args[i].tensor;
    if (op.params[i].kind == kind && !spec->args[i].null) {
      if (const auto format = given_format(call, op.params[i].name, t.shape.size())) {
        t.format = *format;
      }
    }
  }
}

// The call's arguments as the definition takes them.
CallSpec spec_of(const OpDef& op, const OpCall& call) {
  CallSpec spec;
  spec.args.resize(op.params.size());
  for (size_t i = 0; i < op.params.size(); ++i) {
    const Param& p = op.params[i];
    ArgSpec& arg = spec.args[i];
    if (p.kind == ParamKind::input) {
      const auto given = call.inputs.find(p.name);
      if (given == call.inputs.end()) {
        if (!p.optional) {
          throw UsageError(op.name + " needs --in " + p.name +
                           "=FILE (inputs: " + names_of(op, true) + ")");
        }
        arg.null = true;
      } else {
        arg.tensor = {given->second.shape, given->second.dtype};
      }
    } else if (p.kind != ParamKind::output) {
      const auto given = call.attributes.find(p.name);
      if (given != call.attributes.end()) {
        arg = parse_attribute(p, given->second);
      } else if (p.has_default) {
        arg = p.default_value;
      } else if (p.optional) {
        arg.null = true;
      } else {
        throw UsageError(op.name + " needs " + attribute_option(p) + " (" + p.rule + ")");
      }
    }
  }
  apply_formats(op, call, ParamKind::input, &spec);
  // Outputs as the inputs imply them; where they imply none (shapes that do not fit), the first
  // input's shape and dtype, so that the operator's own check says what is wrong.
  if (!op.infer || !op.infer(op, &spec)) {
    const auto first = call.inputs.begin();
    for (size_t i = 0; i < op.params.size(); ++i) {
      if (op.params[i].kind == ParamKind::output && first != call.inputs.end()) {
        spec.args[i].tensor = {first->second.shape, first->second.dtype};
      }
    }
  }
  for (size_t i = 0; i < op.params.size(); ++i) {
    const auto dtype = call.out_dtypes.find(op.params[i].name);
    if (dtype != call.out_dtypes.end()) {
      spec.args[i].tensor.dtype = dtype->second;
    }
  }
  apply_formats(op, call, ParamKind::output, &spec);
  return spec;
}

}  // namespace

std::map<std::string, Array> run_operator(const OpDef& op, const OpCall& call) {
  const CallSpec spec = spec_of(op, call);
  for (const std::string& name : call.wanted) {
    if (spec.args[static_cast<size_t>(op.param_index(name))].null) {
      throw UsageError("--out " + name + ": this call does not compute " + name +
                       " (see outputMask)");
    }
  }
  DeviceSession session;
  DeviceTensors tensors;
  std::vector<const aclTensor*> handles(op.params.size(), nullptr);
  std::map<std::string, aclTensor*> outputs;
  for (size_t i = 0; i < op.params.size(); ++i) {
    const Param& p = op.params[i];
    const ArgSpec& arg = spec.args[i];
    if (p.kind == ParamKind::input && !arg.null) {
      handles[i] = tensors.upload(call.inputs.at(p.name), arg.tensor.format);
    } else if (p.kind == ParamKind::output && !arg.null) {
      aclTensor* out = tensors.allocate(arg.tensor.dtype, arg.tensor.shape, arg.tensor.format);
      outputs[p.name] = out;
      handles[i] = out;
    }
  }
  const CallArgs args(op, spec, handles);
  uint64_t workspace_size = 0;
  aclOpExecutor* executor = nullptr;
  check_status(op.api + "GetWorkspaceSize", plan_op(op, args.args(), &workspace_size, &executor));
  session.launch(op.api, workspace_size, executor,
                 [&op](void* workspace, uint64_t size, aclOpExecutor* e, aclrtStream stream) {
                   return launch_op(op, workspace, size, e, stream);
                 });
  std::map<std::string, Array> results;
  for (const auto& [name, tensor] : outputs) {
    results[name] = tensors.download(tensor);
  }
  return results;
}

const OpDef& find_operator(const std::string& name) {
  std::string known;
  for (const OpDef* op : definitions()) {
    if (loose_name(op->name) == loose_name(name) || loose_name(op->api) == loose_name(name)) {
      return *op;
    }
    known += (known.empty() ? "" : ", ") + op->name;
  }
  throw UsageError("unknown operator '" + name + "' (operators: " + known + ")");
}

std::string attribute_option(const Param& param) {
  std::string option = "--";
  for (const char ch : param.name) {
    if (std::isupper(static_cast<unsigned char>(ch))) {
      option += '-';
    }
    option += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  }
  return option;
}

std::string attribute_default(const Param& param) {
  if (!param.has_default) {
    return param.optional ? "optional" : "required";
  }
  const ArgSpec& value = param.default_value;
  switch (param.kind) {
    case ParamKind::integer:
      for (const auto& [name, v] : param.names) {
        if (v == value.integer) {
          return name;
        }
      }
      return std::to_string(value.integer);
    case ParamKind::real:
      return (std::ostringstream() << value.real).str();
    case ParamKind::flag:
      return value.integer != 0 ? "true" : "false";
    default:
      return shape_string(value.ints);
  }
}

}  // namespace oa::tool
