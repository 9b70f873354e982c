// aclrtMemcpyAsync / aclrtMemsetAsync: the synchronous checks plus a live stream (or null).
#include <algorithm>
#include <vector>

#include "test_env.h"

namespace {

using oa_test::DeviceBuffer;
using oa_test::expect_error;

class AsyncTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(aclrtCreateStream(&stream_), ACL_SUCCESS); }
  void TearDown() override {
    if (stream_ != nullptr) {
      EXPECT_EQ(aclrtDestroyStream(stream_), ACL_SUCCESS);
    }
  }
  aclrtStream stream_ = nullptr;
};

TEST_F(AsyncTest, CopyAndFillOnACreatedStream) {
  DeviceBuffer device(32);
  std::vector<unsigned char> source(32, 0x11);
  ASSERT_EQ(
      aclrtMemcpyAsync(device.get(), 32, source.data(), 32, ACL_MEMCPY_HOST_TO_DEVICE, stream_),
      ACL_SUCCESS)
      << aclGetRecentErrMsg();
  ASSERT_EQ(aclrtMemsetAsync(device.get(), 32, 0x22, 8, stream_), ACL_SUCCESS)
      << aclGetRecentErrMsg();
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  std::vector<unsigned char> expected(32, 0x11);
  std::fill(expected.begin(), expected.begin() + 8, 0x22);
  EXPECT_EQ(device.read<unsigned char>(), expected);
}

TEST_F(AsyncTest, NullIsTheDefaultStream) {
  DeviceBuffer device(8);
  std::vector<unsigned char> source(8, 5);
  EXPECT_EQ(aclrtMemcpyAsync(device.get(), 8, source.data(), 8, ACL_MEMCPY_DEFAULT, nullptr),
            ACL_SUCCESS);
  EXPECT_EQ(aclrtMemsetAsync(device.get(), 8, 6, 8, nullptr), ACL_SUCCESS);
  EXPECT_EQ(device.read<unsigned char>(), std::vector<unsigned char>(8, 6));
}

TEST_F(AsyncTest, DestroyedStreamIsRejected) {
  DeviceBuffer device(8);
  device.write(std::vector<unsigned char>(8, 1));
  ASSERT_EQ(aclrtDestroyStream(stream_), ACL_SUCCESS);
  aclrtStream destroyed = stream_;
  stream_ = nullptr;
  std::vector<unsigned char> source(8, 2);
  expect_error(
      aclrtMemcpyAsync(device.get(), 8, source.data(), 8, ACL_MEMCPY_HOST_TO_DEVICE, destroyed),
      ACL_ERROR_RT_PARAM_INVALID, {"aclrtMemcpyAsync", "stream", "not a live stream"});
  expect_error(aclrtMemsetAsync(device.get(), 8, 3, 8, destroyed), ACL_ERROR_RT_PARAM_INVALID,
               {"aclrtMemsetAsync", "stream", "not a live stream"});
  EXPECT_EQ(device.read<unsigned char>(), std::vector<unsigned char>(8, 1));
}

TEST_F(AsyncTest, SynchronousChecksApply) {
  DeviceBuffer device(8);
  std::vector<unsigned char> host(16);
  expect_error(
      aclrtMemcpyAsync(device.get(), 8, host.data(), 9, ACL_MEMCPY_HOST_TO_DEVICE, stream_),
      ACL_ERROR_RT_PARAM_INVALID, {"aclrtMemcpyAsync", "count (9)", "destMax (8)"});
  expect_error(
      aclrtMemcpyAsync(device.get(), 16, host.data(), 9, ACL_MEMCPY_HOST_TO_DEVICE, stream_),
      ACL_ERROR_RT_PARAM_INVALID, {"aclrtMemcpyAsync", "dst", "runs past the end"});
  expect_error(aclrtMemsetAsync(host.data(), 16, 0, 16, stream_), ACL_ERROR_RT_PARAM_INVALID,
               {"aclrtMemsetAsync", "devPtr", "is not device memory"});
  expect_error(aclrtMemsetAsync(device.get(), 4, 0, 5, stream_), ACL_ERROR_RT_PARAM_INVALID,
               {"aclrtMemsetAsync", "count (5)", "maxCount (4)"});
}

}  // namespace
