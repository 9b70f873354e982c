// An operator described once (oneDNN's primitive with its ordered implementation list, ATen's
// OpInfo): its CANN name and header, its parameters, its checks in contract order, how its outputs
// follow from its inputs, sample calls, and its implementations, fastest first, the plain
// `reference` last. The C entry points, the CLI, the Python package, the conformance test and the
// docs' tables all read this description.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "aclnn/aclnn_base.h"
#include "base/dtype.h"
#include "core/checks.h"
#include "core/executor.h"
#include "core/op/args.h"
#include "core/op/spec.h"

namespace oa {

enum class ParamKind {
  input,       // const aclTensor*
  output,      // aclTensor*
  integer,     // int64_t, int32_t, int8_t
  real,        // float, double
  flag,        // bool
  int_array,   // const aclIntArray*
  bool_array,  // const aclBoolArray*
};

inline bool is_tensor(ParamKind kind) {
  return kind == ParamKind::input || kind == ParamKind::output;
}

// One address per distinct parameter name for the whole process. Params made by core/op/build.h
// and the rules of core/op/rules.h hold these keys, so a rule finds its parameter in a call by
// comparing addresses; any other name is still found by its characters.
const char* param_key(const std::string& name);

struct Param {
  std::string name;           // CANN's parameter name
  const char* key = nullptr;  // param_key(name)
  ParamKind kind;
  DtypeSet dtypes;        // tensors: what the checks accept
  std::string rule;       // shape, relation or range, in words
  bool optional = false;  // a tensor or array that may be null
  // Attributes: named values (reduction's "none", "mean", "sum") and the value the CLI and the
  // Python package use when none is given.
  std::vector<std::pair<std::string, int64_t>> names;
  bool has_default = false;
  ArgSpec default_value;
};

struct OpDef;

// One GetWorkspaceSize call: the definition and the values received.
class Call {
 public:
  Call(const OpDef& def, std::vector<Arg> args, uint64_t* workspace_size, aclOpExecutor** executor)
      : def_(def), args_(std::move(args)), workspace_size_(workspace_size), executor_(executor) {}

  const OpDef& def() const { return def_; }
  const char* op() const;  // "aclnnSmoothL1LossBackward"
  // The index of parameter `name` (a param_key or any other string with the name); aborts for a
  // name the definition does not have (a bug).
  int index(const char* name) const;
  const Arg& arg(int i) const { return args_[static_cast<size_t>(i)]; }
  const aclTensor* tensor(const char* name) const {
    return static_cast<const aclTensor*>(arg(index(name)).handle());
  }
  Named named(const char* name) const { return {tensor(name), name}; }
  int64_t integer(const char* name) const { return arg(index(name)).integer(); }
  double real(const char* name) const { return arg(index(name)).real(); }
  bool flag(const char* name) const { return arg(index(name)).integer() != 0; }
  const void* handle(const char* name) const { return arg(index(name)).handle(); }
  uint64_t* workspace_size() const { return workspace_size_; }
  aclOpExecutor** executor() const { return executor_; }

