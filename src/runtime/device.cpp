// aclInit/aclFinalize, the single CPU device (id 0), contexts, system parameters and the
// overflow mode.
#include <array>
#include <cstdio>
#include <map>
#include <memory>

#include "acl/acl.h"
#include "aclnn/aclnn_base.h"
#include "runtime/error.h"
#include "runtime/operations.h"
#include "runtime/runtime.h"

namespace oa {
namespace {

constexpr int kOptionCount = 4;  // aclSysParamOpt values 0..3

struct Context {
  std::array<int64_t, kOptionCount> options{};
};

// All guarded by runtime_mutex().
bool g_initialized = false;
int g_device_refs = 0;
Context g_default_context;
std::array<int64_t, kOptionCount> g_process_options{};
int g_sat_mode = ACL_RT_OVERFLOW_MODE_INFNAN;
std::map<Context*, std::unique_ptr<Context>>& contexts() {
  static std::map<Context*, std::unique_ptr<Context>> live;
  return live;
}

// The calling thread's current context: null until aclrtSetDevice or aclrtSetCurrentContext.
thread_local Context* t_current = nullptr;

int check_device_id(const char* api, int32_t device_id) {
  if (device_id != 0) {
    return failf(ACL_ERROR_RT_INVALID_DEVICEID,
                 "%s: deviceId %d does not exist; the CPU device is device 0", api, device_id);
  }
  return ACL_SUCCESS;
}

int check_option(const char* api, aclSysParamOpt opt) {
  // As an int: a C caller may pass any value, beyond the range the C++ enum type has.
  const int value = static_cast<int>(opt);
  if (value < 0 || value >= kOptionCount) {
    return failf(ACL_ERROR_RT_PARAM_INVALID, "%s: opt must be 0..%d (aclSysParamOpt), got %d", api,
                 kOptionCount - 1, value);
  }
  return ACL_SUCCESS;
}

// The current context of the calling thread, or null with the failure recorded. Caller holds the
// lock.
Context* current_context_locked(const char* api) {
  bool live_default = t_current == &g_default_context && g_device_refs > 0;
  if (live_default || contexts().count(t_current) != 0) {
    return t_current;
  }
  failf(ACL_ERROR_RT_CONTEXT_NULL,
        "%s: the calling thread has no current context; call aclrtSetDevice(0) first", api);
  return nullptr;
}

void release_device_locked() {
  release_events_locked();
  release_streams_locked();
  release_memory_locked();
  contexts().clear();
  g_default_context = Context{};
  g_sat_mode = ACL_RT_OVERFLOW_MODE_INFNAN;
  g_device_refs = 0;
}

}  // namespace

std::mutex& runtime_mutex() {
  static std::mutex mutex;
  return mutex;
}

int require_device_locked(const char* api) {
  if (g_device_refs == 0) {
    return failf(ACL_ERROR_RT_CONTEXT_NULL, "%s: no device is set; call aclrtSetDevice(0) first",
                 api);
  }
  return ACL_SUCCESS;
}

int set_device(const char* api, int32_t device_id, bool needs_init) {
  std::lock_guard<std::mutex> lock(runtime_mutex());
  if (needs_init && !g_initialized) {
    return failf(ACL_ERROR_UNINITIALIZE, "%s: call aclInit first", api);
  }
  if (int code = check_device_id(api, device_id); code != ACL_SUCCESS) {
    return code;
  }
  ++g_device_refs;
  t_current = &g_default_context;
  return ACL_SUCCESS;
}

int reset_device(const char* api, int32_t device_id) {
  std::lock_guard<std::mutex> lock(runtime_mutex());
  if (int code = check_device_id(api, device_id); code != ACL_SUCCESS) {
    return code;
  }
  if (g_device_refs == 0) {
    return failf(ACL_ERROR_RT_CONTEXT_NULL, "%s: device 0 is not set", api);
  }
  if (--g_device_refs == 0) {
    release_device_locked();
  }
  return ACL_SUCCESS;
}

int create_context(const char* api, void** context, int32_t device_id) {
  if (context == nullptr) {
    return failf(ACL_ERROR_RT_PARAM_INVALID, "%s: context is null", api);
  }
  if (int code = check_device_id(api, device_id); code != ACL_SUCCESS) {
    return code;
  }
  std::lock_guard<std::mutex> lock(runtime_mutex());
  if (int code = require_device_locked(api); code != ACL_SUCCESS) {
    return code;
  }
  auto created = std::make_unique<Context>();
  t_current = created.get();
  *context = created.get();
  contexts().emplace(created.get(), std::move(created));
  return ACL_SUCCESS;
}

int destroy_context(const char* api, void* context) {
  std::lock_guard<std::mutex> lock(runtime_mutex());
  auto* target = static_cast<Context*>(context);
  if (target == &g_default_context) {
    return failf(ACL_ERROR_RT_PARAM_INVALID,
                 "%s: the default context is released by aclrtResetDevice", api);
  }
  if (contexts().erase(target) == 0) {
    return failf(ACL_ERROR_RT_PARAM_INVALID, "%s: %p is not a live context%s", api, context,
                 handle_kind_locked(context).c_str());
  }
  if (t_current == target) {
    t_current = nullptr;
  }
  return ACL_SUCCESS;
}

int set_current_context(const char* api, void* context) {
  std::lock_guard<std::mutex> lock(runtime_mutex());
  auto* target = static_cast<Context*>(context);
  bool is_default = target == &g_default_context && g_device_refs > 0;
  if (!is_default && contexts().count(target) == 0) {
    return failf(ACL_ERROR_RT_PARAM_INVALID, "%s: %p is not a live context%s", api, context,
                 handle_kind_locked(context).c_str());
  }
  t_current = target;
  return ACL_SUCCESS;
}

bool context_is_live_locked(void* context) {
  auto* target = static_cast<Context*>(context);
  return (target == &g_default_context && g_device_refs > 0) || contexts().count(target) != 0;
}

int set_sat_mode(const char* api, int mode) {
  if (mode != ACL_RT_OVERFLOW_MODE_SATURATION && mode != ACL_RT_OVERFLOW_MODE_INFNAN) {
    return failf(ACL_ERROR_RT_PARAM_INVALID,
                 "%s: mode must be 0 (SATURATION) or 1 (INFNAN), got %d", api, mode);
  }
  std::lock_guard<std::mutex> lock(runtime_mutex());
  if (int code = require_device_locked(api); code != ACL_SUCCESS) {
    return code;
  }
  g_sat_mode = mode;
  return ACL_SUCCESS;
}

int get_sat_mode(const char* api, int* mode) {
  if (mode == nullptr) {
    return failf(ACL_ERROR_RT_PARAM_INVALID, "%s: mode is null", api);
  }
  std::lock_guard<std::mutex> lock(runtime_mutex());
  if (int code = require_device_locked(api); code != ACL_SUCCESS) {
    return code;
  }
  *mode = g_sat_mode;
  return ACL_SUCCESS;
}

}  // namespace oa

