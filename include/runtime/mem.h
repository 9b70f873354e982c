/* CANN-compatible lower runtime layer: device memory (see runtime/base.h). rtMalloc memory is
   aclrtMalloc memory: one registry, freed by rtFree or aclrtFree, accepted wherever device
   memory is (tensors, aclrtMemcpy, rtMemcpy), at any address inside a live allocation. */
#ifndef OPENACLNN_RUNTIME_MEM_H_
#define OPENACLNN_RUNTIME_MEM_H_

#include <stddef.h>

#include "runtime/base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* rtMemType_t is a memory type (the low 10 bits) | a page policy | attributes. Every device type
   is host RAM on the CPU device; RT_MEMORY_HOST and RT_MEMORY_SVM are not device memory and are
   refused (ACL_ERROR_RT_INVALID_MEMORY_TYPE). */
typedef uint32_t rtMemType_t;

#define RT_MEMORY_DEFAULT (0x0U)
#define RT_MEMORY_HBM (0x2U)
#define RT_MEMORY_RDMA_HBM (0x3U)
#define RT_MEMORY_DDR (0x4U)
#define RT_MEMORY_SPM (0x8U)
#define RT_MEMORY_P2P_HBM (0x10U)
#define RT_MEMORY_P2P_DDR (0x11U)
#define RT_MEMORY_DDR_NC (0x20U)
#define RT_MEMORY_TS (0x40U)
#define RT_MEMORY_TS_4G (0x40U)
#define RT_MEMORY_HOST (0x81U)
#define RT_MEMORY_SVM (0x90U)
#define RT_MEMORY_HOST_SVM (0x90U)
#define RT_MEMORY_RESERVED (0x100U)
#define RT_MEMORY_L1 (0x1U << 16U)
#define RT_MEMORY_L2 (0x1U << 17U)

/* Page policies. The DEFAULT_PAGE_ONLY ones take ordinary pages; every other one takes
   transparent huge pages for allocations of 2 MiB or more, as aclrtMalloc's HUGE_FIRST does. */
#define RT_MEMORY_POLICY_NONE (0x0U)
#define RT_MEMORY_POLICY_HUGE_PAGE_FIRST (0x400U)
#define RT_MEMORY_POLICY_HUGE_PAGE_ONLY (0x800U)
#define RT_MEMORY_POLICY_DEFAULT_PAGE_ONLY (0x1000U)
#define RT_MEMORY_POLICY_HUGE_PAGE_FIRST_P2P (0x2000U)
#define RT_MEMORY_POLICY_HUGE_PAGE_ONLY_P2P (0x4000U)
#define RT_MEMORY_POLICY_DEFAULT_PAGE_ONLY_P2P (0x8000U)
#define RT_MEMORY_POLICY_HUGE1G_PAGE_ONLY (0x10000U)
#define RT_MEMORY_POLICY_HUGE1G_PAGE_ONLY_P2P (0x20000U)

#define MEM_ALLOC_TYPE_BIT (0x3FFU)

/* Copy directions. HOST_TO_HOST .. DEVICE_TO_DEVICE are numbered as aclrtMemcpyKind's; the _EX
   kinds are their plain counterparts; DEFAULT infers the direction from the pointers. MANAGED
   and ADDR_DEVICE_TO_DEVICE are not supported (ACL_ERROR_RT_FEATURE_NOT_SUPPORT). */
typedef enum tagRtMemcpyKind {
  RT_MEMCPY_HOST_TO_HOST = 0,
  RT_MEMCPY_HOST_TO_DEVICE = 1,
  RT_MEMCPY_DEVICE_TO_HOST = 2,
  RT_MEMCPY_DEVICE_TO_DEVICE = 3,
  RT_MEMCPY_MANAGED = 4,
  RT_MEMCPY_ADDR_DEVICE_TO_DEVICE = 5,
  RT_MEMCPY_HOST_TO_DEVICE_EX = 6,
  RT_MEMCPY_DEVICE_TO_HOST_EX = 7,
  RT_MEMCPY_DEFAULT = 8,
  RT_MEMCPY_RESERVED = 9
} rtMemcpyKind_t;

/* moduleId (the allocating module, for CANN's accounting) is accepted and ignored. */
RTS_API rtError_t rtMalloc(void** devPtr, uint64_t size, rtMemType_t type, const uint16_t moduleId);
RTS_API rtError_t rtFree(void* devPtr);
RTS_API rtError_t rtMemcpy(void* dst, uint64_t destMax, const void* src, uint64_t cnt,
                           rtMemcpyKind_t kind);

#ifdef __cplusplus
}
#endif

#endif /* OPENACLNN_RUNTIME_MEM_H_ */
