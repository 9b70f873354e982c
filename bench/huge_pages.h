// Host memory on transparent huge pages, for everything the harness allocates itself: the
// ceilings' buffers and, when PyTorch is built in, every PyTorch CPU tensor. openaclnn's
// aclrtMalloc puts huge pages first for allocations of 2 MiB or more (src/runtime/memory.cpp), and
// streaming stores run faster on them; so that a ratio compares kernels, not page sizes, the
// ceilings and PyTorch get the same kind of memory.
#pragma once

#include <cstddef>

namespace oa::bench {

// At least `bytes` (> 0) of memory aligned to 64 bytes; from 2 MiB up, aligned to 2 MiB and advised
// as huge pages. Released with std::free; null when out of memory.
void* huge_alloc(size_t bytes);

}  // namespace oa::bench
