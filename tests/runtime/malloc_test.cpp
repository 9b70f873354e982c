// aclrtMalloc/aclrtFree and aclrtMallocHost/aclrtFreeHost: the registry of live allocations
// turns every misuse into an error code and a message, never a crash (SPEC section 2).
#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
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

// The VmFlags of the mapping of this process that contains p (/proc/self/smaps), empty if none.
std::string vm_flags(const void* p) {
  std::ifstream smaps("/proc/self/smaps");
  const auto address = reinterpret_cast<uintptr_t>(p);
  std::string line;
  bool inside = false;
  while (std::getline(smaps, line)) {
    uintptr_t begin = 0;
    uintptr_t end = 0;
    char dash = 0;
    std::istringstream range(line);
    if (range >> std::hex >> begin >> dash >> end && dash == '-') {
      inside = begin <= address && address < end;
    } else if (inside && line.rfind("VmFlags:", 0) == 0) {
      return line.substr(8) + " ";
    }
  }
  return "";
}

// Allocations of a huge page or more put huge pages first unless the policy says NORMAL_ONLY:
// aligned to 2 MiB and advised as transparent huge pages (VmFlags "hg"), where the kernel has them.
TEST(Malloc, HugePagePoliciesAdviseHugePages) {
  if (!std::ifstream("/sys/kernel/mm/transparent_hugepage/enabled")) {
    GTEST_SKIP() << "this kernel has no transparent huge pages";
  }
  const size_t huge_page = size_t{2} << 20;
  for (int policy = ACL_MEM_MALLOC_HUGE_FIRST; policy <= ACL_MEM_MALLOC_NORMAL_ONLY_P2P; ++policy) {
    const bool normal =
        policy == ACL_MEM_MALLOC_NORMAL_ONLY || policy == ACL_MEM_MALLOC_NORMAL_ONLY_P2P;
    for (size_t size : {huge_page, 3 * huge_page + 5}) {
      void* memory = nullptr;
      ASSERT_EQ(aclrtMalloc(&memory, size, static_cast<aclrtMemMallocPolicy>(policy)), ACL_SUCCESS);
      const std::string flags = vm_flags(memory);
      ASSERT_NE(flags, "") << "no mapping holds " << memory;
      if (normal) {
        EXPECT_EQ(flags.find(" hg "), std::string::npos) << policy << " " << size << flags;
      } else {
        EXPECT_EQ(reinterpret_cast<uintptr_t>(memory) % huge_page, 0u) << policy << " " << size;
        EXPECT_NE(flags.find(" hg "), std::string::npos) << policy << " " << size << flags;
      }
      // Every byte is usable, and freeing unmaps a mapping of its own.
      ASSERT_EQ(aclrtMemset(memory, size, 0x5a, size), ACL_SUCCESS) << aclGetRecentErrMsg();
      EXPECT_EQ(static_cast<unsigned char*>(memory)[size - 1], 0x5a);
      EXPECT_EQ(aclrtFree(memory), ACL_SUCCESS);
      if (!normal) {
        EXPECT_EQ(vm_flags(memory), "") << policy << " " << size;
      }
    }
  }
}

#if defined(__SANITIZE_ADDRESS__)
// A huge-page allocation is a mapping rounded up to 2 MiB; the bytes past its size stay off limits.
TEST(MallocDeathTest, AccessPastAHugePageAllocationIsReported) {
  const size_t size = (size_t{2} << 20) + 5;
  void* memory = nullptr;
  ASSERT_EQ(aclrtMalloc(&memory, size, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  auto* volatile bytes = static_cast<unsigned char*>(memory);
  bytes[size - 1] = 1;
  EXPECT_DEATH(bytes[size + 8] = 1, "use-after-poison");
  EXPECT_EQ(aclrtFree(memory), ACL_SUCCESS);
}
#endif

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

// Rounded up to a huge page, this size would wrap around to a small allocation.
TEST(Malloc, SizeThatWrapsWhenRoundedToAHugePageIsRejected) {
  void* memory = nullptr;
  const size_t size = SIZE_MAX - (size_t{2} << 20) + 2;
  expect_error(aclrtMalloc(&memory, size, ACL_MEM_MALLOC_HUGE_FIRST),
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
