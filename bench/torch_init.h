// PyTorch's side of the harness, compiled only when PyTorch is found.
#pragma once

namespace oa::bench {

// Makes PyTorch's intra-op pool use `threads` threads, as openaclnn does, puts its CPU tensors on
// huge pages as openaclnn's device memory (huge_pages.h), and records PyTorch's version and
// parallel settings in the benchmark context.
void init_torch(int threads);

const char* torch_version();

}  // namespace oa::bench
