// aclrt(Ctx)Set/GetSysParamOpt: per-context and process-wide options 0..3, stored as given.
#include <thread>

#include "test_env.h"

namespace {

using oa_test::expect_error;

const aclSysParamOpt kLastOption = static_cast<aclSysParamOpt>(3);
// Kept as int: an aclSysParamOpt object holding a value outside the enum's range is undefined
// behaviour in C++ (UBSan checks loads of it); the API receives such values from C callers.
const int kBadOptions[] = {4, -1};

int64_t ctx_option(aclSysParamOpt opt) {
  int64_t value = -12345;
  EXPECT_EQ(aclrtCtxGetSysParamOpt(opt, &value), ACL_SUCCESS) << aclGetRecentErrMsg();
  return value;
}

int64_t process_option(aclSysParamOpt opt) {
  int64_t value = -12345;
  EXPECT_EQ(aclrtGetSysParamOpt(opt, &value), ACL_SUCCESS) << aclGetRecentErrMsg();
  return value;
}

TEST(SysParam, ContextOptionRoundTrip) {
  EXPECT_EQ(ctx_option(ACL_OPT_DETERMINISTIC), 0);
  ASSERT_EQ(aclrtCtxSetSysParamOpt(ACL_OPT_DETERMINISTIC, 1), ACL_SUCCESS);
  EXPECT_EQ(ctx_option(ACL_OPT_DETERMINISTIC), 1);
  ASSERT_EQ(aclrtCtxSetSysParamOpt(kLastOption, 42), ACL_SUCCESS) << aclGetRecentErrMsg();
  EXPECT_EQ(ctx_option(kLastOption), 42);
  // The context options are not the process-wide ones.
  EXPECT_EQ(process_option(ACL_OPT_DETERMINISTIC), 0);
  EXPECT_EQ(aclrtCtxSetSysParamOpt(ACL_OPT_DETERMINISTIC, 0), ACL_SUCCESS);
  EXPECT_EQ(aclrtCtxSetSysParamOpt(kLastOption, 0), ACL_SUCCESS);
}

TEST(SysParam, EachContextHasItsOwnOptions) {
  aclrtContext default_context = nullptr;
  ASSERT_EQ(aclrtGetCurrentContext(&default_context), ACL_SUCCESS);
  ASSERT_EQ(aclrtCtxSetSysParamOpt(ACL_OPT_STRONG_CONSISTENCY, 5), ACL_SUCCESS);
  aclrtContext created = nullptr;
  ASSERT_EQ(aclrtCreateContext(&created, 0), ACL_SUCCESS);
  EXPECT_EQ(ctx_option(ACL_OPT_STRONG_CONSISTENCY), 0);
  EXPECT_EQ(aclrtCtxSetSysParamOpt(ACL_OPT_STRONG_CONSISTENCY, 9), ACL_SUCCESS);
  EXPECT_EQ(aclrtSetCurrentContext(default_context), ACL_SUCCESS);
  EXPECT_EQ(ctx_option(ACL_OPT_STRONG_CONSISTENCY), 5);
  EXPECT_EQ(aclrtSetCurrentContext(created), ACL_SUCCESS);
  EXPECT_EQ(ctx_option(ACL_OPT_STRONG_CONSISTENCY), 9);
  EXPECT_EQ(aclrtSetCurrentContext(default_context), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyContext(created), ACL_SUCCESS);
  EXPECT_EQ(aclrtCtxSetSysParamOpt(ACL_OPT_STRONG_CONSISTENCY, 0), ACL_SUCCESS);
}

TEST(SysParam, ProcessOptionRoundTrip) {
  ASSERT_EQ(aclrtSetSysParamOpt(ACL_OPT_DETERMINISTIC, 1), ACL_SUCCESS);
  EXPECT_EQ(process_option(ACL_OPT_DETERMINISTIC), 1);
  ASSERT_EQ(aclrtSetSysParamOpt(ACL_OPT_ENABLE_DEBUG_KERNEL, -7), ACL_SUCCESS);
  EXPECT_EQ(process_option(ACL_OPT_ENABLE_DEBUG_KERNEL), -7);
  EXPECT_EQ(ctx_option(ACL_OPT_DETERMINISTIC), 0);
  // Process-wide options do not need a current context.
  std::thread worker([] { EXPECT_EQ(process_option(ACL_OPT_DETERMINISTIC), 1); });
  worker.join();
  EXPECT_EQ(aclrtSetSysParamOpt(ACL_OPT_DETERMINISTIC, 0), ACL_SUCCESS);
  EXPECT_EQ(aclrtSetSysParamOpt(ACL_OPT_ENABLE_DEBUG_KERNEL, 0), ACL_SUCCESS);
}

TEST(SysParam, BadOptionIsRejected) {
  int64_t value = 0;
  for (int bad : kBadOptions) {
    std::string got = "got " + std::to_string(bad);
    expect_error(aclrtCtxSetSysParamOpt(static_cast<aclSysParamOpt>(bad), 1),
                 ACL_ERROR_RT_PARAM_INVALID, {"aclrtCtxSetSysParamOpt", "opt", "0..3", got});
    expect_error(aclrtCtxGetSysParamOpt(static_cast<aclSysParamOpt>(bad), &value),
                 ACL_ERROR_RT_PARAM_INVALID, {"aclrtCtxGetSysParamOpt", "opt", got});
    expect_error(aclrtSetSysParamOpt(static_cast<aclSysParamOpt>(bad), 1),
                 ACL_ERROR_RT_PARAM_INVALID, {"aclrtSetSysParamOpt", "opt", got});
    expect_error(aclrtGetSysParamOpt(static_cast<aclSysParamOpt>(bad), &value),
                 ACL_ERROR_RT_PARAM_INVALID, {"aclrtGetSysParamOpt", "opt", got});
  }
}

TEST(SysParam, NullValuePointerIsRejected) {
  expect_error(aclrtCtxGetSysParamOpt(ACL_OPT_DETERMINISTIC, nullptr), ACL_ERROR_RT_PARAM_INVALID,
               {"aclrtCtxGetSysParamOpt", "value is null"});
  expect_error(aclrtGetSysParamOpt(ACL_OPT_DETERMINISTIC, nullptr), ACL_ERROR_RT_PARAM_INVALID,
               {"aclrtGetSysParamOpt", "value is null"});
}

TEST(SysParam, ContextOptionsNeedACurrentContext) {
  std::thread worker([] {
    int64_t value = 0;
    expect_error(aclrtCtxSetSysParamOpt(ACL_OPT_DETERMINISTIC, 1), ACL_ERROR_RT_CONTEXT_NULL,
                 {"aclrtCtxSetSysParamOpt", "no current context"});
    expect_error(aclrtCtxGetSysParamOpt(ACL_OPT_DETERMINISTIC, &value), ACL_ERROR_RT_CONTEXT_NULL,
                 {"aclrtCtxGetSysParamOpt", "no current context"});
  });
  worker.join();
}

}  // namespace
