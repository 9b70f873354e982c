// `openaclnn run OP ...`: one operator on arrays read from files, outputs written to files.
#include <cstdio>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <set>

#include "array.h"
#include "base/dtype.h"
#include "commands.h"
#include "core/op/definition.h"
#include "files.h"
#include "names.h"
#include "operators.h"

namespace oa::tool {
namespace {

struct RunArgs {
  std::string op;
  std::vector<std::string> in, out, dtype, shape, out_dtype, format;
  // Every attribute any operator takes, by CANN name: its value's text and its option.
  std::map<std::string, std::string> attributes;
  std::map<std::string, CLI::Option*> attribute_options;
};

bool is_tensor_param(const Param& p) { return is_tensor(p.kind); }

std::string names_of(const OpDef& op, ParamKind kind) {
  std::string names;
  for (const Param& p : op.params) {
    if (p.kind == kind || (kind == ParamKind::integer && !is_tensor_param(p))) {
      names += (names.empty() ? "" : ", ") + p.name;
    }
  }
  return names;
}

bool has_param(const OpDef& op, ParamKind kind, const std::string& name) {
  for (const Param& p : op.params) {
    if (p.name == name && (p.kind == kind || (kind == ParamKind::integer && !is_tensor_param(p)))) {
      return true;
    }
  }
  return false;
}

// NAME=VALUE arguments of one option, keyed by name; each name must be a parameter of `kind`.
std::map<std::string, std::string> assignments(const OpDef& op, ParamKind kind,
                                               const std::string& option,
                                               const std::vector<std::string>& texts) {
  std::map<std::string, std::string> result;
  for (const std::string& text : texts) {
    auto [name, value] = split_assignment(option, text);
    if (!has_param(op, kind, name)) {
      throw UsageError(option + " " + text + ": " + op.name + " has no " +
                       (kind == ParamKind::input ? "input" : "output") + " named '" + name + "' (" +
                       (kind == ParamKind::input ? "inputs" : "outputs") + ": " +
                       names_of(op, kind) + ")");
    }
    if (!result.emplace(name, value).second) {
      throw UsageError(option + " names '" + name + "' twice");
    }
  }
  return result;
}

// The attributes given on the command line; each must be one the operator takes.
std::map<std::string, std::string> attributes(const OpDef& op, const RunArgs& args) {
  std::map<std::string, std::string> given;
  for (const auto& [name, option] : args.attribute_options) {
    if (option->count() == 0) {
      continue;
    }
    if (!has_param(op, ParamKind::integer, name)) {
      const std::string names = names_of(op, ParamKind::integer);
      throw UsageError(op.name + " takes no " + option->get_name() +
                       " (its attributes: " + (names.empty() ? std::string("none") : names) + ")");
    }
    given[name] = args.attributes.at(name);
  }
  return given;
}

std::map<std::string, Array> read_inputs(const OpDef& op, const RunArgs& args) {
  const auto files = assignments(op, ParamKind::input, "--in", args.in);
  const auto dtypes = assignments(op, ParamKind::input, "--dtype", args.dtype);
  const auto shapes = assignments(op, ParamKind::input, "--shape", args.shape);
  std::map<std::string, Array> inputs;
  for (const Param& p : op.params) {
    if (p.kind != ParamKind::input) {
      continue;
    }
    const auto file = files.find(p.name);
    if (file == files.end() && p.optional) {
      continue;
    }
    if (file == files.end()) {
      throw UsageError(op.name + " needs --in " + p.name +
                       "=FILE (inputs: " + names_of(op, ParamKind::input) + ")");
    }
    std::optional<aclDataType> dtype;
    if (dtypes.count(p.name) > 0) {
      dtype = parse_dtype(dtypes.at(p.name));
    }
    std::optional<std::vector<int64_t>> shape;
    if (shapes.count(p.name) > 0) {
      shape = parse_shape(shapes.at(p.name));
    }
    inputs.emplace(p.name, read_array(file->second, dtype, shape));
  }
  return inputs;
}

// Writes every requested output under a temporary name first and renames them all only when all
// were written, so that a failure leaves no output behind.
void write_outputs(const std::map<std::string, std::string>& files,
                   const std::map<std::string, Array>& outputs) {
  std::vector<std::pair<std::string, std::string>> written;  // temporary name, final name
  try {
    for (const auto& [name, path] : files) {
      const std::string temporary = path + ".partial";
      // The temporary keeps the final extension, which chooses the format.
      const std::string staged = temporary + (is_bin_path(path) ? ".bin" : ".npy");
      write_array(staged, outputs.at(name));
      written.emplace_back(staged, path);
    }
  } catch (...) {
    for (const auto& [staged, path] : written) {
      std::remove(staged.c_str());
    }
    throw;
  }
  for (const auto& [staged, path] : written) {
    if (std::rename(staged.c_str(), path.c_str()) != 0) {
      throw UsageError("cannot rename " + staged + " to " + path);
    }
  }
}

aclFormat parse_format(const std::string& text, const std::string& name) {
  const aclFormat format = format_named(name);
  if (format == ACL_FORMAT_UNDEFINED) {
    throw UsageError("--format " + text + ": unknown format '" + name +
                     "' (formats: " + public_format_names() + ", and CANN's private ones)");
  }
  return format;
}

// --format NAME=FMT for one tensor, or FMT for every tensor of its rank.
void read_formats(const OpDef& op, const RunArgs& args, OpCall* call) {
  for (const std::string& text : args.format) {
    if (text.find('=') == std::string::npos) {
      if (call->format != ACL_FORMAT_UNDEFINED) {
        throw UsageError("--format " + text + ": a format for every tensor is given twice");
      }
      call->format = parse_format(text, text);
      continue;
    }
    auto [name, value] = split_assignment("--format", text);
    if (!has_param(op, ParamKind::input, name) && !has_param(op, ParamKind::output, name)) {
      throw UsageError("--format " + text + ": " + op.name + " has no tensor named '" + name +
                       "' (inputs: " + names_of(op, ParamKind::input) +
                       "; outputs: " + names_of(op, ParamKind::output) + ")");
    }
    if (!call->formats.emplace(name, parse_format(text, value)).second) {
      throw UsageError("--format names '" + name + "' twice");
    }
  }
}

void run(const RunArgs& args) {
  const OpDef& op = find_operator(args.op);
  const auto out_files = assignments(op, ParamKind::output, "--out", args.out);
  if (out_files.empty()) {
    throw UsageError(op.name + " needs at least one --out NAME=FILE (outputs: " +
                     names_of(op, ParamKind::output) + ")");
  }
  OpCall call;
  for (const auto& [name, dtype] :
       assignments(op, ParamKind::output, "--out-dtype", args.out_dtype)) {
    call.out_dtypes[name] = parse_dtype(dtype);
  }
  call.attributes = attributes(op, args);
  read_formats(op, args, &call);
  call.inputs = read_inputs(op, args);
  for (const auto& [name, path] : out_files) {
    call.wanted.push_back(name);
  }
  const std::map<std::string, Array> outputs = run_operator(op, call);
  write_outputs(out_files, outputs);
  for (const auto& [name, path] : out_files) {
    const Array& a = outputs.at(name);
    std::cout << name << ": " << dtype_label(a.dtype) << " " << shape_label(a.shape) << " -> "
              << path << "\n";
  }
}

}  // namespace

void add_run_command(CLI::App& app, int* status) {
  auto args = std::make_shared<RunArgs>();
  CLI::App* cmd = app.add_subcommand(
      "run",
      "Run an operator (forward or backward) on .npy/.bin inputs; `openaclnn list` shows "
      "each operator's inputs, outputs and attributes");
  cmd->add_option("op", args->op, "operator, e.g. SmoothL1LossBackward or smooth_l1_loss_backward")
      ->required();
  cmd->add_option("--in", args->in, "NAME=FILE: an input (.npy, or .bin with --shape and --dtype)");
  cmd->add_option("--out", args->out, "NAME=FILE: an output to write (.npy, or .bin for raw)");
  cmd->add_option("--dtype", args->dtype,
                  "NAME=DTYPE: an input's dtype (float32, float16, bf16, int32, int64; CANN's "
                  "names such as FLOAT or BF16 too); needed for .bin inputs and for bf16 .npy "
                  "files of uint16");
  cmd->add_option("--format", args->format,
                  "NAME=FORMAT: a tensor's format (ND, NCL, NCHW, NCDHW, NHWC, ...; default ND, "
                  "an output's follows its input's); FORMAT alone: every tensor of that "
                  "format's rank (NCHW: the 4-d ones)");
  cmd->add_option("--shape", args->shape, "NAME=D0,D1,...: a .bin input's shape (NAME= for 0-d)");
  cmd->add_option("--out-dtype", args->out_dtype,
                  "NAME=DTYPE: an output's dtype instead of the one the operator implies (also "
                  "hif8 and e4m3fn for ConvTbcBackward's gradWeight)");
  // One option per attribute name of any operator, with the operators that take it.
  std::map<std::string, std::pair<const Param*, std::string>> attributes;
  for (const OpDef* op : definitions()) {
    for (const Param& p : op->params) {
      if (!is_tensor_param(p)) {
        auto& entry = attributes[p.name];
        entry.first = &p;
        entry.second += (entry.second.empty() ? "" : ", ") + op->name;
      }
    }
  }
  for (const auto& [name, entry] : attributes) {
    const Param& p = *entry.first;
    args->attribute_options[name] =
        cmd->add_option(attribute_option(p), args->attributes[name],
                        p.rule + "; default " + attribute_default(p) + " (" + entry.second + ")");
  }
  cmd->callback([args, status] {
    run(*args);
    *status = 0;
  });
}

}  // namespace oa::tool
