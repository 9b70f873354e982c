// What the fuzz targets that call the library share: one start-up per process, with the log
// silenced (every refused call would print its message) and one thread (no parallel regions to
// start: more executions a second).
#pragma once

#include <cstdlib>

#include "acl/acl.h"

namespace oa_fuzz {

// Whether the library is initialized and device 0 set; the first call does it.
inline bool device_ready() {
  static const bool ready = [] {
    setenv("ASCEND_GLOBAL_LOG_LEVEL", "4", 1);
    setenv("OPENACLNN_NUM_THREADS", "1", 1);
    return aclInit(nullptr) == ACL_SUCCESS && aclrtSetDevice(0) == ACL_SUCCESS;
  }();
  return ready;
}

}  // namespace oa_fuzz
