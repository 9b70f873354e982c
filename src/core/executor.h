// The two-phase machinery every operator uses. Phase 1 validates, plans and wraps the plan in an
// aclOpExecutor together with its workspace size; phase 2 checks the executor, workspace and
// stream, checks that the memory the plan binds is still allocated, runs the plan, and consumes
// the executor unless it was made repeatable.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "aclnn/aclnn_base.h"
#include "core/tensor.h"

namespace oa {

// What phase 1 decided. run() gets the caller's workspace (at least the size phase 1 asked for,
// null when that was 0); it must not allocate, and must not depend on the workspace's contents.
class Plan {
 public:
  virtual ~Plan() = default;
  virtual aclnnStatus run(void* workspace) const = 0;
};

// A device allocation the plan reads or writes, named by the parameter whose tensor lies in it.
// Phase 2 runs nothing when one of them has been freed since phase 1 (SPEC section 13).
struct Binding {
  const char* name = "";  // the definition's parameter name (static storage)
  uintptr_t base = 0;
  uint64_t id = 0;
  size_t size = 0;
};

// The binding of a tensor's view in *binding; false for an empty view, which touches no memory.
// The view must be inside device memory (checked before); `name` must outlive the executor.
bool binding_of(const aclTensor& tensor, const char* name, Binding* binding);

// Phase 1's last step: stores *workspace_size and *executor for op (the name without
// "GetWorkspaceSize", e.g. "aclnnSmoothL1LossBackward").
aclnnStatus make_executor(const char* op, std::unique_ptr<Plan> plan, uint64_t workspace_size,
                          uint64_t* workspace_size_out, aclOpExecutor** executor,
                          std::vector<Binding> bindings = {});

// Phase 2 of op: checks, runs, and frees a normal executor (also when the run fails).
aclnnStatus launch(const char* op, void* workspace, uint64_t workspace_size,
                   aclOpExecutor* executor, void* stream);

// The GetWorkspaceSize of an operator this build does not provide yet.
aclnnStatus not_implemented(const char* op);

}  // namespace oa

#define OA_TRY(expr)                                    \
  do {                                                  \
    aclnnStatus oa_status_ = (expr);                    \
    if (oa_status_ != ACLNN_SUCCESS) return oa_status_; \
  } while (0)
