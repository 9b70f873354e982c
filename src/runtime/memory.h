// The registry of live allocations handed out by aclrtMalloc (device) and aclrtMallocHost (host).
// Every pointer the runtime or an operator is given is checked against it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace oa {

enum class MemoryKind { none, device, host };

struct Region {
  MemoryKind kind = MemoryKind::none;
  uintptr_t base = 0;
  size_t size = 0;
  // Bytes mapped for it with mmap (huge pages), released with munmap; 0 for the C heap.
  size_t mapped = 0;
  // Unique for the process's lifetime: an allocation freed and another made at the same address
  // have different ids.
  uint64_t id = 0;
};

// The live allocation containing address p (kind none if there is none).
Region find_region(const void* p);

// Whether the allocation `id` (made at `base`) is still live.
bool region_is_live(uintptr_t base, uint64_t id);

// Whether [begin, begin + bytes) lies inside one live device allocation. On failure, *why says
// what is wrong ("is not device memory", "runs past the end of its allocation ..."). An empty
// range is inside when begin is inside a live device allocation (callers skip empty views).
bool device_range_ok(const void* begin, size_t bytes, std::string* why);

// device_range_ok with the allocation containing begin already found: region is
// find_region(begin).
bool range_in_region(const Region& region, const void* begin, size_t bytes, std::string* why);

}  // namespace oa
