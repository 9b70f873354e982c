#include "torch_init.h"

#include <ATen/Parallel.h>
#include <benchmark/benchmark.h>
#include <torch/version.h>

#include <string>

namespace oa::bench {

void init_torch(int threads) {
  at::set_num_threads(threads);
  benchmark::AddCustomContext("pytorch", TORCH_VERSION);
  benchmark::AddCustomContext("pytorch_threads", std::to_string(at::get_num_threads()));
}

const char* torch_version() { return TORCH_VERSION; }

}  // namespace oa::bench
