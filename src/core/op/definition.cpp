#include "core/op/definition.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <unordered_set>

#include "core/handles.h"
#include "core/isa.h"
#include "core/lists.h"
#include "core/tensor.h"
#include "core/values.h"
#include "runtime/error.h"

namespace oa {
namespace {

std::vector<const OpDef*>& registry() {
  static std::vector<const OpDef*> defs;
  return defs;
}

thread_local int t_failed_check = -1;
thread_local std::string t_chosen_impl;

// The implementation named `forced` (OPENACLNN_IMPL, may be null), or null if there is none.
const Impl* forced_impl(const OpDef& def, const char* forced) {
  for (const Impl& impl : def.impls) {
    if (forced != nullptr && impl.name == forced) {
      return &impl;
    }
  }
  return nullptr;
}

// Every handle the call received is live (made by its aclCreate* and not destroyed since): a
// destroyed tensor or array is reported, never dereferenced. Runs before the definition's checks,
// which read the handles.
aclnnStatus check_handles(const OpDef& def, const Call& call) {
  for (size_t i = 0; i < def.params.size(); ++i) {
    const void* handle = call.arg(static_cast<int>(i)).handle();
    const ParamKind kind = def.params[i].kind;
    if (handle == nullptr) {
      continue;
    }
    const bool live =
        is_tensor(kind)                 ? is_live_handle(static_cast<const aclTensor*>(handle))
        : kind == ParamKind::int_array  ? is_live_handle(static_cast<const aclIntArray*>(handle))
        : kind == ParamKind::bool_array ? is_live_handle(static_cast<const aclBoolArray*>(handle))
                                        : true;
    if (!live) {
      const char* type = is_tensor(kind)                ? "aclTensor"
                         : kind == ParamKind::int_array ? "aclIntArray"
                                                        : "aclBoolArray";
      return failf(ACLNN_ERR_PARAM_INVALID,
                   "%s: %s (%p) is not a live %s (destroyed, or not made by its aclCreate "
                   "function)",
                   call.op(), def.params[i].name.c_str(), handle, type);
    }
  }
  return ACLNN_SUCCESS;
}

}  // namespace

const char* Call::op() const { return def_.api.c_str(); }

const char* param_key(const std::string& name) {
  static std::mutex mutex;
  static std::unordered_set<std::string> keys;  // nodes: the addresses stay put
  std::lock_guard<std::mutex> lock(mutex);
  return keys.insert(name).first->c_str();
}

int Call::index(const char* name) const {
  const std::vector<Param>& params = def_.params;
  for (size_t i = 0; i < params.size(); ++i) {
    if (params[i].key == name) {
      return static_cast<int>(i);
    }
  }
  const int i = def_.param_index(name);
  if (i < 0) {
    logf(LogLevel::error, "%s: the definition has no parameter %s", op(), name);
    std::abort();
  }
  return i;
}

int OpDef::param_index(const char* param) const {
  // Lengths first: the operators look their parameters up by name many times a call, and a call
  // of strcmp per parameter was a third of a small convolution's planning (case g of the bench).
  const size_t length = std::strlen(param);
  for (size_t i = 0; i < params.size(); ++i) {
    const std::string& name = params[i].name;
    if (name.size() == length && std::memcmp(name.data(), param, length) == 0) {
      return static_cast<int>(i);
    }
  }
  return -1;
}

const Param& OpDef::param(const char* param) const {
  const int i = param_index(param);
  if (i < 0) {
    logf(LogLevel::error, "%s: the definition has no parameter %s", api.c_str(), param);
    std::abort();
  }
  return params[static_cast<size_t>(i)];
}

const std::vector<const OpDef*>& definitions() { return registry(); }

const OpDef* find_definition(const std::string& name) {
  for (const OpDef* def : registry()) {
    if (def->name == name || def->api == name) {
      return def;
    }
  }
  return nullptr;
}

OpRegistration::OpRegistration(const OpDef& (*definition)()) {
  std::vector<const OpDef*>& defs = registry();
  const OpDef* def = &definition();
  defs.insert(std::upper_bound(defs.begin(), defs.end(), def,
                               [](const OpDef* a, const OpDef* b) { return a->name < b->name; }),
              def);
}

aclnnStatus plan_op(const OpDef& def, std::vector<Arg> args, uint64_t* workspace_size,
                    aclOpExecutor** executor) {
  t_failed_check = -1;
  selected_isa();  // OPENACLNN_CPU_ISA applies to the kernels this plan dispatches to
  const Call call(def, std::move(args), workspace_size, executor);
  OA_TRY(check_handles(def, call));
  for (size_t k = 0; k < def.checks.size(); ++k) {
    const aclnnStatus status = def.checks[k].run(call);
    if (status != ACLNN_SUCCESS) {
      t_failed_check = static_cast<int>(k);
      return status;
    }
  }
  if (workspace_size == nullptr || executor == nullptr) {
    return failf(ACLNN_ERR_PARAM_NULLPTR, "%s: %s must not be null", call.op(),
                 workspace_size == nullptr ? "workspaceSize" : "executor");
  }
  std::string skipped;
  // The forced implementation first, then the list in order.
  const Impl* const forced_one = forced_impl(def, std::getenv("OPENACLNN_IMPL"));
  for (size_t k = 0; k <= def.impls.size(); ++k) {
    const Impl* impl = k == 0 ? forced_one : &def.impls[k - 1];
    if (impl == nullptr || (k > 0 && impl == forced_one)) {
      continue;
    }
    std::string why_not;
    const bool forced = impl == forced_one;
    if ((impl->applies && !impl->applies(call, &why_not)) ||
        (!forced && impl->pays && !impl->pays(call, &why_not))) {
      skipped += "; skipped '" + impl->name + "': " + why_not;
      continue;
    }
    Planned planned;
    OA_TRY(impl->plan(call, &planned));
    logf(LogLevel::debug, "%s: implementation '%s'%s", call.op(), impl->name.c_str(),
         skipped.c_str());
    t_chosen_impl = impl->name;
    std::vector<Binding> bindings;
    bindings.reserve(def.params.size());
    for (size_t i = 0; i < def.params.size(); ++i) {
      const aclTensor* tensor =
          static_cast<const aclTensor*>(call.arg(static_cast<int>(i)).handle());
      Binding binding;
      if (is_tensor(def.params[i].kind) && tensor != nullptr &&
          binding_of(*tensor, def.params[i].name.c_str(), &binding)) {
        bindings.push_back(binding);
      }
    }
    return make_executor(call.op(), std::move(planned.plan), planned.workspace_bytes,
                         workspace_size, executor, std::move(bindings));
  }
  return failf(ACLNN_ERR_INNER_FIND_KERNEL_ERROR, "%s: no implementation applies%s", call.op(),
               skipped.c_str());
}

aclnnStatus launch_op(const OpDef& def, void* workspace, uint64_t workspace_size,
                      aclOpExecutor* executor, aclrtStream stream) {
  return launch(def.api.c_str(), workspace, workspace_size, executor, stream);
}

int last_failed_check() { return t_failed_check; }

const std::string& last_chosen_impl() { return t_chosen_impl; }

}  // namespace oa
