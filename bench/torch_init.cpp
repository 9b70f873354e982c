#include "torch_init.h"

#include <ATen/Parallel.h>
#include <benchmark/benchmark.h>
#include <c10/core/CPUAllocator.h>
#include <torch/version.h>

#include <cstdlib>
#include <new>
#include <string>

#include "huge_pages.h"

namespace oa::bench {
namespace {

void release(void* data) { std::free(data); }

// PyTorch's CPU tensors on the same kind of memory as openaclnn's (huge_pages.h).
struct HugePageAllocator final : c10::Allocator {
  c10::DataPtr allocate(size_t bytes) const override {
    if (bytes == 0) {
      return {nullptr, nullptr, &release, c10::Device(c10::DeviceType::CPU)};
    }
    void* data = huge_alloc(bytes);
    if (data == nullptr) {
      throw std::bad_alloc();
    }
    return {data, data, &release, c10::Device(c10::DeviceType::CPU)};
  }
  c10::DeleterFnPtr raw_deleter() const override { return &release; }
};

}  // namespace

void init_torch(int threads) {
  static HugePageAllocator allocator;
  // Above the priority (0) of PyTorch's own CPU allocator.
  c10::SetCPUAllocator(&allocator, 1);
  at::set_num_threads(threads);
  benchmark::AddCustomContext("pytorch", TORCH_VERSION);
  benchmark::AddCustomContext("pytorch_threads", std::to_string(at::get_num_threads()));
}

const char* torch_version() { return TORCH_VERSION; }

}  // namespace oa::bench
