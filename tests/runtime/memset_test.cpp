// aclrtMemset: device memory (or aclrtMallocHost memory), inside its allocation.
#include <cstdint>
#include <cstring>
#include <vector>

#include "base/fill_simd.h"
#include "test_env.h"

namespace {

using oa_test::DeviceBuffer;
using oa_test::expect_error;

TEST(Memset, FillsTheRange) {
  DeviceBuffer device(100);
  device.write(std::vector<unsigned char>(100, 0));
  ASSERT_EQ(aclrtMemset(device.as<char>() + 10, 90, 0x1ab, 50), ACL_SUCCESS)
      << aclGetRecentErrMsg();
  std::vector<unsigned char> expected(100, 0);
  std::memset(expected.data() + 10, 0xab, 50);  // the low byte of value, like memset
  EXPECT_EQ(device.read<unsigned char>(), expected);
}

// Ranges of several 1 MiB chunks are filled on all threads, with plain stores up to the size
// base/fill_simd.h counts as cache-resident and streaming stores beyond it; every byte of the range
// and none outside it is written, for any thread count and alignment.
TEST(Memset, LargeRangesOnAnyThreadCount) {
  const size_t cached = (size_t{2} << 20) + 13;
  const auto streamed = static_cast<size_t>(oa::simd::kCachedBytes) + 4097;
  for (const char* threads : {"1", "2", "3"}) {
    oa_test::ScopedEnv env("OPENACLNN_NUM_THREADS", threads);
    for (size_t count : {cached, streamed}) {
      DeviceBuffer device(count + 8);
      device.write(std::vector<unsigned char>(count + 8, 0x11));
      ASSERT_EQ(aclrtMemset(device.as<char>() + 3, count + 5, 0x5c, count), ACL_SUCCESS)
          << aclGetRecentErrMsg();
      const std::vector<unsigned char> got = device.read<unsigned char>();
      size_t wrong = 0;
      for (size_t i = 0; i < got.size(); ++i) {
        wrong += got[i] != (i >= 3 && i < count + 3 ? 0x5c : 0x11);
      }
      EXPECT_EQ(wrong, 0u) << count << " bytes on " << threads << " thread(s)";
    }
  }
}

TEST(Memset, CountAboveMaxCountIsRejected) {
  DeviceBuffer device(64);
  expect_error(aclrtMemset(device.get(), 8, 0, 9), ACL_ERROR_RT_PARAM_INVALID,
               {"aclrtMemset", "count (9)", "maxCount (8)"});
}

TEST(Memset, RangePastTheEndIsRejected) {
  DeviceBuffer device(64);
  expect_error(aclrtMemset(device.get(), 1000, 0, 65), ACL_ERROR_RT_PARAM_INVALID,
               {"aclrtMemset", "devPtr", "runs past the end", "of 64"});
  expect_error(aclrtMemset(device.as<char>() + 60, 1000, 0, 5), ACL_ERROR_RT_PARAM_INVALID,
               {"aclrtMemset", "devPtr", "[60, 65) of 64"});
}

TEST(Memset, PlainHostMemoryIsRejected) {
  std::vector<unsigned char> host(64);
  expect_error(aclrtMemset(host.data(), 64, 0, 64), ACL_ERROR_RT_PARAM_INVALID,
               {"aclrtMemset", "devPtr", "is not device memory"});
  expect_error(aclrtMemset(nullptr, 64, 0, 64), ACL_ERROR_RT_PARAM_INVALID,
               {"aclrtMemset", "devPtr is null"});
}

TEST(Memset, FreedMemoryIsRejected) {
  void* memory = nullptr;
  ASSERT_EQ(aclrtMalloc(&memory, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtFree(memory), ACL_SUCCESS);
  expect_error(aclrtMemset(memory, 64, 0, 64), ACL_ERROR_RT_PARAM_INVALID,
               {"aclrtMemset", "devPtr", "already freed"});
}

// aclrtMallocHost memory may be filled too, within its allocation.
TEST(Memset, AclrtMallocHostMemory) {
  void* pinned = nullptr;
  ASSERT_EQ(aclrtMallocHost(&pinned, 32), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemset(pinned, 32, 3, 32), ACL_SUCCESS) << aclGetRecentErrMsg();
  EXPECT_EQ(static_cast<unsigned char*>(pinned)[31], 3);
  expect_error(aclrtMemset(pinned, 64, 0, 33), ACL_ERROR_RT_PARAM_INVALID,
               {"aclrtMemset", "devPtr", "runs past the end", "32-byte allocation"});
  expect_error(aclrtMemset(static_cast<char*>(pinned) + 16, SIZE_MAX, 0, SIZE_MAX),
               ACL_ERROR_RT_PARAM_INVALID, {"aclrtMemset", "devPtr", "runs past the end"});
  EXPECT_EQ(aclrtFreeHost(pinned), ACL_SUCCESS);
}

TEST(Memset, CountZeroWritesNothing) {
  DeviceBuffer device(8);
  device.write(std::vector<unsigned char>(8, 1));
  EXPECT_EQ(aclrtMemset(device.get(), 0, 0, 0), ACL_SUCCESS);
  EXPECT_EQ(device.read<unsigned char>(), std::vector<unsigned char>(8, 1));
}

}  // namespace
