// What the CPU device says about itself: its SoC name and its memory (the host's).
#include <unistd.h>

#include <cstdio>
#include <cstring>

#include "acl/acl_rt.h"
#include "runtime/error.h"
#include "runtime/runtime.h"

namespace oa {
namespace {

constexpr int kLastMemAttr = ACL_MEM_P2P_HUGE1G;

struct HostMemory {
  size_t total = 0;
  size_t available = 0;
};

// MemTotal and MemAvailable from /proc/meminfo (what the kernel thinks can be allocated without
// swapping); the page counts of sysconf where that file cannot be read.
HostMemory host_memory() {
  HostMemory memory;
  if (std::FILE* file = std::fopen("/proc/meminfo", "r")) {
    char line[256];
    while (std::fgets(line, sizeof line, file) != nullptr) {
      unsigned long long kib = 0;
      if (std::sscanf(line, "MemTotal: %llu kB", &kib) == 1) {
        memory.total = static_cast<size_t>(kib) * 1024;
      } else if (std::sscanf(line, "MemAvailable: %llu kB", &kib) == 1) {
        memory.available = static_cast<size_t>(kib) * 1024;
      }
    }
    std::fclose(file);
  }
  const auto page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  if (memory.total == 0) {
    memory.total = static_cast<size_t>(sysconf(_SC_PHYS_PAGES)) * page;
  }
  if (memory.available == 0) {
    memory.available = static_cast<size_t>(sysconf(_SC_AVPHYS_PAGES)) * page;
  }
  return memory;
}

}  // namespace
}  // namespace oa

extern "C" {

ACL_FUNC_VISIBILITY const char* aclrtGetSocName(void) { return "openaclnn-cpu"; }

ACL_FUNC_VISIBILITY aclError aclrtGetMemInfo(aclrtMemAttr attr, size_t* free, size_t* total) {
  if (attr < ACL_DDR_MEM || attr > oa::kLastMemAttr) {
    return oa::failf(ACL_ERROR_RT_PARAM_INVALID,
                     "aclrtGetMemInfo: attr must be 0..%d (aclrtMemAttr), got %d", oa::kLastMemAttr,
                     static_cast<int>(attr));
  }
  if (free == nullptr || total == nullptr) {
    return oa::failf(ACL_ERROR_RT_PARAM_INVALID, "aclrtGetMemInfo: %s is null",
                     free == nullptr ? "free" : "total");
  }
  {
    std::lock_guard<std::mutex> lock(oa::runtime_mutex());
    if (int code = oa::require_device_locked("aclrtGetMemInfo"); code != ACL_SUCCESS) {
      return code;
    }
  }
  const oa::HostMemory memory = oa::host_memory();
  *free = memory.available;
  *total = memory.total;
  return ACL_SUCCESS;
}

}  // extern "C"
