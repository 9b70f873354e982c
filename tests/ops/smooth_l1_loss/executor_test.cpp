// The executors of the two smooth L1 loss operators (SPEC section 6): a normal executor is consumed
// by its launch; a repeatable one runs again on new data written into the same buffers, whatever
// its workspace held before; and a plan does not need the aclTensors once phase 1 returned.
#include <random>
#include <string>
#include <vector>

#include "ops/smooth_l1_loss/cases.h"
#include "ops/smooth_l1_loss/run.h"
#include "test_env.h"

namespace {

using namespace sl1_test;
using oa_test::DeviceBuffer;
using oa_test::expect_error;

BackwardCase small_backward(std::mt19937& rng) {
  BackwardCase c;
  c.reduction = 1;
  c.beta = 0.5f;
  c.grad_output = random_operand(rng, "gradOutput", {3, 1}, ACL_FLOAT16, ViewStyle(), true, c.beta);
  c.self = random_operand(rng, "self", {3, 70}, ACL_FLOAT, ViewStyle(), true, c.beta);
  c.target = random_operand(rng, "target", {70}, ACL_BF16, ViewStyle(), true, c.beta);
  c.grad_input = random_operand(rng, "gradInput", {3, 70}, ACL_FLOAT, ViewStyle(), false, c.beta);
  return c;
}

// New random values in every input buffer, and new random bytes in the output buffer.
void refill(std::mt19937& rng, std::initializer_list<Operand*> inputs, Operand* output,
            float beta) {
  for (Operand* operand : inputs) {
    const int64_t count =
        static_cast<int64_t>(operand->storage->host.size()) / oa_ref::element_size(operand->dtype);
    for (int64_t i = 0; i < count; ++i) {
      store_code(operand->storage.get(), operand->dtype, i,
                 oa_ref::encode(operand->dtype, random_value(rng, beta, true)));
    }
    operand->storage->upload();
  }
  for (unsigned char& byte : output->storage->host) {
    byte = static_cast<unsigned char>(draw(rng, 0, 255));
  }
  output->storage->upload();
}

// Checks gradInput against the reference for the data now in the buffers.
void expect_backward_result(BackwardCase& c, const std::vector<unsigned char>& before,
                            const std::string& what) {
  const std::vector<double> expected = oa_ref::smooth_l1_loss_backward(
      c.grad_output.view(), c.self.view(), c.target.view(), c.reduction, c.beta);
  c.grad_input.storage->download();
  expect_output(
      c.grad_input, before, expected, [](int64_t) { return std::string(); },
      what + "\n  " + c.describe());
}

TEST(SmoothL1LossExecutor, NormalExecutorIsConsumed) {
  std::mt19937 rng(4001);
  BackwardCase c = small_backward(rng);
  uint64_t size = 0;
  aclOpExecutor* executor = nullptr;
  ASSERT_EQ(aclnnSmoothL1LossBackwardGetWorkspaceSize(
                c.grad_output.tensor.get(), c.self.tensor.get(), c.target.tensor.get(), c.reduction,
                c.beta, c.grad_input.tensor.get(), &size, &executor),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(size, 0u);
  ASSERT_EQ(aclnnSmoothL1LossBackward(nullptr, size, executor, nullptr), ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  expect_error(aclnnSmoothL1LossBackward(nullptr, size, executor, nullptr), ACLNN_ERR_PARAM_INVALID,
               {"aclnnSmoothL1LossBackward", "executor", "not live"});

  ForwardCase f;
  f.reduction = 1;
  f.self = random_operand(rng, "self", {3, 70}, ACL_FLOAT, ViewStyle(), true, f.beta);
  f.target = random_operand(rng, "target", {3, 70}, ACL_FLOAT, ViewStyle(), true, f.beta);
  f.result = random_operand(rng, "result", {}, ACL_FLOAT, ViewStyle(), false, f.beta);
  ASSERT_EQ(
      aclnnSmoothL1LossGetWorkspaceSize(f.self.tensor.get(), f.target.tensor.get(), f.reduction,
                                        f.beta, f.result.tensor.get(), &size, &executor),
      ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  DeviceBuffer workspace(size > 0 ? size : 1);
  ASSERT_EQ(aclnnSmoothL1Loss(workspace.get(), size, executor, nullptr), ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  expect_error(aclnnSmoothL1Loss(workspace.get(), size, executor, nullptr), ACLNN_ERR_PARAM_INVALID,
               {"aclnnSmoothL1Loss", "executor", "not live"});
}

TEST(SmoothL1LossExecutor, RepeatableBackwardRunsAgainOnNewData) {
  std::mt19937 rng(4002);
  BackwardCase c = small_backward(rng);
  uint64_t size = 0;
  aclOpExecutor* executor = nullptr;
  ASSERT_EQ(aclnnSmoothL1LossBackwardGetWorkspaceSize(
                c.grad_output.tensor.get(), c.self.tensor.get(), c.target.tensor.get(), c.reduction,
                c.beta, c.grad_input.tensor.get(), &size, &executor),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  ASSERT_EQ(aclSetAclOpExecutorRepeatable(executor), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  for (int run = 0; run < 3; ++run) {
    refill(rng, {&c.grad_output, &c.self, &c.target}, &c.grad_input, c.beta);
    const std::vector<unsigned char> before = c.grad_input.storage->host;
    ASSERT_EQ(aclnnSmoothL1LossBackward(nullptr, size, executor, nullptr), ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    expect_backward_result(c, before, "run " + std::to_string(run));
  }
  EXPECT_EQ(aclDestroyAclOpExecutor(executor), ACLNN_SUCCESS) << aclGetRecentErrMsg();
}

// The mean's chunk partials live in the workspace: each run starts from workspace bytes that are
// NaN as doubles, and new data.
TEST(SmoothL1LossExecutor, RepeatableForwardIgnoresWorkspaceContents) {
  std::mt19937 rng(4003);
  for (int64_t reduction : {1, 2}) {
    ForwardCase f;
    f.reduction = reduction;
    f.beta = 1.0f;
    f.self = random_operand(rng, "self", {2, 1, 400}, ACL_BF16, ViewStyle(), true, f.beta, false);
    f.target = random_operand(rng, "target", {200, 1}, ACL_FLOAT, ViewStyle(), true, f.beta, false);
    f.result = random_operand(rng, "result", {1}, ACL_FLOAT, ViewStyle(), false, f.beta);
    uint64_t size = 0;
    aclOpExecutor* executor = nullptr;
    ASSERT_EQ(
        aclnnSmoothL1LossGetWorkspaceSize(f.self.tensor.get(), f.target.tensor.get(), f.reduction,
                                          f.beta, f.result.tensor.get(), &size, &executor),
        ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    ASSERT_EQ(aclSetAclOpExecutorRepeatable(executor), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    DeviceBuffer workspace(size > 0 ? size : 1);
    for (int run = 0; run < 3; ++run) {
      refill(rng, {&f.self, &f.target}, &f.result, f.beta);
      workspace.write(std::vector<unsigned char>(workspace.size(), 0xFF));
      const std::vector<unsigned char> before = f.result.storage->host;
      ASSERT_EQ(aclnnSmoothL1Loss(workspace.get(), size, executor, nullptr), ACLNN_SUCCESS)
          << aclGetRecentErrMsg();
      const std::vector<double> expected = forward_expected(f);
      f.result.storage->download();
      expect_output(
          f.result, before, expected, [](int64_t) { return std::string(); },
          "run " + std::to_string(run) + "\n  " + f.describe());
    }
    EXPECT_EQ(aclDestroyAclOpExecutor(executor), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  }
}

// The caller may destroy its aclTensors between the phases: the plan keeps what it needs.
TEST(SmoothL1LossExecutor, TensorsDestroyedAfterPhaseOne) {
  std::mt19937 rng(4004);
  BackwardCase c = small_backward(rng);
  uint64_t size = 0;
  aclOpExecutor* executor = nullptr;
  ASSERT_EQ(aclnnSmoothL1LossBackwardGetWorkspaceSize(
                c.grad_output.tensor.get(), c.self.tensor.get(), c.target.tensor.get(), c.reduction,
                c.beta, c.grad_input.tensor.get(), &size, &executor),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  for (Operand* operand : {&c.grad_output, &c.self, &c.target, &c.grad_input}) {
    operand->tensor.reset();
  }
  const std::vector<unsigned char> before = c.grad_input.storage->host;
  ASSERT_EQ(aclnnSmoothL1LossBackward(nullptr, size, executor, nullptr), ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  expect_backward_result(c, before, "tensors destroyed");

  for (int64_t reduction : {0, 2}) {
    ForwardCase f;
    f.reduction = reduction;
    f.self = random_operand(rng, "self", {3, 70}, ACL_FLOAT16, ViewStyle(), true, f.beta);
    f.target = random_operand(rng, "target", {70}, ACL_FLOAT, ViewStyle(), true, f.beta);
    f.result = random_operand(rng, "result", reduction == 0 ? Dims{3, 70} : Dims{}, ACL_BF16,
                              ViewStyle(), false, f.beta);
    ASSERT_EQ(
        aclnnSmoothL1LossGetWorkspaceSize(f.self.tensor.get(), f.target.tensor.get(), f.reduction,
                                          f.beta, f.result.tensor.get(), &size, &executor),
        ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    for (Operand* operand : {&f.self, &f.target, &f.result}) {
      operand->tensor.reset();
    }
    DeviceBuffer workspace(size > 0 ? size : 1);
    const std::vector<unsigned char> result_before = f.result.storage->host;
    ASSERT_EQ(aclnnSmoothL1Loss(workspace.get(), size, executor, nullptr), ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    const std::vector<double> expected = forward_expected(f);
    f.result.storage->download();
    expect_output(
        f.result, result_before, expected, [](int64_t) { return std::string(); },
        "tensors destroyed\n  " + f.describe());
  }
}

}  // namespace
