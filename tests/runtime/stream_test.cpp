// Streams: created, synchronized and destroyed; null is the default stream.
#include "test_env.h"

namespace {

using oa_test::expect_error;

TEST(Stream, CreateSynchronizeDestroy) {
  aclrtStream first = nullptr;
  aclrtStream second = nullptr;
  ASSERT_EQ(aclrtCreateStream(&first), ACL_SUCCESS) << aclGetRecentErrMsg();
  ASSERT_EQ(aclrtCreateStream(&second), ACL_SUCCESS) << aclGetRecentErrMsg();
  EXPECT_NE(first, nullptr);
  EXPECT_NE(first, second);
  EXPECT_EQ(aclrtSynchronizeStream(first), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyStream(first), ACL_SUCCESS);
  // Destroying one stream leaves the others alone.
  EXPECT_EQ(aclrtSynchronizeStream(second), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyStream(second), ACL_SUCCESS);
}

TEST(Stream, NullIsTheDefaultStream) {
  EXPECT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS) << aclGetRecentErrMsg();
}

TEST(Stream, DestroyTwiceIsRejected) {
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  ASSERT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
  expect_error(aclrtDestroyStream(stream), ACL_ERROR_RT_PARAM_INVALID,
               {"aclrtDestroyStream", "not a live stream"});
  expect_error(aclrtSynchronizeStream(stream), ACL_ERROR_RT_PARAM_INVALID,
               {"aclrtSynchronizeStream", "stream", "not a live stream"});
}

TEST(Stream, UnknownStreamIsRejected) {
  int not_a_stream = 0;
  expect_error(aclrtSynchronizeStream(&not_a_stream), ACL_ERROR_RT_PARAM_INVALID,
               {"aclrtSynchronizeStream", "stream", "not a live stream"});
  expect_error(aclrtDestroyStream(&not_a_stream), ACL_ERROR_RT_PARAM_INVALID,
               {"aclrtDestroyStream", "not a live stream"});
}

TEST(Stream, DestroyingTheDefaultStreamIsRejected) {
  expect_error(aclrtDestroyStream(nullptr), ACL_ERROR_RT_PARAM_INVALID,
               {"aclrtDestroyStream", "not a live stream"});
}

TEST(Stream, CreateNeedsAnOutputPointer) {
  expect_error(aclrtCreateStream(nullptr), ACL_ERROR_RT_PARAM_INVALID,
               {"aclrtCreateStream", "stream is null"});
}

}  // namespace
