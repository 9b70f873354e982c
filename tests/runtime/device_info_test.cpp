// What the device says about itself: SoC name, memory (the host's), saturation mode.
#include <cstring>

#include "test_env.h"

namespace {

using oa_test::expect_error;

TEST(DeviceInfo, SocNameSaysItIsTheCpuDevice) {
  ASSERT_NE(aclrtGetSocName(), nullptr);
  EXPECT_STREQ(aclrtGetSocName(), "openaclnn-cpu");
}

TEST(DeviceInfo, MemInfoReportsTheHostsMemoryForEveryAttribute) {
  for (int attr = ACL_DDR_MEM; attr <= ACL_MEM_P2P_HUGE1G; ++attr) {
    size_t free = 0;
    size_t total = 0;
    ASSERT_EQ(aclrtGetMemInfo(static_cast<aclrtMemAttr>(attr), &free, &total), ACL_SUCCESS)
        << attr << ": " << aclGetRecentErrMsg();
    EXPECT_GT(total, size_t{64} << 20) << attr;
    EXPECT_GT(free, 0u) << attr;
    EXPECT_LE(free, total) << attr;
  }
}

TEST(DeviceInfo, MemInfoBadArguments) {
  size_t free = 0;
  size_t total = 0;
  expect_error(aclrtGetMemInfo(static_cast<aclrtMemAttr>(18), &free, &total),
               ACL_ERROR_RT_PARAM_INVALID, {"aclrtGetMemInfo", "attr must be 0..17", "got 18"});
  expect_error(aclrtGetMemInfo(static_cast<aclrtMemAttr>(-1), &free, &total),
               ACL_ERROR_RT_PARAM_INVALID, {"aclrtGetMemInfo", "attr", "got -1"});
  expect_error(aclrtGetMemInfo(ACL_HBM_MEM, nullptr, &total), ACL_ERROR_RT_PARAM_INVALID,
               {"aclrtGetMemInfo", "free is null"});
  expect_error(aclrtGetMemInfo(ACL_HBM_MEM, &free, nullptr), ACL_ERROR_RT_PARAM_INVALID,
               {"aclrtGetMemInfo", "total is null"});
}

TEST(DeviceInfo, SatModeIsStoredUntilTheDeviceIsReset) {
  aclrtFloatOverflowMode mode = ACL_RT_OVERFLOW_MODE_UNDEF;
  ASSERT_EQ(aclrtGetDeviceSatMode(&mode), ACL_SUCCESS) << aclGetRecentErrMsg();
  EXPECT_EQ(mode, ACL_RT_OVERFLOW_MODE_INFNAN);
  ASSERT_EQ(aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_SATURATION), ACL_SUCCESS);
  ASSERT_EQ(aclrtGetDeviceSatMode(&mode), ACL_SUCCESS);
  EXPECT_EQ(mode, ACL_RT_OVERFLOW_MODE_SATURATION);

  ASSERT_EQ(aclrtResetDevice(0), ACL_SUCCESS);  // the environment's reference: now zero
  expect_error(aclrtGetDeviceSatMode(&mode), ACL_ERROR_RT_CONTEXT_NULL,
               {"aclrtGetDeviceSatMode", "no device is set"});
  expect_error(aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_INFNAN), ACL_ERROR_RT_CONTEXT_NULL,
               {"aclrtSetDeviceSatMode", "no device is set"});
  size_t free = 0;
  size_t total = 0;
  expect_error(aclrtGetMemInfo(ACL_HBM_MEM, &free, &total), ACL_ERROR_RT_CONTEXT_NULL,
               {"aclrtGetMemInfo", "no device is set"});
  oa_test::ensure_live_device();
  ASSERT_EQ(aclrtGetDeviceSatMode(&mode), ACL_SUCCESS);
  EXPECT_EQ(mode, ACL_RT_OVERFLOW_MODE_INFNAN);
}

TEST(DeviceInfo, SatModeBadArguments) {
  expect_error(aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_UNDEF), ACL_ERROR_RT_PARAM_INVALID,
               {"aclrtSetDeviceSatMode", "mode must be 0 (SATURATION) or 1 (INFNAN)", "got 2"});
  expect_error(aclrtSetDeviceSatMode(static_cast<aclrtFloatOverflowMode>(-3)),
               ACL_ERROR_RT_PARAM_INVALID, {"aclrtSetDeviceSatMode", "got -3"});
  expect_error(aclrtGetDeviceSatMode(nullptr), ACL_ERROR_RT_PARAM_INVALID,
               {"aclrtGetDeviceSatMode", "mode is null"});
}

}  // namespace
