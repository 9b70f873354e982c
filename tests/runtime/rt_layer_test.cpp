// CANN's lower runtime layer (rt*, libruntime.so): the same device, registries and checks as the
// aclrt* functions, with messages naming the rt* function.
#include <cstdint>
#include <vector>

#include "runtime/rt.h"
#include "test_env.h"

namespace {

using oa_test::expect_error;

TEST(RtDevice, SetAndResetAreCountedWithAclrt) {
  ASSERT_EQ(rtSetDevice(0), RT_ERROR_NONE) << aclGetRecentErrMsg();
  ASSERT_EQ(rtDeviceReset(0), RT_ERROR_NONE) << aclGetRecentErrMsg();
  // The environment's aclrtSetDevice reference is still there.
  int32_t device = -1;
  EXPECT_EQ(aclrtGetDevice(&device), ACL_SUCCESS);
  expect_error(rtSetDevice(1), ACL_ERROR_RT_INVALID_DEVICEID, {"rtSetDevice", "deviceId 1"});
  expect_error(rtDeviceReset(-1), ACL_ERROR_RT_INVALID_DEVICEID, {"rtDeviceReset", "deviceId -1"});
}

TEST(RtDevice, SetDeviceDoesNotNeedAclInit) {
  ASSERT_EQ(aclFinalize(), ACL_SUCCESS);  // releases the device too
  ASSERT_EQ(rtSetDevice(0), RT_ERROR_NONE) << aclGetRecentErrMsg();
  void* memory = nullptr;
  EXPECT_EQ(rtMalloc(&memory, 64, RT_MEMORY_HBM, 0), RT_ERROR_NONE) << aclGetRecentErrMsg();
  EXPECT_EQ(rtFree(memory), RT_ERROR_NONE);
  ASSERT_EQ(rtDeviceReset(0), RT_ERROR_NONE);
  expect_error(rtDeviceReset(0), ACL_ERROR_RT_CONTEXT_NULL, {"rtDeviceReset", "not set"});
  oa_test::ensure_live_device();
}

TEST(RtDevice, SatModeIsShared) {
  ASSERT_EQ(rtSetDeviceSatMode(RT_OVERFLOW_MODE_SATURATION), RT_ERROR_NONE);
  aclrtFloatOverflowMode acl_mode = ACL_RT_OVERFLOW_MODE_UNDEF;
  ASSERT_EQ(aclrtGetDeviceSatMode(&acl_mode), ACL_SUCCESS);
  EXPECT_EQ(acl_mode, ACL_RT_OVERFLOW_MODE_SATURATION);
  ASSERT_EQ(aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_INFNAN), ACL_SUCCESS);
  rtFloatOverflowMode_t mode = RT_OVERFLOW_MODE_UNDEF;
  ASSERT_EQ(rtGetDeviceSatMode(&mode), RT_ERROR_NONE);
  EXPECT_EQ(mode, RT_OVERFLOW_MODE_INFNAN);
  expect_error(rtSetDeviceSatMode(RT_OVERFLOW_MODE_UNDEF), ACL_ERROR_RT_PARAM_INVALID,
               {"rtSetDeviceSatMode", "mode must be", "got 2"});
  expect_error(rtGetDeviceSatMode(nullptr), ACL_ERROR_RT_PARAM_INVALID,
               {"rtGetDeviceSatMode", "mode is null"});
}

TEST(RtContext, CreateSetCurrentDestroy) {
  aclrtContext original = nullptr;
  ASSERT_EQ(aclrtGetCurrentContext(&original), ACL_SUCCESS);
  for (uint32_t mode : {RT_CTX_NORMAL_MODE, RT_CTX_GEN_MODE}) {
    rtContext_t context = nullptr;
    ASSERT_EQ(rtCtxCreate(&context, mode, 0), RT_ERROR_NONE) << aclGetRecentErrMsg();
    aclrtContext current = nullptr;
    ASSERT_EQ(aclrtGetCurrentContext(&current), ACL_SUCCESS);
    EXPECT_EQ(current, context);
    ASSERT_EQ(rtCtxSetCurrent(original), RT_ERROR_NONE) << aclGetRecentErrMsg();
    ASSERT_EQ(rtCtxSetCurrent(context), RT_ERROR_NONE);
    ASSERT_EQ(rtCtxSetCurrent(original), RT_ERROR_NONE);
    ASSERT_EQ(rtCtxDestroy(context), RT_ERROR_NONE) << aclGetRecentErrMsg();
    expect_error(rtCtxDestroy(context), ACL_ERROR_RT_PARAM_INVALID,
                 {"rtCtxDestroy", "not a live context"});
    expect_error(rtCtxSetCurrent(context), ACL_ERROR_RT_PARAM_INVALID,
                 {"rtCtxSetCurrent", "not a live context"});
  }
}

