#include "huge_pages.h"

#include <sys/mman.h>

#include <cstdlib>

namespace oa::bench {

void* huge_alloc(size_t bytes) {
  constexpr size_t kHugePage = size_t{2} << 20;
  const size_t alignment = bytes >= kHugePage ? kHugePage : 64;
  const size_t rounded = (bytes + alignment - 1) / alignment * alignment;
  void* data = std::aligned_alloc(alignment, rounded);
  if (data != nullptr && alignment == kHugePage) {
    // Best effort, as openaclnn's: ordinary pages where the kernel has no huge ones.
    madvise(data, rounded, MADV_HUGEPAGE);
  }
  return data;
}

}  // namespace oa::bench
