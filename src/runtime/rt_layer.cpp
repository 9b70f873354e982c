// CANN's lower runtime layer (the rt* functions a program or CANN's Python test kit finds in
// libruntime.so), as thin mappings onto the runtime the aclrt* functions use: the same device,
// registries, checks and messages, named after the rt* function. Codes are the ACL_ERROR_RT_*
// values, as CANN's rt layer returns them.
#include "runtime/rt.h"

#include "runtime/error.h"
#include "runtime/operations.h"

namespace oa {
namespace {

constexpr uint32_t kLastContextMode = RT_CTX_GEN_MODE;
constexpr uint32_t kDefaultPagesOnly =
    RT_MEMORY_POLICY_DEFAULT_PAGE_ONLY | RT_MEMORY_POLICY_DEFAULT_PAGE_ONLY_P2P;

// Whether the memory-type bits of an rtMemType_t name device memory.
bool is_device_memory_type(uint32_t type) {
  switch (type) {
    case RT_MEMORY_DEFAULT:
    case RT_MEMORY_HBM:
    case RT_MEMORY_RDMA_HBM:
    case RT_MEMORY_DDR:
    case RT_MEMORY_SPM:
    case RT_MEMORY_P2P_HBM:
    case RT_MEMORY_P2P_DDR:
    case RT_MEMORY_DDR_NC:
    case RT_MEMORY_TS:
      return true;
    default:
      return false;
  }
}

// The aclrtMemcpyKind an rtMemcpyKind_t means, or false (with the failure recorded) for a kind the
// CPU device does not copy.
bool to_acl_kind(rtMemcpyKind_t kind, aclrtMemcpyKind* acl_kind, int* code) {
  switch (kind) {
    case RT_MEMCPY_HOST_TO_HOST:
    case RT_MEMCPY_HOST_TO_DEVICE:
    case RT_MEMCPY_DEVICE_TO_HOST:
    case RT_MEMCPY_DEVICE_TO_DEVICE:
      *acl_kind = static_cast<aclrtMemcpyKind>(kind);
      return true;
    case RT_MEMCPY_HOST_TO_DEVICE_EX:
      *acl_kind = ACL_MEMCPY_HOST_TO_DEVICE;
      return true;
    case RT_MEMCPY_DEVICE_TO_HOST_EX:
      *acl_kind = ACL_MEMCPY_DEVICE_TO_HOST;
      return true;
    case RT_MEMCPY_DEFAULT:
      *acl_kind = ACL_MEMCPY_DEFAULT;
      return true;
    case RT_MEMCPY_MANAGED:
    case RT_MEMCPY_ADDR_DEVICE_TO_DEVICE:
      *code = failf(
          ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
          "rtMemcpy: kind %d (%s) is not supported by the CPU device", static_cast<int>(kind),
          kind == RT_MEMCPY_MANAGED ? "RT_MEMCPY_MANAGED" : "RT_MEMCPY_ADDR_DEVICE_TO_DEVICE");
      return false;
    default:
      *code =
          failf(ACL_ERROR_RT_PARAM_INVALID, "rtMemcpy: kind must be 0..%d (rtMemcpyKind_t), got %d",
                static_cast<int>(RT_MEMCPY_DEFAULT), static_cast<int>(kind));
      return false;
  }
}

}  // namespace
}  // namespace oa

using oa::failf;