TEST(RtContext, BadArguments) {
  rtContext_t context = nullptr;
  expect_error(rtCtxCreate(nullptr, 0, 0), ACL_ERROR_RT_PARAM_INVALID,
               {"rtCtxCreate", "context is null"});
  expect_error(rtCtxCreate(&context, 2, 0), ACL_ERROR_RT_PARAM_INVALID,
               {"rtCtxCreate", "flags", "got 2"});
  expect_error(rtCtxCreate(&context, 0, 3), ACL_ERROR_RT_INVALID_DEVICEID,
               {"rtCtxCreate", "deviceId 3"});
  rtStream_t stream = nullptr;
  ASSERT_EQ(rtStreamCreate(&stream, 0), RT_ERROR_NONE);
  expect_error(rtCtxSetCurrent(stream), ACL_ERROR_RT_PARAM_INVALID,
               {"rtCtxSetCurrent", "not a live context", "it is a stream"});
  expect_error(rtCtxDestroy(stream), ACL_ERROR_RT_PARAM_INVALID,
               {"rtCtxDestroy", "not a live context", "it is a stream"});
  EXPECT_EQ(rtStreamDestroy(stream), RT_ERROR_NONE);
}

TEST(RtStream, CreateSynchronizeDestroy) {
  rtStream_t stream = nullptr;
  ASSERT_EQ(rtStreamCreate(&stream, 0), RT_ERROR_NONE) << aclGetRecentErrMsg();
  EXPECT_EQ(rtStreamSynchronize(stream), RT_ERROR_NONE);
  EXPECT_EQ(rtStreamSynchronizeWithTimeout(stream, 1000), RT_ERROR_NONE);
  EXPECT_EQ(rtStreamSynchronize(nullptr), RT_ERROR_NONE);
  // An rt stream is an aclrt stream.
  EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
  EXPECT_EQ(rtStreamDestroy(stream), RT_ERROR_NONE);
  expect_error(rtStreamSynchronize(stream), ACL_ERROR_RT_PARAM_INVALID,
               {"rtStreamSynchronize", "not a live stream"});
  expect_error(rtStreamDestroy(stream), ACL_ERROR_RT_PARAM_INVALID,
               {"rtStreamDestroy", "not a live stream"});

  ASSERT_EQ(rtStreamCreate(&stream, 7), RT_ERROR_NONE);
  EXPECT_EQ(rtStreamDestroyForce(stream), RT_ERROR_NONE) << aclGetRecentErrMsg();
  expect_error(rtStreamDestroyForce(stream), ACL_ERROR_RT_PARAM_INVALID,
               {"rtStreamDestroyForce", "not a live stream"});
  expect_error(rtStreamDestroyForce(nullptr), ACL_ERROR_RT_PARAM_INVALID,
               {"rtStreamDestroyForce", "not a live stream"});
}

TEST(RtStream, BadArguments) {
  rtStream_t stream = nullptr;
  expect_error(rtStreamCreate(nullptr, 0), ACL_ERROR_RT_PARAM_INVALID,
               {"rtStreamCreate", "stream is null"});
  expect_error(rtStreamCreate(&stream, -1), ACL_ERROR_RT_PARAM_INVALID,
               {"rtStreamCreate", "priority must be 0..7", "got -1"});
  expect_error(rtStreamCreate(&stream, 8), ACL_ERROR_RT_PARAM_INVALID,
               {"rtStreamCreate", "priority must be 0..7", "got 8"});
  expect_error(rtStreamSynchronizeWithTimeout(nullptr, -2), ACL_ERROR_RT_PARAM_INVALID,
               {"rtStreamSynchronizeWithTimeout", "timeout", "got -2"});
}

