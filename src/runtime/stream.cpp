// Streams of the CPU device. Work is executed when it is launched, so a stream is in order by
// construction and synchronizing it only validates the handle.
#include <map>
#include <memory>

#include "acl/acl_rt.h"
#include "runtime/error.h"
#include "runtime/runtime.h"

namespace oa {
namespace {

struct Stream {};

// Guarded by runtime_mutex().
std::map<void*, std::unique_ptr<Stream>>& streams() {
  static std::map<void*, std::unique_ptr<Stream>> live;
  return live;
}

}  // namespace

bool stream_is_valid_locked(void* stream) {
  return stream == nullptr || streams().count(stream) != 0;
}

void release_streams_locked() { streams().clear(); }

int check_stream(const char* api, void* stream) {
  std::lock_guard<std::mutex> lock(runtime_mutex());
  if (!stream_is_valid_locked(stream)) {
    return failf(ACL_ERROR_RT_PARAM_INVALID,
                 "%s: stream %p is not a live stream (destroyed, or not from aclrtCreateStream)",
                 api, stream);
  }
  return ACL_SUCCESS;
}

}  // namespace oa

extern "C" {

ACL_FUNC_VISIBILITY aclError aclrtCreateStream(aclrtStream* stream) {
  if (stream == nullptr) {
    return oa::failf(ACL_ERROR_RT_PARAM_INVALID, "aclrtCreateStream: stream is null");
  }
  std::lock_guard<std::mutex> lock(oa::runtime_mutex());
  if (int code = oa::require_device_locked("aclrtCreateStream"); code != ACL_SUCCESS) {
    return code;
  }
  auto created = std::make_unique<oa::Stream>();
  *stream = created.get();
  oa::streams().emplace(created.get(), std::move(created));
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtDestroyStream(aclrtStream stream) {
  std::lock_guard<std::mutex> lock(oa::runtime_mutex());
  if (stream == nullptr || oa::streams().erase(stream) == 0) {
    return oa::failf(ACL_ERROR_RT_PARAM_INVALID,
                     "aclrtDestroyStream: %p is not a live stream from aclrtCreateStream", stream);
  }
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtSynchronizeStream(aclrtStream stream) {
  return oa::check_stream("aclrtSynchronizeStream", stream);
}

}  // extern "C"
