// Runtime cases: the device-to-device copy, the plainest memory-bound operation.
#ifdef OPENACLNN_BENCH_TORCH
#include <ATen/ATen.h>
#endif

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

// Each byte is read once from the source and written once to the destination.
const bool registered = add_case({"runtime", "memcpy_d2d", 2.0 * kCopyBytes, Ceiling::copy,
                                  ours_memcpy_d2d, OA_BENCH_TORCH(torch_memcpy_d2d)});

}  // namespace
}  // namespace oa::bench
