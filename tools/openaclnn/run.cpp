// `openaclnn run OP ...`: one operator on arrays read from files, outputs written to files.
#include <cstdio>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <set>

#include "array.h"
#include "commands.h"
#include "files.h"
#include "names.h"
#include "operators.h"

namespace oa::tool {
namespace {

struct RunArgs {
  std::string op;
  std::vector<std::string> in, out, dtype, shape, out_dtype;
  std::string reduction, output_size;
  float beta = 0;
  int64_t pad = 0, cube_math_type = 0;
  CLI::Option *beta_opt = nullptr, *pad_opt = nullptr, *cube_opt = nullptr;
};

std::string names_of(const ops::OpInfo& op, ops::ParamKind kind) {
  std::string names;
  for (const ops::OpParam& p : op.params) {
    if (p.kind == kind) {
      names += (names.empty() ? "" : ", ") + p.name;
    }
  }
  return names;
}

bool has_param(const ops::OpInfo& op, ops::ParamKind kind, const std::string& name) {
  for (const ops::OpParam& p : op.params) {
    if (p.kind == kind && p.name == name) {
      return true;
    }
  }
  return false;
}

// NAME=VALUE arguments of one option, keyed by name; each name must be a parameter of `kind`.
std::map<std::string, std::string> assignments(const ops::OpInfo& op, ops::ParamKind kind,
                                               const std::string& option,
                                               const std::vector<std::string>& texts) {
  std::map<std::string, std::string> result;
  for (const std::string& text : texts) {
    auto [name, value] = split_assignment(option, text);
    if (!has_param(op, kind, name)) {
      throw UsageError(option + " " + text + ": " + op.name + " has no " +
                       (kind == ops::ParamKind::input ? "input" : "output") + " named '" + name +
                       "' (" + (kind == ops::ParamKind::input ? "inputs" : "outputs") + ": " +
                       names_of(op, kind) + ")");
    }
    if (!result.emplace(name, value).second) {
      throw UsageError(option + " names '" + name + "' twice");
    }
  }
  return result;
}

int64_t parse_reduction(const std::string& text) {
  static const std::map<std::string, int64_t> names = {{"none", 0}, {"mean", 1}, {"sum", 2}};
  const auto found = names.find(text);
  if (found != names.end()) {
    return found->second;
  }
  try {
    const std::vector<int64_t> value = parse_int_list("--reduction", text);
    if (value.size() == 1) {
      return value[0];
    }
  } catch (const UsageError&) {
    // Reported below, with the names too.
  }
  throw UsageError("--reduction expects none, mean, sum or an integer, got '" + text + "'");
}

// Attributes given on the command line; each must be one the operator takes.
Attributes attributes(const ops::OpInfo& op, const RunArgs& args) {
  Attributes a;
  const auto given = [&op](bool present, const char* option, const char* name) {
    if (present && !has_param(op, ops::ParamKind::attribute, name)) {
      const std::string names = names_of(op, ops::ParamKind::attribute);
      throw UsageError(op.name + " takes no " + option +
                       " (its attributes: " + (names.empty() ? std::string("none") : names) + ")");
    }
    return present;
  };
  if (given(!args.reduction.empty(), "--reduction", "reduction")) {
    a.reduction = parse_reduction(args.reduction);
  }
  if (given(args.beta_opt->count() > 0, "--beta", "beta")) {
    a.beta = args.beta;
  }
  if (given(args.pad_opt->count() > 0, "--pad", "pad")) {
    a.pad = args.pad;
  }
  if (given(args.cube_opt->count() > 0, "--cube-math-type", "cubeMathType")) {
    a.cube_math_type = args.cube_math_type;
  }
  if (given(!args.output_size.empty(), "--output-size", "outputSize")) {
    a.output_size = parse_int_list("--output-size", args.output_size);
  }
  return a;
}

std::map<std::string, Array> read_inputs(const ops::OpInfo& op, const RunArgs& args) {
  const auto files = assignments(op, ops::ParamKind::input, "--in", args.in);
  const auto dtypes = assignments(op, ops::ParamKind::input, "--dtype", args.dtype);
  const auto shapes = assignments(op, ops::ParamKind::input, "--shape", args.shape);
  std::map<std::string, Array> inputs;
  for (const ops::OpParam& p : op.params) {
    if (p.kind != ops::ParamKind::input) {
      continue;
    }
    const auto file = files.find(p.name);
    if (file == files.end()) {
      throw UsageError(op.name + " needs --in " + p.name +
                       "=FILE (inputs: " + names_of(op, ops::ParamKind::input) + ")");
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

void run(const RunArgs& args) {
  const ops::OpInfo& op = find_operator(args.op);
  const auto out_files = assignments(op, ops::ParamKind::output, "--out", args.out);
  if (out_files.empty()) {
    throw UsageError(op.name + " needs at least one --out NAME=FILE (outputs: " +
                     names_of(op, ops::ParamKind::output) + ")");
  }
  OpCall call;
  for (const auto& [name, dtype] :
       assignments(op, ops::ParamKind::output, "--out-dtype", args.out_dtype)) {
    call.out_dtypes[name] = parse_dtype(dtype);
  }
  call.attributes = attributes(op, args);
  call.inputs = read_inputs(op, args);
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
  cmd->add_option("--shape", args->shape, "NAME=D0,D1,...: a .bin input's shape (NAME= for 0-d)");
  cmd->add_option("--out-dtype", args->out_dtype,
                  "NAME=DTYPE: an output's dtype instead of the one the operator implies (also "
                  "hif8 and e4m3fn for ConvTbcBackward's gradWeight)");
  cmd->add_option("--reduction", args->reduction, "none, mean or sum (or 0, 1, 2); default mean");
  args->beta_opt = cmd->add_option("--beta", args->beta, "SmoothL1 beta; default 1.0");
  args->pad_opt = cmd->add_option("--pad", args->pad, "ConvTbc pad; default 0");
  args->cube_opt = cmd->add_option("--cube-math-type", args->cube_math_type,
                                   "ConvTbc cubeMathType 0..3; default 0 (KEEP_DTYPE)");
  cmd->add_option("--output-size", args->output_size, "H,W: AdaptiveMaxPool2d's outputSize");
  cmd->callback([args, status] {
    run(*args);
    *status = 0;
  });
}

}  // namespace oa::tool
