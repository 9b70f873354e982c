// Runtime cases: the device-to-device copy and the fill, the plainest memory-bound operations. The
// fill is measured at a size that stays in a 32 MiB last-level cache and at one that does not:
// aclrtMemset writes them differently (src/base/fill_simd.h).
#ifdef OPENACLNN_BENCH_TORCH
#include <ATen/ATen.h>
#endif

#include <string>

#include "acl_support.h"
#include "harness.h"

namespace oa::bench {
namespace {

constexpr size_t kCopyBytes = size_t{64} << 20;

Step ours_memcpy_d2d() {
  const DeviceBuffer src = device_alloc(kCopyBytes);
  const DeviceBuffer dst = device_alloc(kCopyBytes);
  check(aclrtMemset(src.get(), kCopyBytes, 1, kCopyBytes), "aclrtMemset");
  check(aclrtMemset(dst.get(), kCopyBytes, 0, kCopyBytes), "aclrtMemset");
  return [src, dst] {
    check(aclrtMemcpy(dst.get(), kCopyBytes, src.get(), kCopyBytes, ACL_MEMCPY_DEVICE_TO_DEVICE),
          "aclrtMemcpy");
  };
}

#ifdef OPENACLNN_BENCH_TORCH
Step torch_memcpy_d2d() {
  const int64_t count = kCopyBytes / sizeof(float);
  const at::Tensor src = at::rand({count});
  const at::Tensor dst = at::zeros({count});
  return [src, dst] { dst.copy_(src); };
}
#endif

Setup ours_memset(size_t bytes) {
  return [bytes] {
    const DeviceBuffer dst = device_alloc(bytes);
    check(aclrtMemset(dst.get(), bytes, 1, bytes), "aclrtMemset");
    return Step([dst, bytes] { check(aclrtMemset(dst.get(), bytes, 0, bytes), "aclrtMemset"); });
  };
}

#ifdef OPENACLNN_BENCH_TORCH
Setup torch_memset(size_t bytes) {
  return [bytes] {
    const at::Tensor dst = at::ones({static_cast<int64_t>(bytes / sizeof(float))});
    return Step([dst]() mutable { dst.zero_(); });
  };
}
#endif

bool register_cases() {
  // The source read once, the destination written once.
  add_case(memory_bound("runtime", "memcpy_d2d", {{kCopyBytes}, {kCopyBytes}}, ours_memcpy_d2d,
                        OA_BENCH_TORCH(torch_memcpy_d2d)));
  // The destination written once; nothing read.
  for (size_t mib : {16, 256}) {
    const size_t bytes = mib << 20;
    add_case(memory_bound("runtime", "memset_zero/" + std::to_string(mib) + "MiB", {{}, {bytes}},
                          ours_memset(bytes), OA_BENCH_TORCH(torch_memset(bytes))));
  }
  return true;
}

const bool registered = register_cases();

}  // namespace
}  // namespace oa::bench
