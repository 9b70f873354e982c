#include "core/executor.h"

#include <mutex>
#include <new>
#include <unordered_set>

#include "base/dtype.h"
#include "runtime/error.h"
#include "runtime/memory.h"
#include "runtime/runtime.h"

struct aclOpExecutor {
  const char* op = nullptr;
  std::unique_ptr<oa::Plan> plan;
  uint64_t workspace_size = 0;
  bool repeatable = false;
  std::vector<oa::Binding> bindings;
};

namespace oa {
namespace {

// Live executors, so that a consumed or foreign pointer is reported instead of dereferenced.
std::mutex& executors_mutex() {
  static std::mutex mutex;
  return mutex;
}
std::unordered_set<aclOpExecutor*>& executors() {
  static std::unordered_set<aclOpExecutor*> live;
  return live;
}

bool is_live(aclOpExecutor* executor) {
  std::lock_guard<std::mutex> lock(executors_mutex());
  return executors().count(executor) != 0;
}

void destroy(aclOpExecutor* executor) {
  {
    std::lock_guard<std::mutex> lock(executors_mutex());
    executors().erase(executor);
  }
  delete executor;
}

aclnnStatus check_workspace(const char* op, void* workspace, uint64_t given, uint64_t needed) {
  if (given < needed) {
    return failf(ACLNN_ERR_PARAM_INVALID,
                 "%s: workspaceSize is %llu bytes but GetWorkspaceSize asked for %llu", op,
                 static_cast<unsigned long long>(given), static_cast<unsigned long long>(needed));
  }
  if (needed == 0) {
    return ACLNN_SUCCESS;
  }
  if (workspace == nullptr) {
    return failf(ACLNN_ERR_PARAM_INVALID, "%s: workspace is null but %llu bytes are needed", op,
                 static_cast<unsigned long long>(needed));
  }
  std::string why;
  if (!device_range_ok(workspace, needed, &why)) {
    return failf(ACLNN_ERR_PARAM_INVALID, "%s: workspace (%p, %llu bytes needed) %s", op, workspace,
                 static_cast<unsigned long long>(needed), why.c_str());
  }
  return ACLNN_SUCCESS;
}

// Every allocation the plan binds is still the one phase 1 saw.
aclnnStatus check_bindings(const char* op, const aclOpExecutor& executor) {
  for (const Binding& b : executor.bindings) {
    if (!region_is_live(b.base, b.id)) {
      return failf(ACLNN_ERR_PARAM_INVALID,
                   "%s: the device memory of %s (the allocation at %p of %zu bytes) was freed "
                   "after %sGetWorkspaceSize; nothing was run",
                   op, b.name, reinterpret_cast<void*>(b.base), b.size, op);
    }
  }
  return ACLNN_SUCCESS;
}

}  // namespace

bool binding_of(const aclTensor& tensor, const char* name, Binding* binding) {
  ByteRange range;
  if (numel(tensor) == 0 || !byte_range(tensor, &range)) {
    return false;
  }
  const Region region = find_region(static_cast<const char*>(tensor.data) + range.begin);
  if (region.kind != MemoryKind::device) {
    return false;
  }
  *binding = {name, region.base, region.id, region.size};
  return true;
}

aclnnStatus make_executor(const char* op, std::unique_ptr<Plan> plan, uint64_t workspace_size,
                          uint64_t* workspace_size_out, aclOpExecutor** executor,
                          std::vector<Binding> bindings) {
  auto created = std::make_unique<aclOpExecutor>();
  created->bindings = std::move(bindings);
  created->op = op;
  created->plan = std::move(plan);
  created->workspace_size = workspace_size;
  {
    std::lock_guard<std::mutex> lock(executors_mutex());
    executors().insert(created.get());
  }
  *workspace_size_out = workspace_size;
  *executor = created.release();
  logf(LogLevel::debug, "%s: planned, workspace %llu bytes", op,
       static_cast<unsigned long long>(workspace_size));
  return ACLNN_SUCCESS;
}

aclnnStatus launch(const char* op, void* workspace, uint64_t workspace_size,
                   aclOpExecutor* executor, void* stream) {
  if (executor == nullptr) {
    return failf(ACLNN_ERR_PARAM_NULLPTR, "%s: executor is null", op);
  }
  if (!is_live(executor)) {
    return failf(ACLNN_ERR_PARAM_INVALID,
                 "%s: executor %p is not live (already consumed by an earlier launch, or "
                 "destroyed); call %sGetWorkspaceSize again or make it repeatable",
                 op, static_cast<void*>(executor), op);
  }
  // Past this point a normal executor is consumed whatever happens (SPEC section 6), also when it
  // was launched as the wrong operator.
  aclnnStatus status = ACLNN_SUCCESS;
  if (std::string(executor->op) != op) {
    status = failf(ACLNN_ERR_PARAM_INVALID, "%s: executor was made by %sGetWorkspaceSize", op,
                   executor->op);
  }
  if (status == ACLNN_SUCCESS) {
    status = check_workspace(op, workspace, workspace_size, executor->workspace_size);
  }
  if (status == ACLNN_SUCCESS && check_stream(op, stream) != 0) {
    status = ACLNN_ERR_PARAM_INVALID;
  }
  if (status == ACLNN_SUCCESS) {
    status = check_bindings(op, *executor);
  }
  if (status == ACLNN_SUCCESS) {
    status = executor->plan->run(executor->workspace_size == 0 ? nullptr : workspace);
  }
  if (!executor->repeatable) {
    destroy(executor);
  }
  return status;
}

aclnnStatus not_implemented(const char* op) {
  return failf(ACLNN_ERR_INNER_FIND_KERNEL_ERROR,
               "%s: not implemented yet in this build of openaclnn", op);
}

}  // namespace oa

extern "C" {

ACL_FUNC_VISIBILITY aclnnStatus aclSetAclOpExecutorRepeatable(aclOpExecutor* executor) {
  if (executor == nullptr) {
    return oa::failf(ACLNN_ERR_PARAM_NULLPTR, "aclSetAclOpExecutorRepeatable: executor is null");
  }
  if (!oa::is_live(executor)) {
    return oa::failf(ACLNN_ERR_PARAM_INVALID,
                     "aclSetAclOpExecutorRepeatable: executor %p is not live",
                     static_cast<void*>(executor));
  }
  executor->repeatable = true;
  return ACLNN_SUCCESS;
}

ACL_FUNC_VISIBILITY aclnnStatus aclDestroyAclOpExecutor(aclOpExecutor* executor) {
  if (executor == nullptr) {
    return oa::failf(ACLNN_ERR_PARAM_NULLPTR, "aclDestroyAclOpExecutor: executor is null");
  }
  if (!oa::is_live(executor)) {
    return oa::failf(ACLNN_ERR_PARAM_INVALID, "aclDestroyAclOpExecutor: executor %p is not live",
                     static_cast<void*>(executor));
  }
  oa::destroy(executor);
  return ACLNN_SUCCESS;
}

}  // extern "C"
