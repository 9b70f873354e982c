#include "runtime/memory.h"

#include <sys/mman.h>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#endif

#include <cstdlib>
#include <cstring>
#include <iterator>
#include <map>

#include "acl/acl_rt.h"
#include "base/fill_simd.h"
#include "base/parallel.h"
#include "runtime/error.h"
#include "runtime/operations.h"
#include "runtime/runtime.h"

namespace oa {
namespace {

constexpr size_t kAlignment = 64;

// Device memory of at least a huge page, asked for with a policy that puts huge pages first (or
// only), is mapped on its own at a huge-page boundary and advised to the kernel as transparent huge
// pages: fewer TLB misses, and streaming stores ran 1.19x faster on them (2-thread 32 MiB fills on
// a Zen 5 VM with transparent huge pages set to madvise; plain stores the same). Best effort: where
// the kernel has no transparent huge pages or none to give, the memory is ordinary pages.
// NORMAL_ONLY, and smaller allocations, come from the C heap. A mapping of its own, not the heap,
// so that the advice ends with the allocation instead of staying on heap memory reused later.
constexpr size_t kHugePage = size_t{2} << 20;

bool wants_huge_pages(aclrtMemMallocPolicy policy, size_t size) {
  return size >= kHugePage && policy != ACL_MEM_MALLOC_NORMAL_ONLY &&
         policy != ACL_MEM_MALLOC_NORMAL_ONLY_P2P;
}

// Maps `bytes` (a multiple of kHugePage) at a huge-page boundary, advised as huge pages; null when
// nothing can be mapped.
void* map_huge(const char* api, size_t bytes) {
  const size_t span = bytes + kHugePage;
  void* raw = mmap(nullptr, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) {
    return nullptr;
  }
  const auto start = reinterpret_cast<uintptr_t>(raw);
  const uintptr_t begin = (start + kHugePage - 1) / kHugePage * kHugePage;
  if (begin > start) {
    munmap(raw, begin - start);
  }
  if (start + span > begin + bytes) {
    munmap(reinterpret_cast<void*>(begin + bytes), start + span - (begin + bytes));
  }
  auto* memory = reinterpret_cast<void*>(begin);
  if (madvise(memory, bytes, MADV_HUGEPAGE) != 0) {
    logf(LogLevel::debug, "%s: no transparent huge pages for %zu bytes (madvise failed)", api,
         bytes);
  }
  return memory;
}

// Under AddressSanitizer, the bytes of a mapping past its allocation are poisoned while it lives,
// so that an access past the end is reported as it is for heap memory.
void set_tail_poisoned([[maybe_unused]] const Region& region, [[maybe_unused]] bool poisoned) {
#if defined(__SANITIZE_ADDRESS__)
  void* tail = reinterpret_cast<void*>(region.base + region.size);
  if (poisoned) {
    ASAN_POISON_MEMORY_REGION(tail, region.mapped - region.size);
  } else {
    ASAN_UNPOISON_MEMORY_REGION(tail, region.mapped - region.size);
  }
#endif
}

void free_region(const Region& region) {
  if (region.mapped != 0) {
    set_tail_poisoned(region, false);
    munmap(reinterpret_cast<void*>(region.base), region.mapped);
  } else {
    std::free(reinterpret_cast<void*>(region.base));
  }
}

// Live allocations by base address. Guarded by runtime_mutex().
std::map<uintptr_t, Region>& registry() {
  static std::map<uintptr_t, Region> regions;
  return regions;
}

Region find_locked(uintptr_t address) {
  auto& regions = registry();
  auto it = regions.upper_bound(address);
  if (it == regions.begin()) {
    return {};
  }
  --it;
  const Region& region = it->second;
  return address - region.base < region.size ? region : Region{};
}

const char* kind_name(MemoryKind kind) {
  switch (kind) {
    case MemoryKind::device:
      return "device memory";
    case MemoryKind::host:
      return "host memory from aclrtMallocHost";
    default:
      return "memory unknown to the runtime";
  }
}

// The name of the pointer parameter of the allocation and release functions of kind.
const char* pointer_name(MemoryKind kind) {
  return kind == MemoryKind::device ? "devPtr" : "hostPtr";
}

int allocate(const char* api, void** ptr, size_t size, MemoryKind kind, bool huge) {
  if (ptr == nullptr) {
    return failf(ACL_ERROR_RT_PARAM_INVALID, "%s: %s (the output pointer) is null", api,
                 pointer_name(kind));
  }
  *ptr = nullptr;
  if (size == 0) {
    return failf(ACL_ERROR_RT_PARAM_INVALID, "%s: size must be > 0, got 0", api);
  }
  if (size > SIZE_MAX - (huge ? 2 * kHugePage : kAlignment)) {
    return failf(ACL_ERROR_RT_MEMORY_ALLOCATION, "%s: size %zu is too large", api, size);
  }
  std::lock_guard<std::mutex> lock(runtime_mutex());
  if (int code = require_device_locked(api); code != ACL_SUCCESS) {
    return code;
  }
  const size_t mapped = huge ? (size + kHugePage - 1) / kHugePage * kHugePage : 0;
  void* memory =
      huge ? map_huge(api, mapped)
           : std::aligned_alloc(kAlignment, (size + kAlignment - 1) / kAlignment * kAlignment);
  if (memory == nullptr) {
    return failf(ACL_ERROR_RT_MEMORY_ALLOCATION, "%s: out of memory allocating %zu bytes", api,
                 size);
  }
  auto base = reinterpret_cast<uintptr_t>(memory);
  static uint64_t last_id = 0;  // guarded by runtime_mutex()
  const Region region{kind, base, size, mapped, ++last_id};
  if (mapped != 0) {
    set_tail_poisoned(region, true);
  }
  registry()[base] = region;
  *ptr = memory;
  return ACL_SUCCESS;
}

int release(const char* api, void* ptr, MemoryKind kind, const char* pair_api) {
  if (ptr == nullptr) {
    return failf(ACL_ERROR_RT_PARAM_INVALID, "%s: %s is null", api, pointer_name(kind));
  }
  std::lock_guard<std::mutex> lock(runtime_mutex());
  auto address = reinterpret_cast<uintptr_t>(ptr);
  Region region = find_locked(address);
  if (region.kind == MemoryKind::none) {
    return failf(ACL_ERROR_RT_PARAM_INVALID,
                 "%s: %s %p is not a live allocation (already freed, or never allocated by %s)",
                 api, pointer_name(kind), ptr, pair_api);
  }
  if (region.kind != kind) {
    return failf(ACL_ERROR_RT_PARAM_INVALID, "%s: %s %p is %s; release it with %s", api,
                 pointer_name(kind), ptr, kind_name(region.kind),
                 kind == MemoryKind::device ? "aclrtFreeHost" : "aclrtFree");
  }
  if (region.base != address) {
    return failf(ACL_ERROR_RT_PARAM_INVALID,
                 "%s: %s %p points %zu bytes inside an allocation of %zu bytes, not to its start",
                 api, pointer_name(kind), ptr, static_cast<size_t>(address - region.base),
                 region.size);
  }
  registry().erase(region.base);
  free_region(region);
  return ACL_SUCCESS;
}

// Checks one side of a copy or fill: `device` says whether the kind declares it device memory.
int check_side(const char* api, const char* name, const void* ptr, size_t count, bool device) {
  Region region = find_region(ptr);
  if (!device) {
    if (region.kind == MemoryKind::device) {
      return failf(ACL_ERROR_RT_PARAM_INVALID,
                   "%s: %s (%p) is device memory, but the copy kind says it is host memory", api,
                   name, ptr);
    }
    // aclrtMallocHost memory is the runtime's to check, as aclrtMemset checks it; other host
    // memory is the caller's.
    if (region.kind == MemoryKind::host &&
        count > region.size - (reinterpret_cast<uintptr_t>(ptr) - region.base)) {
      return failf(ACL_ERROR_RT_PARAM_INVALID,
                   "%s: %s (%p, %zu bytes) runs past the end of its %zu-byte allocation from "
                   "aclrtMallocHost",
                   api, name, ptr, count, region.size);
    }
    return ACL_SUCCESS;
  }
  std::string why;
  if (!device_range_ok(ptr, count, &why)) {
    return failf(ACL_ERROR_RT_PARAM_INVALID, "%s: %s (%p, %zu bytes) must be device memory: it %s",
                 api, name, ptr, count, why.c_str());
  }
  return ACL_SUCCESS;
}

// Runs body(begin, size) over [0, count) in 1 MiB pieces, on all threads when there are at least
// two: a large copy or fill is the CPU device's memory bandwidth.
template <typename Body>
void for_each_piece(size_t count, const Body& body) {
  constexpr size_t kPiece = size_t{1} << 20;
  auto pieces = static_cast<int64_t>((count + kPiece - 1) / kPiece);
  parallel_for(
      pieces,
      [&](int64_t piece) {
        size_t begin = static_cast<size_t>(piece) * kPiece;
        body(begin, std::min(kPiece, count - begin));
      },
      count >= 2 * kPiece);
}

void parallel_copy(void* dst, const void* src, size_t count) {
  auto* to = static_cast<unsigned char*>(dst);
  const auto* from = static_cast<const unsigned char*>(src);
  if (!(to + count <= from || from + count <= to)) {
    std::memmove(dst, src, count);
    return;
  }
  // Each byte is read and written: a copy touches twice its size (base/fill_simd.h).
  const bool streaming = simd::streams_output(2 * static_cast<int64_t>(count));
  for_each_piece(count, [&](size_t begin, size_t size) {
    simd::copy_bytes(to + begin, from + begin, static_cast<int64_t>(size), streaming);
  });
}

// Fills with the stores that suit the whole range's size (base/fill_simd.h).
void parallel_fill(void* ptr, int32_t value, size_t count) {
  auto* to = static_cast<unsigned char*>(ptr);
  const auto byte = static_cast<uint8_t>(value);
  const bool streaming = simd::streams_output(static_cast<int64_t>(count));
  for_each_piece(count, [&](size_t begin, size_t size) {
    simd::fill_bytes(to + begin, byte, static_cast<int64_t>(size), streaming);
  });
}

int copy(const char* api, void* dst, size_t dest_max, const void* src, size_t count,
         aclrtMemcpyKind kind, void* stream) {
  if (dst == nullptr || src == nullptr) {
    return failf(ACL_ERROR_RT_PARAM_INVALID, "%s: %s is null", api, dst == nullptr ? "dst" : "src");
  }
  if (count > dest_max) {
    return failf(ACL_ERROR_RT_PARAM_INVALID, "%s: count (%zu) must be <= destMax (%zu)", api, count,
                 dest_max);
  }
  if (kind < ACL_MEMCPY_HOST_TO_HOST || kind > ACL_MEMCPY_DEFAULT) {
    return failf(ACL_ERROR_RT_PARAM_INVALID, "%s: kind must be 0..4 (aclrtMemcpyKind), got %d", api,
                 static_cast<int>(kind));
  }
  if (int code = check_stream(api, stream); code != ACL_SUCCESS) {
    return code;
  }
  bool dst_device = kind == ACL_MEMCPY_HOST_TO_DEVICE || kind == ACL_MEMCPY_DEVICE_TO_DEVICE;
  bool src_device = kind == ACL_MEMCPY_DEVICE_TO_HOST || kind == ACL_MEMCPY_DEVICE_TO_DEVICE;
  if (kind == ACL_MEMCPY_DEFAULT) {
    dst_device = find_region(dst).kind == MemoryKind::device;
    src_device = find_region(src).kind == MemoryKind::device;
  }
  if (count == 0) {
    return ACL_SUCCESS;
  }
  if (int code = check_side(api, "dst", dst, count, dst_device); code != ACL_SUCCESS) {
    return code;
  }
  if (int code = check_side(api, "src", src, count, src_device); code != ACL_SUCCESS) {
    return code;
  }
  parallel_copy(dst, src, count);
  return ACL_SUCCESS;
}

int fill(const char* api, void* ptr, size_t max_count, int32_t value, size_t count, void* stream) {
  if (ptr == nullptr) {
    return failf(ACL_ERROR_RT_PARAM_INVALID, "%s: devPtr is null", api);
  }
  if (count > max_count) {
    return failf(ACL_ERROR_RT_PARAM_INVALID, "%s: count (%zu) must be <= maxCount (%zu)", api,
                 count, max_count);
  }
  if (int code = check_stream(api, stream); code != ACL_SUCCESS) {
    return code;
  }
  if (count == 0) {
    return ACL_SUCCESS;
  }
  Region region = find_region(ptr);
  if (region.kind == MemoryKind::host) {
    if (count > region.size - (reinterpret_cast<uintptr_t>(ptr) - region.base)) {
      return failf(ACL_ERROR_RT_PARAM_INVALID,
                   "%s: devPtr (%p, %zu bytes) runs past the end of its %zu-byte allocation", api,
                   ptr, count, region.size);
    }
  } else if (int code = check_side(api, "devPtr", ptr, count, true); code != ACL_SUCCESS) {
    return code;
  }
  parallel_fill(ptr, value, count);
  return ACL_SUCCESS;
}

}  // namespace

Region find_region(const void* p) {
  std::lock_guard<std::mutex> lock(runtime_mutex());
  return find_locked(reinterpret_cast<uintptr_t>(p));
}

bool region_is_live(uintptr_t base, uint64_t id) {
  std::lock_guard<std::mutex> lock(runtime_mutex());
  const auto found = registry().find(base);
  return found != registry().end() && found->second.id == id;
}

bool device_range_ok(const void* begin, size_t bytes, std::string* why) {
  return range_in_region(find_region(begin), begin, bytes, why);
}

bool range_in_region(const Region& region, const void* begin, size_t bytes, std::string* why) {
  if (region.kind != MemoryKind::device) {
    *why = region.kind == MemoryKind::host
               ? "is host memory from aclrtMallocHost, not device memory"
               : "is not device memory (a host pointer, or memory already freed)";
    return false;
  }
  size_t start = reinterpret_cast<uintptr_t>(begin) - region.base;
  if (bytes > region.size - start) {
    *why = format("runs past the end of its device allocation (bytes [%zu, %zu) of %zu)", start,
                  start + bytes, region.size);
    return false;
  }
  return true;
}

int allocate_device_memory(const char* api, void** ptr, size_t size, aclrtMemMallocPolicy policy) {
  return allocate(api, ptr, size, MemoryKind::device, wants_huge_pages(policy, size));
}

int free_device_memory(const char* api, void* ptr, const char* pair_api) {
  return release(api, ptr, MemoryKind::device, pair_api);
}

int copy_memory(const char* api, void* dst, size_t dest_max, const void* src, size_t count,
                aclrtMemcpyKind kind, void* stream) {
  return copy(api, dst, dest_max, src, count, kind, stream);
}

void release_memory_locked() {
  auto& regions = registry();
  size_t device_bytes = 0;
  size_t device_count = 0;
  for (auto& entry : regions) {
    const Region& region = entry.second;
    if (region.kind == MemoryKind::device) {
      device_bytes += region.size;
      ++device_count;
    }
    free_region(region);
  }
  if (device_count != 0) {
    logf(LogLevel::warning, "device reset released %zu live allocation(s), %zu bytes", device_count,
         device_bytes);
  }
  regions.clear();
}

}  // namespace oa

