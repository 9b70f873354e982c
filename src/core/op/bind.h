// The arguments of a call assembled from its CallSpec: the consumers that build tensors themselves
// (the CLI, the Python package, the tests) give the tensor of each tensor parameter, and the
// attribute values and the array handles (owned for the call) come from the spec.
#pragma once

#include <memory>
#include <vector>

#include "core/op/definition.h"

namespace oa {

class CallArgs {
 public:
  // tensors[i] is parameter i's tensor (null for a null one, ignored for attributes).
  CallArgs(const OpDef& def, const CallSpec& spec, const std::vector<const aclTensor*>& tensors);
  CallArgs(const CallArgs&) = delete;
  CallArgs& operator=(const CallArgs&) = delete;

  const std::vector<Arg>& args() const { return args_; }

 private:
  std::vector<std::unique_ptr<aclIntArray, aclnnStatus (*)(const aclIntArray*)>> ints_;
  std::vector<std::unique_ptr<aclBoolArray, aclnnStatus (*)(const aclBoolArray*)>> bools_;
  std::vector<Arg> args_;
};

}  // namespace oa
