// Streams of the CPU device. Work is executed when it is launched, so a stream is in order by
// construction and synchronizing it only validates the handle (and the timeout).
#include <map>
#include <memory>

#include "acl/acl_rt.h"
#include "runtime/error.h"
#include "runtime/operations.h"
#include "runtime/runtime.h"

namespace oa {
namespace {

constexpr uint32_t kLowestPriority = 7;
constexpr uint32_t kKnownStreamFlags = ACL_STREAM_FAST_LAUNCH | ACL_STREAM_FAST_SYNC |
                                       ACL_STREAM_PERSISTENT | ACL_STREAM_HUGE |
                                       ACL_STREAM_CPU_SCHEDULE | ACL_STREAM_DEVICE_USE_ONLY;

// What the stream was created with; nothing on the CPU device depends on it.
struct Stream {
  uint32_t priority = 0;
  uint32_t flags = 0;
};

// Guarded by runtime_mutex().
std::map<void*, std::unique_ptr<Stream>>& streams() {
  static std::map<void*, std::unique_ptr<Stream>> live;
  return live;
}

}  // namespace

bool stream_is_valid_locked(void* stream) {
  return stream == nullptr || streams().count(stream) != 0;
}

bool stream_is_live_locked(void* handle) { return handle != nullptr && streams().count(handle); }

void release_streams_locked() { streams().clear(); }

int check_stream(const char* api, void* stream) {
  std::lock_guard<std::mutex> lock(runtime_mutex());
  return check_stream_locked(api, stream);
}

int check_stream_locked(const char* api, void* stream) {
  if (!stream_is_valid_locked(stream)) {
    return failf(ACL_ERROR_RT_PARAM_INVALID,
                 "%s: stream %p is not a live stream (destroyed, or not from aclrtCreateStream)%s",
                 api, stream, handle_kind_locked(stream).c_str());
  }
  return ACL_SUCCESS;
}

int create_stream(const char* api, void** stream, uint32_t priority, uint32_t flags) {
  if (stream == nullptr) {
    return failf(ACL_ERROR_RT_PARAM_INVALID, "%s: stream is null", api);
  }
  if (priority > kLowestPriority) {
    return failf(ACL_ERROR_RT_PARAM_INVALID, "%s: priority must be 0..%u, got %u", api,
                 kLowestPriority, priority);
  }
  if ((flags & ~kKnownStreamFlags) != 0) {
    return failf(ACL_ERROR_RT_PARAM_INVALID,
                 "%s: flag 0x%x has bits that are no ACL_STREAM_* flag (known: 0x%x)", api, flags,
                 kKnownStreamFlags);
  }
  std::lock_guard<std::mutex> lock(runtime_mutex());
  if (int code = require_device_locked(api); code != ACL_SUCCESS) {
    return code;
  }
  auto created = std::make_unique<Stream>(Stream{priority, flags});
  *stream = created.get();
  streams().emplace(created.get(), std::move(created));
  return ACL_SUCCESS;
}

int destroy_stream(const char* api, void* stream) {
  std::lock_guard<std::mutex> lock(runtime_mutex());
  if (stream == nullptr || streams().erase(stream) == 0) {
    return failf(ACL_ERROR_RT_PARAM_INVALID, "%s: %p is not a live stream from aclrtCreateStream%s",
                 api, stream, handle_kind_locked(stream).c_str());
  }
  return ACL_SUCCESS;
}

int check_timeout(const char* api, int32_t timeout_ms) {
  if (timeout_ms < -1) {
    return failf(ACL_ERROR_RT_PARAM_INVALID,
                 "%s: timeout must be -1 (no limit) or >= 0 milliseconds, got %d", api, timeout_ms);
  }
  return ACL_SUCCESS;
}

int synchronize_stream(const char* api, void* stream, int32_t timeout_ms) {
  if (int code = check_timeout(api, timeout_ms); code != ACL_SUCCESS) {
    return code;
  }
  return check_stream(api, stream);
}

}  // namespace oa

extern "C" {

ACL_FUNC_VISIBILITY aclError aclrtCreateStream(aclrtStream* stream) {
  return oa::create_stream("aclrtCreateStream", stream, 0, 0);
}

ACL_FUNC_VISIBILITY aclError aclrtCreateStreamWithConfig(aclrtStream* stream, uint32_t priority,
                                                         uint32_t flag) {
  return oa::create_stream("aclrtCreateStreamWithConfig", stream, priority, flag);
}

ACL_FUNC_VISIBILITY aclError aclrtDestroyStream(aclrtStream stream) {
  return oa::destroy_stream("aclrtDestroyStream", stream);
}

ACL_FUNC_VISIBILITY aclError aclrtSynchronizeStream(aclrtStream stream) {
  return oa::synchronize_stream("aclrtSynchronizeStream", stream, -1);
}

ACL_FUNC_VISIBILITY aclError aclrtSynchronizeStreamWithTimeout(aclrtStream stream,
                                                               int32_t timeout) {
  return oa::synchronize_stream("aclrtSynchronizeStreamWithTimeout", stream, timeout);
}

}  // extern "C"
