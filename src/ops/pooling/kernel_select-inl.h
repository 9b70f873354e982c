// Picks the compiled instance of a pooling kernel: value dtype, index dtype, layout and instruction
// set. Body<T, I, kLayout>::run(plan, chunk, workspace) is the kernel; the AVX2 and AVX-512 clones
// of each instance are made here (kernel_isa.h), so forward and backward share one dispatch.
#pragma once

#include <cstdint>

#include "acl/acl_base.h"
#include "kernels/adaptive_max_pool2d/kernel_isa.h"
#include "kernels/adaptive_max_pool2d/pool_views.h"

namespace oa::amp {

template <template <typename, typename, Layout> class Body, typename Plan>
class KernelSelect {
 public:
  using Kernel = void (*)(const Plan& plan, int64_t chunk, void* workspace);

  // Null for a dtype or index dtype the kernels do not handle.
  static Kernel select(aclDataType dtype, aclDataType index_dtype, Layout layout, KernelIsa isa) {
    switch (dtype) {
      case ACL_FLOAT:
        return for_index<float>(index_dtype, layout, isa);
      case ACL_FLOAT16:
        return for_index<Half>(index_dtype, layout, isa);
      case ACL_BF16:
        return for_index<Bf16>(index_dtype, layout, isa);
      default:
        return nullptr;
    }
  }

  // The planes instance for indices of type I that are not an aclnn index dtype (uint16 indices
  // the backward narrows itself); null for a dtype the kernels do not handle.
  template <typename I>
  static Kernel select_planes(aclDataType dtype, KernelIsa isa) {
    switch (dtype) {
      case ACL_FLOAT:
        return for_isa<float, I, Layout::planes>(isa);
      case ACL_FLOAT16:
        return for_isa<Half, I, Layout::planes>(isa);
      case ACL_BF16:
        return for_isa<Bf16, I, Layout::planes>(isa);
      default:
        return nullptr;
    }
  }

 private:
  template <typename T, typename I, Layout kLayout>
  static void baseline(const Plan& plan, int64_t chunk, void* workspace) {
    Body<T, I, kLayout>::run(plan, chunk, workspace);
  }

#ifdef OA_AMP_HAVE_X86_CLONES
  template <typename T, typename I, Layout kLayout>
  OA_AMP_AVX2 static void avx2(const Plan& plan, int64_t chunk, void* workspace) {
    Body<T, I, kLayout>::run(plan, chunk, workspace);
  }

  template <typename T, typename I, Layout kLayout>
  OA_AMP_AVX512 static void avx512(const Plan& plan, int64_t chunk, void* workspace) {
    Body<T, I, kLayout>::run(plan, chunk, workspace);
  }
#endif

  template <typename T, typename I, Layout kLayout>
  static Kernel for_isa([[maybe_unused]] KernelIsa isa) {
#ifdef OA_AMP_HAVE_X86_CLONES
    if (isa == KernelIsa::avx512) {
      return avx512<T, I, kLayout>;
    }
    if (isa == KernelIsa::avx2) {
      return avx2<T, I, kLayout>;
    }
#endif
    return baseline<T, I, kLayout>;
  }

  template <typename T, typename I>
  static Kernel for_layout(Layout layout, KernelIsa isa) {
    return layout == Layout::planes ? for_isa<T, I, Layout::planes>(isa)
                                    : for_isa<T, I, Layout::channels_last>(isa);
  }

  template <typename T>
  static Kernel for_index(aclDataType index_dtype, Layout layout, KernelIsa isa) {
    switch (index_dtype) {
      case ACL_INT32:
        return for_layout<T, int32_t>(layout, isa);
      case ACL_INT64:
        return for_layout<T, int64_t>(layout, isa);
      default:
        return nullptr;
    }
  }
};

}  // namespace oa::amp