 private:
  const OpDef& def_;
  std::vector<Arg> args_;
  uint64_t* workspace_size_;
  aclOpExecutor** executor_;
};

// How the conformance test makes a check fail on its own: a change to a valid call, the code the
// check returns and words its message must contain (besides the operator's name). apply returns
// false when this call cannot be changed that way (the test then tries its next sample).
struct Violation {
  std::string what;
  std::function<bool(const OpDef&, CallSpec*)> apply;
  int code = ACLNN_ERR_PARAM_INVALID;
  std::vector<std::string> message;
};

// One rule of the contract: run returns ACLNN_SUCCESS or the code (with its message recorded).
struct Check {
  std::string rule;  // in words, for `openaclnn list` and the docs
  std::function<aclnnStatus(const Call&)> run;
  std::vector<Violation> violations;
};

// What an implementation's phase 1 produces.
struct Planned {
  std::unique_ptr<Plan> plan;
  uint64_t workspace_bytes = 0;
};

struct Impl {
  std::string name;  // "reference", "simd", "onednn", ...
  // Null: applies to every call. Else false with *why_not saying why it does not.
  std::function<bool(const Call&, std::string* why_not)> applies;
  // Null: worth choosing for every call it applies to. Else false with *why_not when the problem
  // is too small for its setup to pay (the next implementation is then faster). Not asked when
  // OPENACLNN_IMPL names this implementation, so that a test can run it on small problems.
  std::function<bool(const Call&, std::string* why_not)> pays;
  std::function<aclnnStatus(const Call&, Planned*)> plan;
  // Whether it gives the reference's bits (the same operations in the same order); otherwise the
  // conformance test bounds its difference from the reference by `tolerance`.
  bool reference_bits = true;
};

// The elementwise tolerance of a result against the reference: |got - ref| <= atol + rtol |ref|.
struct Tolerance {
  double rtol = 0;
  double atol = 0;
};

struct OpDef {
  std::string name;  // "SmoothL1LossBackward": the API is aclnn<name>GetWorkspaceSize, aclnn<name>
  std::string api;   // "aclnnSmoothL1LossBackward"
  std::string header;         // "aclnnop/aclnn_smooth_l1_loss_backward.h"
  std::string summary;        // one line
  std::vector<Param> params;  // in the prototype's order
  std::vector<Check> checks;  // in the contract's order
  // Fills the output parameters' tensors of a call whose inputs and attributes are set (shape and
  // dtype as the checks require); false when the inputs admit none (the checks then say why).
  std::function<bool(const OpDef&, CallSpec*)> infer;
  std::vector<CallSpec> samples;  // valid calls, outputs included; the conformance test's seeds
  // Data the inputs must hold for a sample to run (pooling indices in range): fills `values` (one
  // double per element of parameter `param`'s view, row-major) or leaves them to the caller's
  // random normals.
  std::function<void(const CallSpec&, int param, std::vector<double>* values)> input_values;
  // For implementations whose bits differ from the reference's.
  std::function<Tolerance(const OpDef&, const CallSpec&)> tolerance;
  std::vector<Impl> impls;  // fastest first; "reference" last

  OpDef(std::string op_name, std::string op_header, std::string op_summary)
      : name(std::move(op_name)),
        api("aclnn" + name),
        header(std::move(op_header)),
        summary(std::move(op_summary)) {}

  int param_index(const char* param) const;  // -1 when there is none
  int param_index(const std::string& param) const { return param_index(param.c_str()); }
  const Param& param(const char* param) const;
  const Param& param(const std::string& param) const { return this->param(param.c_str()); }
};

// Every registered definition, in name order.
const std::vector<const OpDef*>& definitions();
// The definition of aclnn<name> or <name>; null when there is none.
const OpDef* find_definition(const std::string& name);

// Registers a definition at static initialisation: `const OpRegistration kReg(definition);` in the
// operator's own file, with definition a function returning a reference to a static OpDef.
struct OpRegistration {
  explicit OpRegistration(const OpDef& (*definition)());
};

// Phase 1 of the operator: runs the checks in order, then the first implementation that applies
// (OPENACLNN_IMPL=<name> puts an implementation of that name first when it applies), and makes the
// executor. What a GetWorkspaceSize entry point returns.
aclnnStatus plan_op(const OpDef& def, std::vector<Arg> args, uint64_t* workspace_size,
                    aclOpExecutor** executor);

// Phase 2: what the run entry point returns.
aclnnStatus launch_op(const OpDef& def, void* workspace, uint64_t workspace_size,
                      aclOpExecutor* executor, aclrtStream stream);

// The index of the check that failed in the calling thread's last plan_op (-1 when every check
// passed, or a failure came from elsewhere); the conformance test asserts that a violation fails
// the check it was made for.
int last_failed_check();

// The name of the implementation the calling thread's last successful plan_op chose.
const std::string& last_chosen_impl();

}  // namespace oa
