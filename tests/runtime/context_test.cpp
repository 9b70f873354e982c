// Contexts: the default one from aclrtSetDevice, created ones, and the per-thread current context.
#include <thread>

#include "test_env.h"

namespace {

using oa_test::expect_error;

aclrtContext current_context() {
  aclrtContext context = nullptr;
  EXPECT_EQ(aclrtGetCurrentContext(&context), ACL_SUCCESS) << aclGetRecentErrMsg();
  return context;
}

// Restores the calling thread's current context when the test ends.
class ContextTest : public ::testing::Test {
 protected:
  void SetUp() override {
    default_context_ = current_context();
    ASSERT_NE(default_context_, nullptr);
  }
  void TearDown() override {
    EXPECT_EQ(aclrtSetCurrentContext(default_context_), ACL_SUCCESS) << aclGetRecentErrMsg();
  }
  aclrtContext default_context_ = nullptr;
};

TEST_F(ContextTest, CreateMakesCurrentAndDestroyReleases) {
  aclrtContext created = nullptr;
  ASSERT_EQ(aclrtCreateContext(&created, 0), ACL_SUCCESS) << aclGetRecentErrMsg();
  EXPECT_NE(created, nullptr);
  EXPECT_NE(created, default_context_);
  EXPECT_EQ(current_context(), created);

  EXPECT_EQ(aclrtSetCurrentContext(default_context_), ACL_SUCCESS);
  EXPECT_EQ(current_context(), default_context_);
  EXPECT_EQ(aclrtSetCurrentContext(created), ACL_SUCCESS);
  EXPECT_EQ(current_context(), created);

  EXPECT_EQ(aclrtDestroyContext(created), ACL_SUCCESS) << aclGetRecentErrMsg();
  expect_error(aclrtDestroyContext(created), ACL_ERROR_RT_PARAM_INVALID,
               {"aclrtDestroyContext", "not a live context"});
  expect_error(aclrtSetCurrentContext(created), ACL_ERROR_RT_PARAM_INVALID,
               {"aclrtSetCurrentContext", "not a live context"});
}

TEST_F(ContextTest, DestroyingTheCurrentContextLeavesTheThreadWithout) {
  aclrtContext created = nullptr;
  ASSERT_EQ(aclrtCreateContext(&created, 0), ACL_SUCCESS);
  ASSERT_EQ(aclrtDestroyContext(created), ACL_SUCCESS);
  aclrtContext context = nullptr;
  expect_error(aclrtGetCurrentContext(&context), ACL_ERROR_RT_CONTEXT_NULL,
               {"aclrtGetCurrentContext", "no current context"});
}

TEST_F(ContextTest, DestroyUnknownOrNullIsRejected) {
  int not_a_context = 0;
  expect_error(aclrtDestroyContext(&not_a_context), ACL_ERROR_RT_PARAM_INVALID,
               {"aclrtDestroyContext", "not a live context"});
  expect_error(aclrtDestroyContext(nullptr), ACL_ERROR_RT_PARAM_INVALID,
               {"aclrtDestroyContext", "not a live context"});
}

TEST_F(ContextTest, DestroyDefaultIsRejected) {
  expect_error(aclrtDestroyContext(default_context_), ACL_ERROR_RT_PARAM_INVALID,
               {"aclrtDestroyContext", "default context", "aclrtResetDevice"});
  EXPECT_EQ(current_context(), default_context_);
}

TEST_F(ContextTest, BadArguments) {
  expect_error(aclrtCreateContext(nullptr, 0), ACL_ERROR_RT_PARAM_INVALID,
               {"aclrtCreateContext", "context is null"});
  aclrtContext created = nullptr;
  expect_error(aclrtCreateContext(&created, 1), ACL_ERROR_RT_INVALID_DEVICEID,
               {"aclrtCreateContext", "deviceId 1"});
  int not_a_context = 0;
  expect_error(aclrtSetCurrentContext(&not_a_context), ACL_ERROR_RT_PARAM_INVALID,
               {"aclrtSetCurrentContext", "not a live context"});
  expect_error(aclrtSetCurrentContext(nullptr), ACL_ERROR_RT_PARAM_INVALID,
               {"aclrtSetCurrentContext", "not a live context"});
  expect_error(aclrtGetCurrentContext(nullptr), ACL_ERROR_RT_PARAM_INVALID,
               {"aclrtGetCurrentContext", "context is null"});
  EXPECT_EQ(current_context(), default_context_);
}

TEST_F(ContextTest, CurrentContextIsPerThread) {
  aclrtContext main_context = nullptr;
  ASSERT_EQ(aclrtCreateContext(&main_context, 0), ACL_SUCCESS);
  aclrtContext thread_context = nullptr;
  std::thread worker([&] {
    // A new thread has no current context until it sets one.
    aclrtContext context = nullptr;
    expect_error(aclrtGetCurrentContext(&context), ACL_ERROR_RT_CONTEXT_NULL,
                 {"aclrtGetCurrentContext", "aclrtSetDevice"});
    EXPECT_EQ(aclrtSetCurrentContext(main_context), ACL_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(current_context(), main_context);
    EXPECT_EQ(aclrtCreateContext(&thread_context, 0), ACL_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(current_context(), thread_context);
    // aclrtSetDevice on this thread makes the default context current here.
    EXPECT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    EXPECT_EQ(current_context(), default_context_);
    EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  });
  worker.join();
  EXPECT_EQ(current_context(), main_context);
  EXPECT_EQ(aclrtDestroyContext(thread_context), ACL_SUCCESS) << aclGetRecentErrMsg();
  EXPECT_EQ(current_context(), main_context);
  EXPECT_EQ(aclrtDestroyContext(main_context), ACL_SUCCESS) << aclGetRecentErrMsg();
}

}  // namespace
