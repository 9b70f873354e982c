// aclInit / aclFinalize, and what needs them (SPEC section 1). The global environment has already
// initialized the library and set the device; every test here leaves that state as it found it.
#include <cstdio>
#include <string>

#include "test_env.h"

namespace {

using oa_test::expect_error;

TEST(Init, RepeatInitializeKeepsTheLiveState) {
  expect_error(aclInit(nullptr), ACL_ERROR_REPEAT_INITIALIZE, {"aclInit", "already initialized"});
  int32_t device = -1;
  EXPECT_EQ(aclrtGetDevice(&device), ACL_SUCCESS);
  EXPECT_EQ(device, 0);
  oa_test::DeviceBuffer still_usable(16);
  EXPECT_NE(still_usable.get(), nullptr);
}

TEST(Init, RepeatInitializeIsCheckedBeforeTheConfigPath) {
  expect_error(aclInit("/nonexistent/openaclnn.json"), ACL_ERROR_REPEAT_INITIALIZE,
               {"aclInit", "already initialized"});
}

// Each test starts finalized and ends with the environment's state restored.
class Finalized : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(aclFinalize(), ACL_SUCCESS) << aclGetRecentErrMsg(); }
  void TearDown() override { oa_test::ensure_live_device(); }
};

TEST_F(Finalized, FinalizeTwiceIsRepeatFinalize) {
  expect_error(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE, {"aclFinalize", "not initialized"});
}

TEST_F(Finalized, SetDeviceNeedsInit) {
  expect_error(aclrtSetDevice(0), ACL_ERROR_UNINITIALIZE, {"aclrtSetDevice", "aclInit"});
}

TEST_F(Finalized, MissingConfigPathIsInvalidFile) {
  const char* path = "/nonexistent/openaclnn.json";
  expect_error(aclInit(path), ACL_ERROR_INVALID_FILE, {"aclInit", "configPath", path});
  // The failed call left the library uninitialized.
  expect_error(aclrtSetDevice(0), ACL_ERROR_UNINITIALIZE, {"aclrtSetDevice", "aclInit"});
}

TEST_F(Finalized, DirectoryConfigPathIsInvalidFile) {
  std::string path = ::testing::TempDir();
  expect_error(aclInit(path.c_str()), ACL_ERROR_INVALID_FILE, {"aclInit", "configPath", path});
}

TEST_F(Finalized, ReadableConfigPathInitializes) {
  std::string path = ::testing::TempDir() + "openaclnn_init_test.json";
  FILE* file = std::fopen(path.c_str(), "w");
  ASSERT_NE(file, nullptr);
  std::fputs("{}\n", file);
  std::fclose(file);
  EXPECT_EQ(aclInit(path.c_str()), ACL_SUCCESS) << aclGetRecentErrMsg();
  std::remove(path.c_str());
}

TEST_F(Finalized, EmptyConfigPathMeansNone) {
  EXPECT_EQ(aclInit(""), ACL_SUCCESS) << aclGetRecentErrMsg();
}

TEST_F(Finalized, InitializedWithoutDeviceRejectsDeviceWork) {
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  int32_t device = -1;
  expect_error(aclrtGetDevice(&device), ACL_ERROR_RT_CONTEXT_NULL,
               {"aclrtGetDevice", "aclrtSetDevice"});
  void* memory = nullptr;
  expect_error(aclrtMalloc(&memory, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_CONTEXT_NULL,
               {"aclrtMalloc", "aclrtSetDevice"});
  EXPECT_EQ(memory, nullptr);
  expect_error(aclrtMallocHost(&memory, 64), ACL_ERROR_RT_CONTEXT_NULL,
               {"aclrtMallocHost", "aclrtSetDevice"});
  aclrtStream stream = nullptr;
  expect_error(aclrtCreateStream(&stream), ACL_ERROR_RT_CONTEXT_NULL,
               {"aclrtCreateStream", "aclrtSetDevice"});
  aclrtContext context = nullptr;
  expect_error(aclrtCreateContext(&context, 0), ACL_ERROR_RT_CONTEXT_NULL,
               {"aclrtCreateContext", "aclrtSetDevice"});
  expect_error(aclrtSynchronizeDevice(), ACL_ERROR_RT_CONTEXT_NULL,
               {"aclrtSynchronizeDevice", "aclrtSetDevice"});
  expect_error(aclrtResetDevice(0), ACL_ERROR_RT_CONTEXT_NULL,
               {"aclrtResetDevice", "device 0 is not set"});
}

TEST(Init, FinalizeReleasesEveryAllocationAndStream) {
  void* memory = nullptr;
  ASSERT_EQ(aclrtMalloc(&memory, 256, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
  oa_test::ensure_live_device();
  expect_error(aclrtFree(memory), ACL_ERROR_RT_PARAM_INVALID,
               {"aclrtFree", "devPtr", "not a live allocation"});
  expect_error(aclrtDestroyStream(stream), ACL_ERROR_RT_PARAM_INVALID,
               {"aclrtDestroyStream", "not a live stream"});
}

TEST(Init, AclnnInitAndFinalizeSucceed) {
  EXPECT_EQ(aclnnInit(nullptr), ACLNN_SUCCESS);
  EXPECT_EQ(aclnnFinalize(), ACLNN_SUCCESS);
}

}  // namespace
