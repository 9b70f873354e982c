// The machine's ceilings, measured in the same run as the cases: memory copy bandwidth with the
// project's thread count (a fact about the machine; each memory-bound case is compared with its
// own traffic-matched loop, traffic.h), and the single-precision GEMM rate of the BLAS in use.
#include <cblas.h>
#include <omp.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>

#include "harness.h"
#include "huge_pages.h"
#include "runner.h"

namespace oa::bench {
namespace {

constexpr int kGemmSize = 2048;  // large enough for the BLAS to reach its peak

// Bytes of each copy buffer: the ceiling is the bandwidth of memory, not of a cache, so source and
// destination together are at least 4 times the last-level cache (some machines report hundreds
// of MiB), at least 256 MiB each, at most 2 GiB each; a whole number of MiB.
size_t copy_bytes() {
  const size_t mib = size_t{1} << 20;
  const long llc = sysconf(_SC_LEVEL3_CACHE_SIZE);
  const size_t cache = llc > 0 ? static_cast<size_t>(llc) : 0;
  return std::clamp(2 * cache, 256 * mib, 2048 * mib) / mib * mib;
}

const size_t kCopyBytes = copy_bytes();

// Left uninitialised, so that the threads that use it touch its pages first; on huge pages, as
// openaclnn's device memory (huge_pages.h).
template <typename T>
std::shared_ptr<T> host_alloc(size_t count) {
  void* data = huge_alloc(count * sizeof(T));
  if (data == nullptr) {
    throw std::runtime_error("out of host memory");
  }
  return std::shared_ptr<T>(static_cast<T*>(data), [](T* p) { std::free(p); });
}

// Runs f(begin, end) on `threads` threads, each on its own contiguous, cache-line-aligned byte
// range of [0, bytes). Filling and copying with the same split keeps every page local to the
// thread that copies it under a first-touch NUMA policy.
template <typename F>
void for_each_slice(int threads, size_t bytes, const F& f) {
#pragma omp parallel num_threads(threads)
  {
    const size_t parts = omp_get_num_threads();
    const size_t part = omp_get_thread_num();
    const size_t begin = bytes * part / parts / 64 * 64;
    const size_t end = part + 1 == parts ? bytes : bytes * (part + 1) / parts / 64 * 64;
    f(begin, end);
  }
}

Step copy_setup() {
  const int threads = thread_count();
  const std::shared_ptr<char> src = host_alloc<char>(kCopyBytes);
  const std::shared_ptr<char> dst = host_alloc<char>(kCopyBytes);
  for_each_slice(threads, kCopyBytes, [&](size_t begin, size_t end) {
    std::memset(src.get() + begin, 1, end - begin);
    std::memset(dst.get() + begin, 0, end - begin);
  });
  return [threads, src, dst] {
    for_each_slice(threads, kCopyBytes, [&](size_t begin, size_t end) {
      std::memcpy(dst.get() + begin, src.get() + begin, end - begin);
    });
  };
}

// Runs with the BLAS thread count main() sets: the project's.
Step gemm_setup() {
  const size_t count = size_t{kGemmSize} * kGemmSize;
  const std::shared_ptr<float> a = host_alloc<float>(count);
  const std::shared_ptr<float> b = host_alloc<float>(count);
  const std::shared_ptr<float> c = host_alloc<float>(count);
  for (size_t i = 0; i < count; ++i) {
    a.get()[i] = static_cast<float>(i % 13) / 13 - 0.5f;
    b.get()[i] = static_cast<float>(i % 7) / 7 - 0.5f;
    c.get()[i] = 0;
  }
  return [a, b, c] {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, kGemmSize, kGemmSize, kGemmSize, 1.0f,
                a.get(), kGemmSize, b.get(), kGemmSize, 0.0f, c.get(), kGemmSize);
  };
}

// Bytes: each byte is read once and written once. FLOPs: a multiply and an add per term.
constexpr double kGemmWork = 2.0 * kGemmSize * kGemmSize * kGemmSize;

const bool registered_copy =
    add_case(memory_bound(kCeilingGroup, "copy/" + std::to_string(kCopyBytes >> 20) + "MiB",
                          {{kCopyBytes}, {kCopyBytes}}, copy_setup, nullptr));
const bool registered_gemm = add_case(compute_bound(
    kCeilingGroup, "sgemm/" + std::to_string(kGemmSize), kGemmWork, gemm_setup, nullptr));

}  // namespace
}  // namespace oa::bench
