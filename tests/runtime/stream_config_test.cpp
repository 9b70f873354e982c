// aclrtCreateStreamWithConfig and aclrtSynchronizeStreamWithTimeout.
#include "test_env.h"

namespace {

using oa_test::expect_error;

TEST(StreamConfig, EveryPriorityAndKnownFlagIsAccepted) {
  for (uint32_t priority = 0; priority <= 7; ++priority) {
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStreamWithConfig(&stream, priority,
                                          ACL_STREAM_FAST_LAUNCH | ACL_STREAM_FAST_SYNC),
              ACL_SUCCESS)
        << aclGetRecentErrMsg();
    EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(stream, 100), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
  }
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStreamWithConfig(&stream, 0,
                                        ACL_STREAM_DEVICE_USE_ONLY | ACL_STREAM_HUGE |
                                            ACL_STREAM_PERSISTENT | ACL_STREAM_CPU_SCHEDULE),
            ACL_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
}

TEST(StreamConfig, BadArgumentsAreRejected) {
  aclrtStream stream = nullptr;
  expect_error(aclrtCreateStreamWithConfig(nullptr, 0, 0), ACL_ERROR_RT_PARAM_INVALID,
               {"aclrtCreateStreamWithConfig", "stream is null"});
  expect_error(aclrtCreateStreamWithConfig(&stream, 8, 0), ACL_ERROR_RT_PARAM_INVALID,
               {"aclrtCreateStreamWithConfig", "priority must be 0..7", "got 8"});
  expect_error(aclrtCreateStreamWithConfig(&stream, 0, 0x40), ACL_ERROR_RT_PARAM_INVALID,
               {"aclrtCreateStreamWithConfig", "0x40", "no ACL_STREAM_* flag"});
  EXPECT_EQ(stream, nullptr);
}

TEST(StreamConfig, SynchronizeWithTimeoutChecksStreamAndTimeout) {
  EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(nullptr, -1), ACL_SUCCESS) << aclGetRecentErrMsg();
  EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(nullptr, 0), ACL_SUCCESS);
  expect_error(aclrtSynchronizeStreamWithTimeout(nullptr, -5), ACL_ERROR_RT_PARAM_INVALID,
               {"aclrtSynchronizeStreamWithTimeout", "timeout", "got -5"});
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  ASSERT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
  expect_error(aclrtSynchronizeStreamWithTimeout(stream, 10), ACL_ERROR_RT_PARAM_INVALID,
               {"aclrtSynchronizeStreamWithTimeout", "not a live stream"});
}

TEST(StreamConfig, CreateNeedsADevice) {
  ASSERT_EQ(aclrtResetDevice(0), ACL_SUCCESS);  // the environment's reference: now zero
  aclrtStream stream = nullptr;
  expect_error(aclrtCreateStreamWithConfig(&stream, 0, 0), ACL_ERROR_RT_CONTEXT_NULL,
               {"aclrtCreateStreamWithConfig", "no device is set"});
  oa_test::ensure_live_device();
}

}  // namespace
