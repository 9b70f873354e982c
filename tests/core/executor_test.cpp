// Phase 2 of every operator (SPEC sections 5 and 6): executor, workspace and stream checks, and
// the executor's life: consumed by one launch (also a failed one) unless repeatable.
#include "core/executor.h"

#include <memory>
#include <string>
#include <vector>

#include "aclnnop/aclnn_adaptive_max_pool2d.h"
#include "aclnnop/aclnn_adaptive_max_pool2d_backward.h"
#include "aclnnop/aclnn_convolution.h"
#include "aclnnop/aclnn_convolution_backward.h"
#include "aclnnop/aclnn_smooth_l1_loss.h"
#include "aclnnop/aclnn_smooth_l1_loss_backward.h"
#include "test_env.h"

namespace {

using oa_test::DeviceBuffer;
using oa_test::expect_error;

constexpr const char* kOp = "aclnnTestOp";

// What a TestPlan saw; outlives the plan, which the executor owns.
struct Record {
  int runs = 0;
  void* workspace = nullptr;
  bool destroyed = false;
  aclnnStatus result = ACLNN_SUCCESS;
};

class TestPlan : public oa::Plan {
 public:
  explicit TestPlan(std::shared_ptr<Record> record) : record_(std::move(record)) {}
  ~TestPlan() override { record_->destroyed = true; }
  aclnnStatus run(void* workspace) const override {
    ++record_->runs;
    record_->workspace = workspace;
    return record_->result;
  }

 private:
  std::shared_ptr<Record> record_;
};

class ExecutorTest : public ::testing::Test {
 protected:
  aclOpExecutor* make(uint64_t workspace_size, const char* op = kOp) {
    uint64_t size_out = 12345;
    aclOpExecutor* executor = nullptr;
    EXPECT_EQ(oa::make_executor(op, std::make_unique<TestPlan>(record_), workspace_size, &size_out,
                                &executor),
              ACLNN_SUCCESS);
    EXPECT_EQ(size_out, workspace_size);
    EXPECT_NE(executor, nullptr);
    return executor;
  }

  // The executor is gone: its plan was destroyed and a launch calls it not live.
  void expect_consumed(aclOpExecutor* executor) {
    EXPECT_TRUE(record_->destroyed);
    int runs = record_->runs;
    expect_error(oa::launch(kOp, nullptr, 0, executor, nullptr), ACLNN_ERR_PARAM_INVALID,
                 {kOp, "executor", "is not live"});
    EXPECT_EQ(record_->runs, runs);
  }

