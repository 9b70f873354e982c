// The single CPU device (SPEC section 2): id 0 only, reference-counted by Set/ResetDevice.
#include "test_env.h"

namespace {

using oa_test::expect_error;

TEST(Device, OnlyDeviceZeroExists) {
  expect_error(aclrtSetDevice(1), ACL_ERROR_RT_INVALID_DEVICEID,
               {"aclrtSetDevice", "deviceId 1", "device 0"});
  expect_error(aclrtSetDevice(-1), ACL_ERROR_RT_INVALID_DEVICEID,
               {"aclrtSetDevice", "deviceId -1"});
  expect_error(aclrtResetDevice(1), ACL_ERROR_RT_INVALID_DEVICEID,
               {"aclrtResetDevice", "deviceId 1"});
  int32_t device = -1;
  ASSERT_EQ(aclrtGetDevice(&device), ACL_SUCCESS);
  EXPECT_EQ(device, 0);
}

TEST(Device, GetDevice) {
  int32_t device = -1;
  EXPECT_EQ(aclrtGetDevice(&device), ACL_SUCCESS) << aclGetRecentErrMsg();
  EXPECT_EQ(device, 0);
  expect_error(aclrtGetDevice(nullptr), ACL_ERROR_RT_PARAM_INVALID,
               {"aclrtGetDevice", "deviceId", "null"});
}

TEST(Device, GetDeviceCount) {
  uint32_t count = 0;
  EXPECT_EQ(aclrtGetDeviceCount(&count), ACL_SUCCESS) << aclGetRecentErrMsg();
  EXPECT_EQ(count, 1u);
  expect_error(aclrtGetDeviceCount(nullptr), ACL_ERROR_RT_PARAM_INVALID,
               {"aclrtGetDeviceCount", "count", "null"});
}

TEST(Device, SynchronizeDevice) { EXPECT_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS); }

TEST(Device, SetDeviceTwiceNeedsTwoResets) {
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  oa_test::DeviceBuffer buffer(64);
  ASSERT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  // The environment's reference keeps the device and its memory alive.
  int32_t device = -1;
  EXPECT_EQ(aclrtGetDevice(&device), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemset(buffer.get(), buffer.size(), 0x5a, buffer.size()), ACL_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(buffer.read<unsigned char>()[63], 0x5a);
}

TEST(Device, ResetToZeroReleasesEverything) {
  void* memory = nullptr;
  ASSERT_EQ(aclrtMalloc(&memory, 128, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  void* huge = nullptr;  // huge pages: a mapping of its own
  ASSERT_EQ(aclrtMalloc(&huge, size_t{4} << 20, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  void* host = nullptr;
  ASSERT_EQ(aclrtMallocHost(&host, 128), ACL_SUCCESS);
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  aclrtContext context = nullptr;
  ASSERT_EQ(aclrtCreateContext(&context, 0), ACL_SUCCESS);

  ASSERT_EQ(aclrtResetDevice(0), ACL_SUCCESS);  // the environment's reference: now zero
  int32_t device = -1;
  expect_error(aclrtGetDevice(&device), ACL_ERROR_RT_CONTEXT_NULL, {"aclrtGetDevice"});
  expect_error(aclrtResetDevice(0), ACL_ERROR_RT_CONTEXT_NULL,
               {"aclrtResetDevice", "device 0 is not set"});
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);  // restore the environment's reference

  expect_error(aclrtFree(memory), ACL_ERROR_RT_PARAM_INVALID, {"aclrtFree", "not a live"});
  expect_error(aclrtFree(huge), ACL_ERROR_RT_PARAM_INVALID, {"aclrtFree", "not a live"});
  expect_error(aclrtFreeHost(host), ACL_ERROR_RT_PARAM_INVALID, {"aclrtFreeHost", "not a live"});
  expect_error(aclrtDestroyStream(stream), ACL_ERROR_RT_PARAM_INVALID,
               {"aclrtDestroyStream", "not a live stream"});
  expect_error(aclrtDestroyContext(context), ACL_ERROR_RT_PARAM_INVALID,
               {"aclrtDestroyContext", "not a live context"});
  aclrtContext current = nullptr;
  EXPECT_EQ(aclrtGetCurrentContext(&current), ACL_SUCCESS) << aclGetRecentErrMsg();
  EXPECT_NE(current, context);
}

}  // namespace
