// aclrtMemcpy: bounds, kinds and the pointers' memory checked against the registry (SPEC section
// 2).
#include <cstdint>
#include <cstring>
#include <numeric>
#include <vector>

#include "base/fill_simd.h"
#include "test_env.h"

namespace {

using oa_test::DeviceBuffer;
using oa_test::expect_error;

std::vector<unsigned char> pattern(size_t size, unsigned seed) {
  std::vector<unsigned char> bytes(size);
  for (size_t i = 0; i < size; ++i) {
    bytes[i] = static_cast<unsigned char>((i * 131 + seed) ^ (i >> 9));
  }
  return bytes;
}

TEST(Memcpy, AllExplicitKinds) {
  std::vector<unsigned char> source = pattern(100, 1);
  std::vector<unsigned char> host(100);
  DeviceBuffer a(100);
  DeviceBuffer b(100);
  ASSERT_EQ(aclrtMemcpy(a.get(), 100, source.data(), 100, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(b.get(), 100, a.get(), 100, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(host.data(), 100, b.get(), 100, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  EXPECT_EQ(host, source);
  std::vector<unsigned char> copy(100);
  ASSERT_EQ(aclrtMemcpy(copy.data(), 100, host.data(), 100, ACL_MEMCPY_HOST_TO_HOST), ACL_SUCCESS);
  EXPECT_EQ(copy, source);
}

TEST(Memcpy, DefaultInfersAllFourDirections) {
  std::vector<unsigned char> source = pattern(64, 2);
  DeviceBuffer a(64);
  DeviceBuffer b(64);
  std::vector<unsigned char> host(64);
  std::vector<unsigned char> host_copy(64);
  ASSERT_EQ(aclrtMemcpy(a.get(), 64, source.data(), 64, ACL_MEMCPY_DEFAULT), ACL_SUCCESS)
      << aclGetRecentErrMsg();
  ASSERT_EQ(aclrtMemcpy(b.get(), 64, a.get(), 64, ACL_MEMCPY_DEFAULT), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(host.data(), 64, b.get(), 64, ACL_MEMCPY_DEFAULT), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(host_copy.data(), 64, host.data(), 64, ACL_MEMCPY_DEFAULT), ACL_SUCCESS);
  EXPECT_EQ(host, source);
  EXPECT_EQ(host_copy, source);
  // Inferring the kind does not lift the bounds check of the device side.
  expect_error(aclrtMemcpy(a.get(), 65, source.data(), 65, ACL_MEMCPY_DEFAULT),
               ACL_ERROR_RT_PARAM_INVALID, {"aclrtMemcpy", "dst", "runs past the end"});
}

TEST(Memcpy, CountAboveDestMaxIsRejected) {
  DeviceBuffer device(64);
  std::vector<unsigned char> host(64);
  expect_error(aclrtMemcpy(device.get(), 16, host.data(), 17, ACL_MEMCPY_HOST_TO_DEVICE),
               ACL_ERROR_RT_PARAM_INVALID, {"aclrtMemcpy", "count (17)", "destMax (16)"});
}

TEST(Memcpy, DeviceRangePastTheEndIsRejectedOnEitherSide) {
  DeviceBuffer device(100);
  std::vector<unsigned char> host(256);
  expect_error(aclrtMemcpy(device.get(), 256, host.data(), 101, ACL_MEMCPY_HOST_TO_DEVICE),
               ACL_ERROR_RT_PARAM_INVALID,
               {"aclrtMemcpy", "dst", "101 bytes", "runs past the end", "of 100"});
  expect_error(aclrtMemcpy(host.data(), 256, device.get(), 101, ACL_MEMCPY_DEVICE_TO_HOST),
               ACL_ERROR_RT_PARAM_INVALID, {"aclrtMemcpy", "src", "runs past the end"});
  // From inside the allocation: bytes [60, 101) of 100.
  char* inside = device.as<char>() + 60;
  expect_error(aclrtMemcpy(inside, 41, host.data(), 41, ACL_MEMCPY_HOST_TO_DEVICE),
               ACL_ERROR_RT_PARAM_INVALID, {"aclrtMemcpy", "dst", "[60, 101) of 100"});
  expect_error(aclrtMemcpy(host.data(), 41, inside, 41, ACL_MEMCPY_DEVICE_TO_HOST),
               ACL_ERROR_RT_PARAM_INVALID, {"aclrtMemcpy", "src", "[60, 101) of 100"});
  DeviceBuffer other(100);
  expect_error(aclrtMemcpy(other.get(), 100, inside, 41, ACL_MEMCPY_DEVICE_TO_DEVICE),
               ACL_ERROR_RT_PARAM_INVALID, {"aclrtMemcpy", "src", "runs past the end"});
  expect_error(aclrtMemcpy(inside, 100, other.get(), 41, ACL_MEMCPY_DEVICE_TO_DEVICE),
               ACL_ERROR_RT_PARAM_INVALID, {"aclrtMemcpy", "dst", "runs past the end"});
  // Exactly to the end is fine.
  EXPECT_EQ(aclrtMemcpy(inside, 40, host.data(), 40, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
}

TEST(Memcpy, HostPointerOnTheDeviceSideNamesTheArgument) {
  DeviceBuffer device(64);
  std::vector<unsigned char> host(64);
  std::vector<unsigned char> other(64);
  expect_error(aclrtMemcpy(host.data(), 64, other.data(), 64, ACL_MEMCPY_HOST_TO_DEVICE),
               ACL_ERROR_RT_PARAM_INVALID, {"aclrtMemcpy", "dst", "is not device memory"});
  expect_error(aclrtMemcpy(host.data(), 64, other.data(), 64, ACL_MEMCPY_DEVICE_TO_HOST),
               ACL_ERROR_RT_PARAM_INVALID, {"aclrtMemcpy", "src", "is not device memory"});
  expect_error(aclrtMemcpy(device.get(), 64, host.data(), 64, ACL_MEMCPY_DEVICE_TO_DEVICE),
               ACL_ERROR_RT_PARAM_INVALID, {"aclrtMemcpy", "src", "is not device memory"});
  expect_error(aclrtMemcpy(host.data(), 64, device.get(), 64, ACL_MEMCPY_DEVICE_TO_DEVICE),
               ACL_ERROR_RT_PARAM_INVALID, {"aclrtMemcpy", "dst", "is not device memory"});
  void* pinned = nullptr;
  ASSERT_EQ(aclrtMallocHost(&pinned, 64), ACL_SUCCESS);
  expect_error(aclrtMemcpy(pinned, 64, host.data(), 64, ACL_MEMCPY_HOST_TO_DEVICE),
               ACL_ERROR_RT_PARAM_INVALID,
               {"aclrtMemcpy", "dst", "host memory from aclrtMallocHost"});
  EXPECT_EQ(aclrtFreeHost(pinned), ACL_SUCCESS);
}

TEST(Memcpy, DevicePointerOnTheHostSideNamesTheArgument) {
  DeviceBuffer device(64);
  DeviceBuffer other(64);
  std::vector<unsigned char> host(64);
  expect_error(aclrtMemcpy(other.get(), 64, device.get(), 64, ACL_MEMCPY_HOST_TO_DEVICE),
               ACL_ERROR_RT_PARAM_INVALID,
               {"aclrtMemcpy", "src", "is device memory", "kind says it is host memory"});
  expect_error(aclrtMemcpy(device.get(), 64, other.get(), 64, ACL_MEMCPY_DEVICE_TO_HOST),
               ACL_ERROR_RT_PARAM_INVALID, {"aclrtMemcpy", "dst", "is device memory"});
  expect_error(aclrtMemcpy(device.get(), 64, host.data(), 64, ACL_MEMCPY_HOST_TO_HOST),
               ACL_ERROR_RT_PARAM_INVALID, {"aclrtMemcpy", "dst", "is device memory"});
  expect_error(aclrtMemcpy(host.data(), 64, device.get(), 64, ACL_MEMCPY_HOST_TO_HOST),
               ACL_ERROR_RT_PARAM_INVALID, {"aclrtMemcpy", "src", "is device memory"});
}

TEST(Memcpy, AclrtMallocHostMemoryIsHostSide) {
  void* pinned = nullptr;
  ASSERT_EQ(aclrtMallocHost(&pinned, 64), ACL_SUCCESS);
  std::memset(pinned, 7, 64);
  DeviceBuffer device(64);
  EXPECT_EQ(aclrtMemcpy(device.get(), 64, pinned, 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemcpy(device.get(), 64, pinned, 64, ACL_MEMCPY_DEFAULT), ACL_SUCCESS);
  EXPECT_EQ(device.read<unsigned char>(), std::vector<unsigned char>(64, 7));
  EXPECT_EQ(aclrtFreeHost(pinned), ACL_SUCCESS);
}

TEST(Memcpy, CountZeroCopiesNothing) {
  DeviceBuffer device(16);
  std::vector<unsigned char> zeros(16, 0);
  device.write(zeros);
  std::vector<unsigned char> host(16, 9);
  EXPECT_EQ(aclrtMemcpy(device.get(), 16, host.data(), 0, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemcpy(device.get(), 0, host.data(), 0, ACL_MEMCPY_DEFAULT), ACL_SUCCESS);
  EXPECT_EQ(device.read<unsigned char>(), zeros);
}

TEST(Memcpy, NullPointersAreRejected) {
  DeviceBuffer device(16);
  std::vector<unsigned char> host(16);
  expect_error(aclrtMemcpy(nullptr, 16, host.data(), 16, ACL_MEMCPY_HOST_TO_DEVICE),
               ACL_ERROR_RT_PARAM_INVALID, {"aclrtMemcpy", "dst is null"});
  expect_error(aclrtMemcpy(device.get(), 16, nullptr, 16, ACL_MEMCPY_HOST_TO_DEVICE),
               ACL_ERROR_RT_PARAM_INVALID, {"aclrtMemcpy", "src is null"});
}

TEST(Memcpy, BadKindIsRejected) {
  DeviceBuffer device(16);
  std::vector<unsigned char> host(16);
  for (int kind : {5, 7, -1}) {
    expect_error(aclrtMemcpy(device.get(), 16, host.data(), 16, static_cast<aclrtMemcpyKind>(kind)),
                 ACL_ERROR_RT_PARAM_INVALID,
                 {"aclrtMemcpy", "kind", "got " + std::to_string(kind)});
  }
}

TEST(Memcpy, OverlappingDeviceRangesCopyLikeMemmove) {
  std::vector<unsigned char> source = pattern(64, 3);
  DeviceBuffer device(64);
  device.write(source);
  ASSERT_EQ(aclrtMemcpy(device.as<char>() + 1, 63, device.get(), 63, ACL_MEMCPY_DEVICE_TO_DEVICE),
            ACL_SUCCESS);
  std::vector<unsigned char> expected = source;
  std::memmove(expected.data() + 1, source.data(), 63);
  EXPECT_EQ(device.read<unsigned char>(), expected);
}

// Copies of at least 2 MiB are split over the threads in 1 MiB chunks; the tail chunk is partial.
TEST(Memcpy, LargeCopiesAreExact) {
  constexpr size_t kSize = (size_t{5} << 20) + 123;
  for (const char* threads : {"1", "4"}) {
    oa_test::ScopedEnv env("OPENACLNN_NUM_THREADS", threads);
    std::vector<unsigned char> source = pattern(kSize, 4);
    DeviceBuffer a(kSize);
    DeviceBuffer b(kSize);
    ASSERT_EQ(aclrtMemcpy(a.get(), kSize, source.data(), kSize, ACL_MEMCPY_HOST_TO_DEVICE),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpy(b.get(), kSize, a.get(), kSize, ACL_MEMCPY_DEVICE_TO_DEVICE),
              ACL_SUCCESS);
    std::vector<unsigned char> back(kSize);
    ASSERT_EQ(aclrtMemcpy(back.data(), kSize, b.get(), kSize, ACL_MEMCPY_DEVICE_TO_HOST),
              ACL_SUCCESS);
    EXPECT_TRUE(back == source) << "threads " << threads;
    // An unaligned sub-range, also above the threshold.
    size_t count = kSize - 777;
    std::vector<unsigned char> part(kSize, 0);
    ASSERT_EQ(aclrtMemcpy(part.data() + 5, kSize - 5, b.as<char>() + 777, count,
                          ACL_MEMCPY_DEVICE_TO_HOST),
              ACL_SUCCESS);
    EXPECT_EQ(std::memcmp(part.data() + 5, source.data() + 777, count), 0) << "threads " << threads;
    EXPECT_EQ(part[0], 0);
  }
}

// A copy that touches more than base/fill_simd.h's cache size (read and written) is written with
// streaming stores: exact too, from and to unaligned addresses.
TEST(Memcpy, CopiesBeyondTheCacheSizeAreExact) {
  const auto size = static_cast<size_t>(oa::simd::kCachedBytes / 2 + 4099);
  std::vector<unsigned char> source = pattern(size, 5);
  DeviceBuffer a(size);
  DeviceBuffer b(size + 64);
  a.write(source);
  std::vector<unsigned char> guard(size + 64, 0xA5);
  b.write(guard);
  ASSERT_EQ(aclrtMemcpy(b.as<char>() + 3, size + 61, a.as<char>() + 1, size - 1,
                        ACL_MEMCPY_DEVICE_TO_DEVICE),
            ACL_SUCCESS);
  const std::vector<unsigned char> got = b.read<unsigned char>();
  std::vector<unsigned char> expected = guard;
  std::memcpy(expected.data() + 3, source.data() + 1, size - 1);
  EXPECT_TRUE(got == expected);
}

}  // namespace