using oa::failf;

extern "C" {

ACL_FUNC_VISIBILITY aclError aclInit(const char* configPath) {
  std::lock_guard<std::mutex> lock(oa::runtime_mutex());
  if (oa::g_initialized) {
    return failf(ACL_ERROR_REPEAT_INITIALIZE, "aclInit: already initialized");
  }
  if (configPath != nullptr && configPath[0] != '\0') {
    // fopen succeeds on a directory; reading one byte is what tells a readable file from it.
    std::unique_ptr<FILE, int (*)(FILE*)> file(std::fopen(configPath, "r"), std::fclose);
    if (!file || (std::fgetc(file.get()) == EOF && std::ferror(file.get()) != 0)) {
      return failf(ACL_ERROR_INVALID_FILE, "aclInit: cannot read configPath '%s'", configPath);
    }
  }
  oa::g_initialized = true;
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclFinalize(void) {
  std::lock_guard<std::mutex> lock(oa::runtime_mutex());
  if (!oa::g_initialized) {
    return failf(ACL_ERROR_REPEAT_FINALIZE, "aclFinalize: not initialized (or already finalized)");
  }
  oa::release_device_locked();
  oa::g_initialized = false;
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclnnStatus aclnnInit(const char*) { return ACLNN_SUCCESS; }

ACL_FUNC_VISIBILITY aclnnStatus aclnnFinalize(void) { return ACLNN_SUCCESS; }

ACL_FUNC_VISIBILITY aclError aclrtSetDevice(int32_t deviceId) {
  return oa::set_device("aclrtSetDevice", deviceId, true);
}

ACL_FUNC_VISIBILITY aclError aclrtResetDevice(int32_t deviceId) {
  return oa::reset_device("aclrtResetDevice", deviceId);
}

ACL_FUNC_VISIBILITY aclError aclrtGetDevice(int32_t* deviceId) {
  if (deviceId == nullptr) {
    return failf(ACL_ERROR_RT_PARAM_INVALID, "aclrtGetDevice: deviceId is null");
  }
  std::lock_guard<std::mutex> lock(oa::runtime_mutex());
  if (int code = oa::require_device_locked("aclrtGetDevice"); code != ACL_SUCCESS) {
    return code;
  }
  *deviceId = 0;
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtGetDeviceCount(uint32_t* count) {
  if (count == nullptr) {
    return failf(ACL_ERROR_RT_PARAM_INVALID, "aclrtGetDeviceCount: count is null");
  }
  *count = 1;
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtSynchronizeDevice(void) {
  std::lock_guard<std::mutex> lock(oa::runtime_mutex());
  return oa::require_device_locked("aclrtSynchronizeDevice");
}

ACL_FUNC_VISIBILITY aclError aclrtCreateContext(aclrtContext* context, int32_t deviceId) {
  return oa::create_context("aclrtCreateContext", context, deviceId);
}

ACL_FUNC_VISIBILITY aclError aclrtDestroyContext(aclrtContext context) {
  return oa::destroy_context("aclrtDestroyContext", context);
}

ACL_FUNC_VISIBILITY aclError aclrtSetCurrentContext(aclrtContext context) {
  return oa::set_current_context("aclrtSetCurrentContext", context);
}

ACL_FUNC_VISIBILITY aclError aclrtGetCurrentContext(aclrtContext* context) {
  if (context == nullptr) {
    return failf(ACL_ERROR_RT_PARAM_INVALID, "aclrtGetCurrentContext: context is null");
  }
  std::lock_guard<std::mutex> lock(oa::runtime_mutex());
  oa::Context* current = oa::current_context_locked("aclrtGetCurrentContext");
  if (current == nullptr) {
    return ACL_ERROR_RT_CONTEXT_NULL;
  }
  *context = current;
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtCtxSetSysParamOpt(aclSysParamOpt opt, int64_t value) {
  if (int code = oa::check_option("aclrtCtxSetSysParamOpt", opt); code != ACL_SUCCESS) {
    return code;
  }
  std::lock_guard<std::mutex> lock(oa::runtime_mutex());
  oa::Context* current = oa::current_context_locked("aclrtCtxSetSysParamOpt");
  if (current == nullptr) {
    return ACL_ERROR_RT_CONTEXT_NULL;
  }
  current->options[opt] = value;
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtCtxGetSysParamOpt(aclSysParamOpt opt, int64_t* value) {
  if (int code = oa::check_option("aclrtCtxGetSysParamOpt", opt); code != ACL_SUCCESS) {
    return code;
  }
  if (value == nullptr) {
    return failf(ACL_ERROR_RT_PARAM_INVALID, "aclrtCtxGetSysParamOpt: value is null");
  }
  std::lock_guard<std::mutex> lock(oa::runtime_mutex());
  oa::Context* current = oa::current_context_locked("aclrtCtxGetSysParamOpt");
  if (current == nullptr) {
    return ACL_ERROR_RT_CONTEXT_NULL;
  }
  *value = current->options[opt];
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtSetSysParamOpt(aclSysParamOpt opt, int64_t value) {
  if (int code = oa::check_option("aclrtSetSysParamOpt", opt); code != ACL_SUCCESS) {
    return code;
  }
  std::lock_guard<std::mutex> lock(oa::runtime_mutex());
  oa::g_process_options[opt] = value;
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtGetSysParamOpt(aclSysParamOpt opt, int64_t* value) {
  if (int code = oa::check_option("aclrtGetSysParamOpt", opt); code != ACL_SUCCESS) {
    return code;
  }
  if (value == nullptr) {
    return failf(ACL_ERROR_RT_PARAM_INVALID, "aclrtGetSysParamOpt: value is null");
  }
  std::lock_guard<std::mutex> lock(oa::runtime_mutex());
  *value = oa::g_process_options[opt];
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtSetDeviceSatMode(aclrtFloatOverflowMode mode) {
  return oa::set_sat_mode("aclrtSetDeviceSatMode", static_cast<int>(mode));
}

ACL_FUNC_VISIBILITY aclError aclrtGetDeviceSatMode(aclrtFloatOverflowMode* mode) {
  int value = 0;
  int code = oa::get_sat_mode("aclrtGetDeviceSatMode", mode == nullptr ? nullptr : &value);
  if (code == ACL_SUCCESS) {
    *mode = static_cast<aclrtFloatOverflowMode>(value);
  }
  return code;
}

}  // extern "C"