  std::shared_ptr<Record> record_ = std::make_shared<Record>();
};

TEST_F(ExecutorTest, NullExecutor) {
  expect_error(oa::launch(kOp, nullptr, 0, nullptr, nullptr), ACLNN_ERR_PARAM_NULLPTR,
               {kOp, "executor is null"});
}

TEST_F(ExecutorTest, NormalExecutorRunsOnceAndIsConsumed) {
  aclOpExecutor* executor = make(0);
  EXPECT_EQ(oa::launch(kOp, nullptr, 0, executor, nullptr), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  EXPECT_EQ(record_->runs, 1);
  EXPECT_EQ(record_->workspace, nullptr);
  expect_consumed(executor);
  expect_error(aclDestroyAclOpExecutor(executor), ACLNN_ERR_PARAM_INVALID,
               {"aclDestroyAclOpExecutor", "executor", "not live"});
}

TEST_F(ExecutorTest, RunGetsTheWorkspace) {
  DeviceBuffer workspace(256);
  aclOpExecutor* executor = make(256);
  EXPECT_EQ(oa::launch(kOp, workspace.get(), 256, executor, nullptr), ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(record_->workspace, workspace.get());
}

TEST_F(ExecutorTest, LargerWorkspaceIsFine) {
  DeviceBuffer workspace(512);
  aclOpExecutor* executor = make(100);
  EXPECT_EQ(oa::launch(kOp, workspace.get(), 512, executor, nullptr), ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(record_->workspace, workspace.get());
}

TEST_F(ExecutorTest, NoWorkspaceAskedMeansRunGetsNull) {
  DeviceBuffer workspace(64);
  aclOpExecutor* executor = make(0);
  EXPECT_EQ(oa::launch(kOp, workspace.get(), 64, executor, nullptr), ACLNN_SUCCESS);
  EXPECT_EQ(record_->runs, 1);
  EXPECT_EQ(record_->workspace, nullptr);
}

TEST_F(ExecutorTest, WorkspaceSmallerThanAsked) {
  DeviceBuffer workspace(256);
  aclOpExecutor* executor = make(256);
  expect_error(oa::launch(kOp, workspace.get(), 128, executor, nullptr), ACLNN_ERR_PARAM_INVALID,
               {kOp, "workspaceSize is 128 bytes", "asked for 256"});
  EXPECT_EQ(record_->runs, 0);
  expect_consumed(executor);
}

TEST_F(ExecutorTest, NullWorkspaceWithSize) {
  aclOpExecutor* executor = make(64);
  expect_error(oa::launch(kOp, nullptr, 64, executor, nullptr), ACLNN_ERR_PARAM_INVALID,
               {kOp, "workspace is null", "64 bytes are needed"});
  EXPECT_EQ(record_->runs, 0);
  expect_consumed(executor);
}

TEST_F(ExecutorTest, WorkspaceNotInDeviceMemory) {
  std::vector<char> host(64);
  aclOpExecutor* executor = make(64);
  expect_error(oa::launch(kOp, host.data(), 64, executor, nullptr), ACLNN_ERR_PARAM_INVALID,
               {kOp, "workspace", "is not device memory"});
  EXPECT_EQ(record_->runs, 0);
  expect_consumed(executor);
}

TEST_F(ExecutorTest, WorkspaceAllocationTooSmall) {
  DeviceBuffer workspace(32);
  aclOpExecutor* executor = make(64);
  expect_error(oa::launch(kOp, workspace.get(), 64, executor, nullptr), ACLNN_ERR_PARAM_INVALID,
               {kOp, "workspace", "runs past the end"});
  expect_consumed(executor);
}

TEST_F(ExecutorTest, FailedRunStillConsumes) {
  record_->result = ACLNN_ERR_RUNTIME_ERROR;
  aclOpExecutor* executor = make(0);
  EXPECT_EQ(oa::launch(kOp, nullptr, 0, executor, nullptr), ACLNN_ERR_RUNTIME_ERROR);
  EXPECT_EQ(record_->runs, 1);
  expect_consumed(executor);
}

TEST_F(ExecutorTest, LaunchedAsAnotherOperator) {
  aclOpExecutor* executor = make(0, "aclnnOpA");
  expect_error(oa::launch("aclnnOpB", nullptr, 0, executor, nullptr), ACLNN_ERR_PARAM_INVALID,
               {"aclnnOpB", "executor was made by aclnnOpAGetWorkspaceSize"});
  EXPECT_EQ(record_->runs, 0);
  expect_consumed(executor);
}

TEST_F(ExecutorTest, InvalidStream) {
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  ASSERT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
  aclOpExecutor* executor = make(0);
  expect_error(oa::launch(kOp, nullptr, 0, executor, stream), ACLNN_ERR_PARAM_INVALID,
               {kOp, "stream", "not a live stream"});
  EXPECT_EQ(record_->runs, 0);
  expect_consumed(executor);
}

TEST_F(ExecutorTest, CreatedStream) {
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  aclOpExecutor* executor = make(0);
  EXPECT_EQ(oa::launch(kOp, nullptr, 0, executor, stream), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
  EXPECT_EQ(record_->runs, 1);
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
}

TEST_F(ExecutorTest, RepeatableRunsUntilDestroyed) {
  DeviceBuffer workspace(128);
  aclOpExecutor* executor = make(128);
  ASSERT_EQ(aclSetAclOpExecutorRepeatable(executor), ACLNN_SUCCESS);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(oa::launch(kOp, workspace.get(), 128, executor, nullptr), ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
  }
  EXPECT_EQ(record_->runs, 3);
  EXPECT_FALSE(record_->destroyed);
  EXPECT_EQ(aclDestroyAclOpExecutor(executor), ACLNN_SUCCESS);
  EXPECT_TRUE(record_->destroyed);
  expect_error(aclDestroyAclOpExecutor(executor), ACLNN_ERR_PARAM_INVALID,
               {"aclDestroyAclOpExecutor", "executor", "not live"});
  expect_consumed(executor);
}

TEST_F(ExecutorTest, RepeatableSurvivesFailures) {
  DeviceBuffer workspace(64);
  aclOpExecutor* executor = make(64);
  ASSERT_EQ(aclSetAclOpExecutorRepeatable(executor), ACLNN_SUCCESS);
  expect_error(oa::launch(kOp, workspace.get(), 8, executor, nullptr), ACLNN_ERR_PARAM_INVALID,
               {kOp, "workspaceSize is 8 bytes"});
  record_->result = ACLNN_ERR_RUNTIME_ERROR;
  EXPECT_EQ(oa::launch(kOp, workspace.get(), 64, executor, nullptr), ACLNN_ERR_RUNTIME_ERROR);
  record_->result = ACLNN_SUCCESS;
  EXPECT_EQ(oa::launch(kOp, workspace.get(), 64, executor, nullptr), ACLNN_SUCCESS);
  EXPECT_EQ(record_->runs, 2);
  EXPECT_FALSE(record_->destroyed);
  EXPECT_EQ(aclDestroyAclOpExecutor(executor), ACLNN_SUCCESS);
}

TEST_F(ExecutorTest, DestroyANormalExecutorBeforeItsLaunch) {
  aclOpExecutor* executor = make(0);
  EXPECT_EQ(aclDestroyAclOpExecutor(executor), ACLNN_SUCCESS);
  expect_consumed(executor);
  EXPECT_EQ(record_->runs, 0);
}

TEST_F(ExecutorTest, RepeatableAndDestroyRejectBadExecutors) {
  expect_error(aclSetAclOpExecutorRepeatable(nullptr), ACLNN_ERR_PARAM_NULLPTR,
               {"aclSetAclOpExecutorRepeatable", "executor is null"});
  expect_error(aclDestroyAclOpExecutor(nullptr), ACLNN_ERR_PARAM_NULLPTR,
               {"aclDestroyAclOpExecutor", "executor is null"});
  aclOpExecutor* executor = make(0);
  ASSERT_EQ(oa::launch(kOp, nullptr, 0, executor, nullptr), ACLNN_SUCCESS);
  expect_error(aclSetAclOpExecutorRepeatable(executor), ACLNN_ERR_PARAM_INVALID,
               {"aclSetAclOpExecutorRepeatable", "executor", "not live"});
  int not_an_executor = 0;
  auto* fake = reinterpret_cast<aclOpExecutor*>(&not_an_executor);
  expect_error(aclDestroyAclOpExecutor(fake), ACLNN_ERR_PARAM_INVALID,
               {"aclDestroyAclOpExecutor", "not live"});
  expect_error(oa::launch(kOp, nullptr, 0, fake, nullptr), ACLNN_ERR_PARAM_INVALID,
               {kOp, "not live"});
}

TEST(NotImplemented, NamesTheOperator) {
  expect_error(oa::not_implemented("aclnnFuture"), ACLNN_ERR_INNER_FIND_KERNEL_ERROR,
               {"aclnnFuture:", "not implemented"});
}

// Phase 2 of every operator is the shared launcher, whether or not its kernel has landed.
struct Operator {
  const char* name;
  aclnnStatus (*launch)(void*, uint64_t, aclOpExecutor*, aclrtStream);
};

const Operator kOperators[] = {
    {"aclnnAdaptiveMaxPool2dBackward", aclnnAdaptiveMaxPool2dBackward},
    {"aclnnAdaptiveMaxPool2d", aclnnAdaptiveMaxPool2d},
    {"aclnnConvTbcBackward", aclnnConvTbcBackward},
    {"aclnnConvTbc", aclnnConvTbc},
    {"aclnnSmoothL1LossBackward", aclnnSmoothL1LossBackward},
    {"aclnnSmoothL1Loss", aclnnSmoothL1Loss},
};

TEST(OperatorPhaseTwo, NullExecutor) {
  for (const Operator& op : kOperators) {
    expect_error(op.launch(nullptr, 0, nullptr, nullptr), ACLNN_ERR_PARAM_NULLPTR,
                 {std::string(op.name) + ":", "executor is null"});
  }
}

TEST(OperatorPhaseTwo, AnotherOperatorsExecutorIsRejectedAndConsumed) {
  for (const Operator& op : kOperators) {
    auto record = std::make_shared<Record>();
    uint64_t size = 0;
    aclOpExecutor* executor = nullptr;
    ASSERT_EQ(oa::make_executor(kOp, std::make_unique<TestPlan>(record), 0, &size, &executor),
              ACLNN_SUCCESS);
    expect_error(op.launch(nullptr, 0, executor, nullptr), ACLNN_ERR_PARAM_INVALID,
                 {std::string(op.name) + ":", "executor was made by aclnnTestOpGetWorkspaceSize"});
    EXPECT_EQ(record->runs, 0);
    EXPECT_TRUE(record->destroyed);
  }
}

}  // namespace
