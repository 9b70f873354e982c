// Picks the compiled instance of a pooling kernel for the Highway target being compiled: value
// dtype, index dtype and layout. Body<T, I, kLayout>::run(plan, chunk, workspace) is the kernel.
// The kernels' files include this once per target (foreach_target.h; the usual Highway toggle
// guard), so forward and backward share one selection and each target has its own instances.
#if defined(OA_POOLING_KERNEL_SELECT_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef OA_POOLING_KERNEL_SELECT_INL_H_
#undef OA_POOLING_KERNEL_SELECT_INL_H_
#else
#define OA_POOLING_KERNEL_SELECT_INL_H_
#endif

#include <hwy/highway.h>

#include <cstdint>

#include "acl/acl_base.h"
#include "ops/pooling/pool_views.h"

HWY_BEFORE_NAMESPACE();
namespace oa::pooling {
namespace HWY_NAMESPACE {

template <template <typename, typename, Layout> class Body, typename Plan>
class KernelSelect {
 public:
  using Kernel = void (*)(const Plan& plan, int64_t chunk, void* workspace);

  // Null for a dtype or index dtype the kernels do not handle.
  static Kernel select(aclDataType dtype, aclDataType index_dtype, Layout layout) {
    switch (dtype) {
      case ACL_FLOAT:
        return for_index<float>(index_dtype, layout);
      case ACL_FLOAT16:
        return for_index<Half>(index_dtype, layout);
      case ACL_BF16:
        return for_index<Bf16>(index_dtype, layout);
      default:
        return nullptr;
    }
  }

  // The planes instance for indices of type I that are not an aclnn index dtype (uint16 indices
  // the backward narrows itself); null for a dtype the kernels do not handle.
  template <typename I>
  static Kernel select_planes(aclDataType dtype) {
    switch (dtype) {
      case ACL_FLOAT:
        return run<float, I, Layout::planes>;
      case ACL_FLOAT16:
        return run<Half, I, Layout::planes>;
      case ACL_BF16:
        return run<Bf16, I, Layout::planes>;
      default:
        return nullptr;
    }
  }

 private:
  // The kernel entry: every function of this namespace is compiled for the target already, and
  // flatten inlines into it what comes from outside (the conversions of pool_views.h and
  // base/float_convert.h, std::fill), so that the loops calling them are compiled for it too.
  template <typename T, typename I, Layout kLayout>
  HWY_FLATTEN static void run(const Plan& plan, int64_t chunk, void* workspace) {
    Body<T, I, kLayout>::run(plan, chunk, workspace);
  }

  template <typename T, typename I>
  static Kernel for_layout(Layout layout) {
    return layout == Layout::planes ? run<T, I, Layout::planes> : run<T, I, Layout::channels_last>;
  }

  template <typename T>
  static Kernel for_index(aclDataType index_dtype, Layout layout) {
    switch (index_dtype) {
      case ACL_INT32:
        return for_layout<T, int32_t>(layout);
      case ACL_INT64:
        return for_layout<T, int64_t>(layout);
      default:
        return nullptr;
    }
  }
};

}  // namespace HWY_NAMESPACE
}  // namespace oa::pooling
HWY_AFTER_NAMESPACE();

#endif  // OA_POOLING_KERNEL_SELECT_INL_H_
