#include "kernels/adaptive_max_pool2d/kernel_isa.h"

#include "core/isa.h"

namespace oa::amp {

KernelIsa kernel_isa() {
  if (selected_isa() == Isa::scalar) {
    return KernelIsa::baseline;
  }
#ifdef OA_AMP_HAVE_X86_CLONES
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
      __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq")) {
    return KernelIsa::avx512;
  }
  if (__builtin_cpu_supports("avx2")) {
    return KernelIsa::avx2;
  }
#endif
  return KernelIsa::baseline;
}

}  // namespace oa::amp