TEST(RtMemory, MallocMemcpyFreeInteroperateWithAclrt) {
  std::vector<float> values = {1, 2, 3, 4, 5, 6, 7, 8};
  void* device = nullptr;
  ASSERT_EQ(rtMalloc(&device, 32, RT_MEMORY_HBM | RT_MEMORY_POLICY_NONE, 58), RT_ERROR_NONE)
      << aclGetRecentErrMsg();
  ASSERT_EQ(rtMemcpy(device, 32, values.data(), 32, RT_MEMCPY_HOST_TO_DEVICE), RT_ERROR_NONE)
      << aclGetRecentErrMsg();
  std::vector<float> out(8, 0);
  ASSERT_EQ(aclrtMemcpy(out.data(), 32, device, 32, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  EXPECT_EQ(out, values);
  std::fill(out.begin(), out.end(), 0.0f);
  ASSERT_EQ(rtMemcpy(out.data(), 32, device, 32, RT_MEMCPY_DEVICE_TO_HOST_EX), RT_ERROR_NONE);
  EXPECT_EQ(out, values);
  std::fill(out.begin(), out.end(), 0.0f);
  ASSERT_EQ(rtMemcpy(out.data(), 32, device, 32, RT_MEMCPY_DEFAULT), RT_ERROR_NONE);
  EXPECT_EQ(out, values);
  // aclrtFree releases rtMalloc memory, and then rtFree reports it freed.
  ASSERT_EQ(aclrtFree(device), ACL_SUCCESS);
  expect_error(rtFree(device), ACL_ERROR_RT_PARAM_INVALID,
               {"rtFree", "not a live allocation", "rtMalloc"});
}

// The test kit's pattern: allocate 512 bytes more than needed, use the first 512-byte boundary
// inside the block, write padding past the data, free the block's own address.
TEST(RtMemory, AlignedInteriorPointersAreDeviceMemory) {
  for (size_t bytes : {size_t{100}, size_t{4} << 20}) {
    const size_t block_bytes = bytes + 512;
    void* block = nullptr;
    ASSERT_EQ(rtMalloc(&block, block_bytes, RT_MEMORY_HBM | RT_MEMORY_POLICY_HUGE_PAGE_ONLY, 58),
              RT_ERROR_NONE);
    const auto base = reinterpret_cast<uintptr_t>(block);
    auto* aligned = reinterpret_cast<unsigned char*>((base + 511) / 512 * 512);
    std::vector<unsigned char> data(bytes, 0x5a);
    std::vector<unsigned char> padding(32, 2);
    ASSERT_EQ(rtMemcpy(aligned, bytes, data.data(), bytes, RT_MEMCPY_HOST_TO_DEVICE), RT_ERROR_NONE)
        << aclGetRecentErrMsg();
    ASSERT_EQ(rtMemcpy(aligned + bytes, 32, padding.data(), 32, RT_MEMCPY_HOST_TO_DEVICE),
              RT_ERROR_NONE)
        << aclGetRecentErrMsg();
    std::vector<unsigned char> out(bytes + 32);
    ASSERT_EQ(rtMemcpy(out.data(), out.size(), aligned, out.size(), RT_MEMCPY_DEVICE_TO_HOST),
              RT_ERROR_NONE);
    EXPECT_EQ(out[0], 0x5a);
    EXPECT_EQ(out[bytes - 1], 0x5a);
    EXPECT_EQ(out[bytes], 2);
    // Past the block's end is still refused.
    const size_t room =
        block_bytes - static_cast<size_t>(aligned - static_cast<unsigned char*>(block));
    std::vector<unsigned char> too_much(room + 1);
    expect_error(rtMemcpy(aligned, too_much.size(), too_much.data(), too_much.size(),
                          RT_MEMCPY_HOST_TO_DEVICE),
                 ACL_ERROR_RT_PARAM_INVALID, {"rtMemcpy", "dst", "runs past the end"});
    expect_error(rtFree(aligned + 1), ACL_ERROR_RT_PARAM_INVALID,
                 {"rtFree", "inside an allocation", "not to its start"});
    EXPECT_EQ(rtFree(block), RT_ERROR_NONE) << aclGetRecentErrMsg();
  }
}

TEST(RtMemory, MallocBadArguments) {
  void* memory = nullptr;
  expect_error(rtMalloc(nullptr, 64, RT_MEMORY_HBM, 0), ACL_ERROR_RT_PARAM_INVALID,
               {"rtMalloc", "devPtr", "null"});
  expect_error(rtMalloc(&memory, 0, RT_MEMORY_HBM, 0), ACL_ERROR_RT_PARAM_INVALID,
               {"rtMalloc", "size must be > 0"});
  expect_error(rtMalloc(&memory, 64, RT_MEMORY_HOST, 0), ACL_ERROR_RT_INVALID_MEMORY_TYPE,
               {"rtMalloc", "0x81", "not device memory"});
  expect_error(rtMalloc(&memory, 64, RT_MEMORY_SVM | RT_MEMORY_POLICY_HUGE_PAGE_ONLY, 0),
               ACL_ERROR_RT_INVALID_MEMORY_TYPE, {"rtMalloc", "0x90", "not device memory"});
  EXPECT_EQ(memory, nullptr);
  expect_error(rtMalloc(&memory, UINT64_MAX, RT_MEMORY_HBM, 0), ACL_ERROR_RT_MEMORY_ALLOCATION,
               {"rtMalloc", "too large"});
  expect_error(rtFree(nullptr), ACL_ERROR_RT_PARAM_INVALID, {"rtFree", "null"});
  int host = 0;
  expect_error(rtFree(&host), ACL_ERROR_RT_PARAM_INVALID,
               {"rtFree", "not a live allocation", "rtMalloc"});
}

TEST(RtMemory, EveryDeviceTypeAndPolicyIsAccepted) {
  for (rtMemType_t type :
       {RT_MEMORY_DEFAULT, RT_MEMORY_HBM, RT_MEMORY_RDMA_HBM, RT_MEMORY_DDR, RT_MEMORY_SPM,
        RT_MEMORY_P2P_HBM, RT_MEMORY_P2P_DDR, RT_MEMORY_DDR_NC, RT_MEMORY_TS}) {
    for (rtMemType_t policy :
         {RT_MEMORY_POLICY_NONE, RT_MEMORY_POLICY_HUGE_PAGE_FIRST, RT_MEMORY_POLICY_HUGE_PAGE_ONLY,
          RT_MEMORY_POLICY_DEFAULT_PAGE_ONLY, RT_MEMORY_POLICY_DEFAULT_PAGE_ONLY_P2P}) {
      void* memory = nullptr;
      ASSERT_EQ(rtMalloc(&memory, 128, type | policy, 0), RT_ERROR_NONE)
          << type << " " << policy << ": " << aclGetRecentErrMsg();
      EXPECT_EQ(rtFree(memory), RT_ERROR_NONE);
    }
  }
}

TEST(RtMemory, MemcpyBadArguments) {
  oa_test::DeviceBuffer device(64);
  std::vector<unsigned char> host(64);
  expect_error(rtMemcpy(device.get(), 64, host.data(), 64, RT_MEMCPY_MANAGED),
               ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
               {"rtMemcpy", "RT_MEMCPY_MANAGED", "not supported"});
  expect_error(rtMemcpy(device.get(), 64, host.data(), 64, RT_MEMCPY_ADDR_DEVICE_TO_DEVICE),
               ACL_ERROR_RT_FEATURE_NOT_SUPPORT, {"rtMemcpy", "not supported"});
  expect_error(rtMemcpy(device.get(), 64, host.data(), 64, RT_MEMCPY_RESERVED),
               ACL_ERROR_RT_PARAM_INVALID, {"rtMemcpy", "kind must be 0..8", "got 9"});
  expect_error(rtMemcpy(device.get(), 64, host.data(), 64, static_cast<rtMemcpyKind_t>(-1)),
               ACL_ERROR_RT_PARAM_INVALID, {"rtMemcpy", "kind", "got -1"});
  expect_error(rtMemcpy(device.get(), 32, host.data(), 64, RT_MEMCPY_HOST_TO_DEVICE),
               ACL_ERROR_RT_PARAM_INVALID, {"rtMemcpy", "count (64) must be <= destMax (32)"});
  expect_error(rtMemcpy(host.data(), 64, host.data(), 64, RT_MEMCPY_HOST_TO_DEVICE),
               ACL_ERROR_RT_PARAM_INVALID, {"rtMemcpy", "dst", "must be device memory"});
  expect_error(rtMemcpy(host.data(), 64, device.get(), 64, RT_MEMCPY_HOST_TO_HOST),
               ACL_ERROR_RT_PARAM_INVALID, {"rtMemcpy", "src", "is device memory"});
  expect_error(rtMemcpy(nullptr, 64, host.data(), 64, RT_MEMCPY_HOST_TO_DEVICE),
               ACL_ERROR_RT_PARAM_INVALID, {"rtMemcpy", "dst is null"});
}

TEST(RtMemory, MallocNeedsADevice) {
  ASSERT_EQ(rtDeviceReset(0), RT_ERROR_NONE);  // the environment's reference: now zero
  void* memory = nullptr;
  expect_error(rtMalloc(&memory, 64, RT_MEMORY_HBM, 0), ACL_ERROR_RT_CONTEXT_NULL,
               {"rtMalloc", "no device is set"});
  rtStream_t stream = nullptr;
  expect_error(rtStreamCreate(&stream, 0), ACL_ERROR_RT_CONTEXT_NULL,
               {"rtStreamCreate", "no device is set"});
  oa_test::ensure_live_device();
}

}  // namespace
