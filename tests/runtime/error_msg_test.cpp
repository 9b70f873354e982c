// aclGetRecentErrMsg: the calling thread's most recent failure (SPEC section 5).
#include <string>
#include <thread>

#include "test_env.h"

namespace {

using oa_test::expect_error;

TEST(RecentErrMsg, IsThreadLocal) {
  expect_error(aclrtSetDevice(7), ACL_ERROR_RT_INVALID_DEVICEID, {"aclrtSetDevice", "deviceId 7"});
  std::string mine = aclGetRecentErrMsg();

  std::string theirs_before;
  std::string theirs_after;
  std::thread worker([&] {
    theirs_before = aclGetRecentErrMsg();
    expect_error(aclrtGetDeviceCount(nullptr), ACL_ERROR_RT_PARAM_INVALID,
                 {"aclrtGetDeviceCount", "count"});
    theirs_after = aclGetRecentErrMsg();
  });
  worker.join();

  EXPECT_EQ(theirs_before, "");  // a new thread has no failure yet
  EXPECT_NE(theirs_after.find("aclrtGetDeviceCount"), std::string::npos);
  EXPECT_EQ(std::string(aclGetRecentErrMsg()), mine);
}

TEST(RecentErrMsg, SuccessKeepsTheLastFailure) {
  expect_error(aclrtSetDevice(3), ACL_ERROR_RT_INVALID_DEVICEID, {"aclrtSetDevice", "deviceId 3"});
  uint32_t count = 0;
  ASSERT_EQ(aclrtGetDeviceCount(&count), ACL_SUCCESS);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("deviceId 3"), std::string::npos);
}

TEST(RecentErrMsg, TheNextFailureReplacesIt) {
  expect_error(aclrtSetDevice(3), ACL_ERROR_RT_INVALID_DEVICEID, {"aclrtSetDevice", "deviceId 3"});
  expect_error(aclrtGetDevice(nullptr), ACL_ERROR_RT_PARAM_INVALID, {"aclrtGetDevice"});
  EXPECT_EQ(std::string(aclGetRecentErrMsg()).find("aclrtSetDevice"), std::string::npos);
}

}  // namespace