extern "C" {

ACL_FUNC_VISIBILITY aclError aclrtMalloc(void** devPtr, size_t size, aclrtMemMallocPolicy policy) {
  return oa::allocate_device_memory("aclrtMalloc", devPtr, size, policy);
}

ACL_FUNC_VISIBILITY aclError aclrtFree(void* devPtr) {
  return oa::free_device_memory("aclrtFree", devPtr, "aclrtMalloc");
}

ACL_FUNC_VISIBILITY aclError aclrtMallocHost(void** hostPtr, size_t size) {
  return oa::allocate("aclrtMallocHost", hostPtr, size, oa::MemoryKind::host, false);
}

ACL_FUNC_VISIBILITY aclError aclrtFreeHost(void* hostPtr) {
  return oa::release("aclrtFreeHost", hostPtr, oa::MemoryKind::host, "aclrtMallocHost");
}

ACL_FUNC_VISIBILITY aclError aclrtMemcpy(void* dst, size_t destMax, const void* src, size_t count,
                                         aclrtMemcpyKind kind) {
  return oa::copy("aclrtMemcpy", dst, destMax, src, count, kind, nullptr);
}

ACL_FUNC_VISIBILITY aclError aclrtMemcpyAsync(void* dst, size_t destMax, const void* src,
                                              size_t count, aclrtMemcpyKind kind,
                                              aclrtStream stream) {
  return oa::copy("aclrtMemcpyAsync", dst, destMax, src, count, kind, stream);
}

ACL_FUNC_VISIBILITY aclError aclrtMemset(void* devPtr, size_t maxCount, int32_t value,
                                         size_t count) {
  return oa::fill("aclrtMemset", devPtr, maxCount, value, count, nullptr);
}

ACL_FUNC_VISIBILITY aclError aclrtMemsetAsync(void* devPtr, size_t maxCount, int32_t value,
                                              size_t count, aclrtStream stream) {
  return oa::fill("aclrtMemsetAsync", devPtr, maxCount, value, count, stream);
}

}  // extern "C"
