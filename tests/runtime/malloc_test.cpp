// aclrtMalloc/aclrtFree and aclrtMallocHost/aclrtFreeHost: the registry of live allocations
// turns every misuse into an error code and a message, never a crash (SPEC section 2).
#include <cstdint>
#include <vector>

#include "test_env.h"

namespace {

using oa_test::expect_error;

TEST(Malloc, AlignedTo64Bytes) {
  for (size_t size : {1, 3, 63, 64, 65, 100, 4097}) {
    void* memory = nullptr;
    ASSERT_EQ(aclrtMalloc(&memory, size, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS) << size;
    EXPECT_EQ(reinterpret_cast<uintptr_t>(memory) % 64, 0u) << size;
    EXPECT_EQ(aclrtFree(memory), ACL_SUCCESS);
  }
}

TEST(Malloc, EveryPolicyIsAccepted) {
  for (int policy = ACL_MEM_MALLOC_HUGE_FIRST; policy <= ACL_MEM_MALLOC_NORMAL_ONLY_P2P; ++policy) {
    void* memory = nullptr;
    ASSERT_EQ(aclrtMalloc(&memory, 32, static_cast<aclrtMemMallocPolicy>(policy)), ACL_SUCCESS);
    EXPECT_EQ(aclrtFree(memory), ACL_SUCCESS);
  }
}

TEST(Malloc, SizeZeroIsRejected) {
  void* memory = &memory;
  expect_error(aclrtMalloc(&memory, 0, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_PARAM_INVALID,
               {"aclrtMalloc", "size", "got 0"});
  EXPECT_EQ(memory, nullptr);
  memory = &memory;
  expect_error(aclrtMallocHost(&memory, 0), ACL_ERROR_RT_PARAM_INVALID,
               {"aclrtMallocHost", "size", "got 0"});
  EXPECT_EQ(memory, nullptr);
}

TEST(Malloc, AbsurdSizeIsRejected) {
  void* memory = nullptr;
  expect_error(aclrtMalloc(&memory, SIZE_MAX, ACL_MEM_MALLOC_HUGE_FIRST),
               ACL_ERROR_RT_MEMORY_ALLOCATION, {"aclrtMalloc", "size", "too large"});
  EXPECT_EQ(memory, nullptr);
}

TEST(Malloc, NullOutputPointerIsRejected) {
  expect_error(aclrtMalloc(nullptr, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_PARAM_INVALID,
               {"aclrtMalloc", "devPtr", "null"});
  expect_error(aclrtMallocHost(nullptr, 64), ACL_ERROR_RT_PARAM_INVALID,
               {"aclrtMallocHost", "hostPtr", "null"});
}

TEST(Free, NullIsRejected) {
  expect_error(aclrtFree(nullptr), ACL_ERROR_RT_PARAM_INVALID, {"aclrtFree", "devPtr", "null"});
  expect_error(aclrtFreeHost(nullptr), ACL_ERROR_RT_PARAM_INVALID,
               {"aclrtFreeHost", "hostPtr", "null"});
}

TEST(Free, DoubleFreeIsRejected) {
  void* memory = nullptr;
  ASSERT_EQ(aclrtMalloc(&memory, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtFree(memory), ACL_SUCCESS);
  expect_error(aclrtFree(memory), ACL_ERROR_RT_PARAM_INVALID,
               {"aclrtFree", "devPtr", "not a live allocation", "already freed"});

  ASSERT_EQ(aclrtMallocHost(&memory, 64), ACL_SUCCESS);
  ASSERT_EQ(aclrtFreeHost(memory), ACL_SUCCESS);
  expect_error(aclrtFreeHost(memory), ACL_ERROR_RT_PARAM_INVALID,
               {"aclrtFreeHost", "hostPtr", "not a live allocation", "aclrtMallocHost"});
}

TEST(Free, UnknownPointerIsRejected) {
  std::vector<char> host(64);
  expect_error(aclrtFree(host.data()), ACL_ERROR_RT_PARAM_INVALID,
               {"aclrtFree", "devPtr", "not a live allocation", "aclrtMalloc"});
  expect_error(aclrtFreeHost(host.data()), ACL_ERROR_RT_PARAM_INVALID,
               {"aclrtFreeHost", "hostPtr", "not a live allocation"});
}

TEST(Free, InteriorPointerIsRejected) {
  oa_test::DeviceBuffer buffer(100);
  void* inside = buffer.as<char>() + 40;
  expect_error(aclrtFree(inside), ACL_ERROR_RT_PARAM_INVALID,
               {"aclrtFree", "devPtr", "40 bytes inside an allocation of 100 bytes"});
  // One past the end is not inside the allocation at all.
  expect_error(aclrtFree(buffer.as<char>() + 100), ACL_ERROR_RT_PARAM_INVALID,
               {"aclrtFree", "devPtr", "not a live allocation"});
  EXPECT_EQ(buffer.read<char>().size(), 100u);  // still live
}

TEST(Free, HostAndDeviceMemoryAreNotInterchangeable) {
  void* host = nullptr;
  ASSERT_EQ(aclrtMallocHost(&host, 64), ACL_SUCCESS);
  expect_error(aclrtFree(host), ACL_ERROR_RT_PARAM_INVALID,
               {"aclrtFree", "devPtr", "host memory from aclrtMallocHost", "aclrtFreeHost"});
  EXPECT_EQ(aclrtFreeHost(host), ACL_SUCCESS) << aclGetRecentErrMsg();

  void* device = nullptr;
  ASSERT_EQ(aclrtMalloc(&device, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  expect_error(aclrtFreeHost(device), ACL_ERROR_RT_PARAM_INVALID,
               {"aclrtFreeHost", "hostPtr", "device memory", "release it with aclrtFree"});
  EXPECT_EQ(aclrtFree(device), ACL_SUCCESS) << aclGetRecentErrMsg();
}

TEST(MallocHost, IsUsableHostMemory) {
  void* host = nullptr;
  ASSERT_EQ(aclrtMallocHost(&host, 256), ACL_SUCCESS);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(host) % 64, 0u);
  auto* bytes = static_cast<unsigned char*>(host);
  for (int i = 0; i < 256; ++i) {
    bytes[i] = static_cast<unsigned char>(i);
  }
  EXPECT_EQ(bytes[255], 255);
  EXPECT_EQ(aclrtFreeHost(host), ACL_SUCCESS);
}

}  // namespace
