// Helpers for openaclnn setups and steps: failures become exceptions, device memory is owned.
#pragma once

#include <cstddef>
#include <memory>
#include <stdexcept>
#include <string>

#include "acl/acl.h"

namespace oa::bench {

// Throws std::runtime_error naming `what`, the code and the library's recent error message when
// `code` is not success (0, both as aclError and as aclnnStatus).
inline void check(int code, const char* what) {
  if (code != 0) {
    const char* message = aclGetRecentErrMsg();
    throw std::runtime_error(std::string(what) + " failed with " + std::to_string(code) + ": " +
                             (message != nullptr ? message : ""));
  }
}

// Device memory from aclrtMalloc, released with aclrtFree. Shared, because a step is a
// std::function, which must be copyable, and owns what it uses.
using DeviceBuffer = std::shared_ptr<void>;

inline DeviceBuffer device_alloc(size_t bytes) {
  void* data = nullptr;
  check(aclrtMalloc(&data, bytes, ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc");
  return DeviceBuffer(data, [](void* p) { aclrtFree(p); });
}

}  // namespace oa::bench