extern "C" {

RTS_API rtError_t rtSetDevice(int32_t devId) { return oa::set_device("rtSetDevice", devId, false); }

RTS_API rtError_t rtDeviceReset(int32_t devId) { return oa::reset_device("rtDeviceReset", devId); }

RTS_API rtError_t rtSetDeviceSatMode(rtFloatOverflowMode_t floatOverflowMode) {
  return oa::set_sat_mode("rtSetDeviceSatMode", static_cast<int>(floatOverflowMode));
}

RTS_API rtError_t rtGetDeviceSatMode(rtFloatOverflowMode_t* floatOverflowMode) {
  int mode = 0;
  int code = oa::get_sat_mode("rtGetDeviceSatMode", floatOverflowMode == nullptr ? nullptr : &mode);
  if (code == ACL_SUCCESS) {
    *floatOverflowMode = static_cast<rtFloatOverflowMode_t>(mode);
  }
  return code;
}

RTS_API rtError_t rtCtxCreate(rtContext_t* createCtx, uint32_t flags, int32_t devId) {
  if (flags > oa::kLastContextMode) {
    return failf(ACL_ERROR_RT_PARAM_INVALID,
                 "rtCtxCreate: flags must be 0 (RT_CTX_NORMAL_MODE) or 1 (RT_CTX_GEN_MODE), got %u",
                 flags);
  }
  return oa::create_context("rtCtxCreate", createCtx, devId);
}

RTS_API rtError_t rtCtxDestroy(rtContext_t destroyCtx) {
  return oa::destroy_context("rtCtxDestroy", destroyCtx);
}

RTS_API rtError_t rtCtxSetCurrent(rtContext_t currentCtx) {
  return oa::set_current_context("rtCtxSetCurrent", currentCtx);
}

RTS_API rtError_t rtStreamCreate(rtStream_t* stm, int32_t priority) {
  if (priority < 0) {
    return failf(ACL_ERROR_RT_PARAM_INVALID, "rtStreamCreate: priority must be 0..7, got %d",
                 priority);
  }
  return oa::create_stream("rtStreamCreate", stm, static_cast<uint32_t>(priority), 0);
}

RTS_API rtError_t rtStreamDestroy(rtStream_t stm) {
  return oa::destroy_stream("rtStreamDestroy", stm);
}

RTS_API rtError_t rtStreamDestroyForce(rtStream_t stm) {
  return oa::destroy_stream("rtStreamDestroyForce", stm);
}

RTS_API rtError_t rtStreamSynchronize(rtStream_t stm) {
  return oa::synchronize_stream("rtStreamSynchronize", stm, -1);
}

RTS_API rtError_t rtStreamSynchronizeWithTimeout(rtStream_t stm, int32_t timeout) {
  return oa::synchronize_stream("rtStreamSynchronizeWithTimeout", stm, timeout);
}

RTS_API rtError_t rtMalloc(void** devPtr, uint64_t size, rtMemType_t type,
                           const uint16_t /*moduleId*/) {
  const uint32_t memory_type = type & MEM_ALLOC_TYPE_BIT;
  if (!oa::is_device_memory_type(memory_type)) {
    if (devPtr != nullptr) {
      *devPtr = nullptr;
    }
    return failf(ACL_ERROR_RT_INVALID_MEMORY_TYPE,
                 "rtMalloc: type 0x%x names memory type 0x%x, which is not device memory "
                 "(RT_MEMORY_DEFAULT, HBM, DDR, ... are)",
                 type, memory_type);
  }
  const aclrtMemMallocPolicy policy =
      (type & oa::kDefaultPagesOnly) != 0 ? ACL_MEM_MALLOC_NORMAL_ONLY : ACL_MEM_MALLOC_HUGE_FIRST;
  return oa::allocate_device_memory("rtMalloc", devPtr, size, policy);
}

RTS_API rtError_t rtFree(void* devPtr) {
  return oa::free_device_memory("rtFree", devPtr, "rtMalloc");
}

RTS_API rtError_t rtMemcpy(void* dst, uint64_t destMax, const void* src, uint64_t cnt,
                           rtMemcpyKind_t kind) {
  aclrtMemcpyKind acl_kind = ACL_MEMCPY_DEFAULT;
  int code = ACL_SUCCESS;
  if (!oa::to_acl_kind(kind, &acl_kind, &code)) {
    return code;
  }
  return oa::copy_memory("rtMemcpy", dst, destMax, src, cnt, acl_kind, nullptr);
}

}  // extern "C"
