// The checks of aclnnSmoothL1LossGetWorkspaceSize (SPEC section 11: the checks of section 9 where
// they apply, and a result of shape [] or [1] for mean and sum), each triggered alone.
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "aclnnop/aclnn_smooth_l1_loss.h"
#include "test_env.h"

namespace {

using oa_test::DeviceBuffer;
using oa_test::expect_error;
using oa_test::make_tensor;
using oa_test::TensorPtr;

constexpr const char* kOp = "aclnnSmoothL1Loss";
const char* const kNames[] = {"self", "target", "result"};

class SmoothL1LossForwardChecks : public ::testing::Test {
 protected:
  void SetUp() override {
    for (int k = 0; k < 3; ++k) {
      tensors_[k] = make_tensor({2, 3}, ACL_FLOAT, buffers_[k].get());
    }
    scalar_ = make_tensor({}, ACL_FLOAT, buffers_[2].get());
  }

  // Phase 1 with tensors_ (tensor k replaced by `replace` when given); result is tensors_[2] for
  // reduction none and scalar_ otherwise, unless replaced. A success is launched (no leak).
  aclnnStatus call(int k = -1, const aclTensor* replace = nullptr, int64_t reduction = 0,
                   float beta = 1.0f) {
    const aclTensor* t[3] = {tensors_[0].get(), tensors_[1].get(),
                             reduction == 0 ? tensors_[2].get() : scalar_.get()};
    if (k >= 0) {
      t[k] = replace;
    }
    uint64_t size = 0;
    aclOpExecutor* executor = nullptr;
    aclnnStatus status = aclnnSmoothL1LossGetWorkspaceSize(
        t[0], t[1], reduction, beta, const_cast<aclTensor*>(t[2]), &size, &executor);
    if (status == ACLNN_SUCCESS) {
      std::unique_ptr<DeviceBuffer> workspace;
      if (size > 0) {
        workspace = std::make_unique<DeviceBuffer>(size);
      }
      EXPECT_EQ(aclnnSmoothL1Loss(workspace ? workspace->get() : nullptr, size, executor, nullptr),
                ACLNN_SUCCESS)
          << aclGetRecentErrMsg();
    }
    return status;
  }

  DeviceBuffer buffers_[3] = {DeviceBuffer(24), DeviceBuffer(24), DeviceBuffer(24)};
  TensorPtr tensors_[3] = {
      {nullptr, aclDestroyTensor}, {nullptr, aclDestroyTensor}, {nullptr, aclDestroyTensor}};
  TensorPtr scalar_{nullptr, aclDestroyTensor};
};

TEST_F(SmoothL1LossForwardChecks, ValidCallsSucceed) {
  for (int64_t reduction : {0, 1, 2}) {
    EXPECT_EQ(call(-1, nullptr, reduction), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  }
}

TEST_F(SmoothL1LossForwardChecks, NullPointers) {
  for (int k = 0; k < 3; ++k) {
    SCOPED_TRACE(kNames[k]);
    expect_error(call(k, nullptr), ACLNN_ERR_PARAM_NULLPTR, {kOp, kNames[k], "null"});
  }
  uint64_t size = 0;
  aclOpExecutor* executor = nullptr;
  expect_error(aclnnSmoothL1LossGetWorkspaceSize(tensors_[0].get(), tensors_[1].get(), 0, 1.0f,
                                                 tensors_[2].get(), nullptr, &executor),
               ACLNN_ERR_PARAM_NULLPTR, {kOp, "workspaceSize", "null"});
  expect_error(aclnnSmoothL1LossGetWorkspaceSize(tensors_[0].get(), tensors_[1].get(), 0, 1.0f,
                                                 tensors_[2].get(), &size, nullptr),
               ACLNN_ERR_PARAM_NULLPTR, {kOp, "executor", "null"});
}

TEST_F(SmoothL1LossForwardChecks, UnsupportedDtypes) {
  for (int k = 0; k < 3; ++k) {
    SCOPED_TRACE(kNames[k]);
    TensorPtr t = make_tensor({2, 3}, ACL_INT32, buffers_[k].get());
    expect_error(call(k, t.get()), ACLNN_ERR_PARAM_INVALID, {kOp, kNames[k], "dtype", "INT32"});
  }
}

TEST_F(SmoothL1LossForwardChecks, RankNine) {
  DeviceBuffer one(4);
  for (int k = 0; k < 3; ++k) {
    SCOPED_TRACE(kNames[k]);
    TensorPtr t = make_tensor(std::vector<int64_t>(9, 1), ACL_FLOAT, one.get());
    expect_error(call(k, t.get()), ACLNN_ERR_PARAM_INVALID, {kOp, kNames[k], "rank", "got 9"});
  }
}

TEST_F(SmoothL1LossForwardChecks, ReductionAndBeta) {
  expect_error(call(-1, nullptr, 3), ACLNN_ERR_PARAM_INVALID, {kOp, "reduction", "got 3"});
  expect_error(call(-1, nullptr, -1), ACLNN_ERR_PARAM_INVALID, {kOp, "reduction", "got -1"});
  expect_error(call(-1, nullptr, 0, -1.0f), ACLNN_ERR_PARAM_INVALID, {kOp, "beta", "got -1"});
  expect_error(call(-1, nullptr, 2, std::nanf("")), ACLNN_ERR_PARAM_INVALID,
               {kOp, "beta", "got nan"});
}

TEST_F(SmoothL1LossForwardChecks, InputsDoNotBroadcast) {
  DeviceBuffer big(64);
  TensorPtr t = make_tensor({4, 3}, ACL_FLOAT, big.get());
  expect_error(call(1, t.get()), ACLNN_ERR_PARAM_INVALID,
               {kOp, "target", "does not broadcast", "[4, 3]", "[2, 3]"});
}

TEST_F(SmoothL1LossForwardChecks, ResultShapeForNone) {
  DeviceBuffer big(64);
  for (const std::vector<int64_t>& shape : {std::vector<int64_t>{3, 2}, {}, {1}, {1, 2, 3}}) {
    TensorPtr t = make_tensor(shape, ACL_FLOAT, big.get());
    expect_error(call(2, t.get(), 0), ACLNN_ERR_PARAM_INVALID, {kOp, "result", "[2, 3]"});
  }
}

TEST_F(SmoothL1LossForwardChecks, ResultShapeForMeanAndSum) {
  DeviceBuffer big(64);
  const std::pair<std::vector<int64_t>, const char*> bad[] = {
      {{2, 3}, "got [2, 3]"}, {{2}, "got [2]"}, {{1, 1}, "got [1, 1]"}, {{0}, "got [0]"}};
  for (int64_t reduction : {1, 2}) {
    for (const auto& [shape, got] : bad) {
      SCOPED_TRACE(got);
      TensorPtr t = make_tensor(shape, ACL_FLOAT, big.get());
      expect_error(call(2, t.get(), reduction), ACLNN_ERR_PARAM_INVALID,
                   {kOp, "result", "[] or [1]", got});
    }
    TensorPtr one = make_tensor({1}, ACL_FLOAT, big.get());
    EXPECT_EQ(call(2, one.get(), reduction), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  }
}

TEST_F(SmoothL1LossForwardChecks, NotInDeviceMemory) {
  std::vector<float> host(6, 0.0f);
  DeviceBuffer small(20);
  for (int k = 0; k < 3; ++k) {
    SCOPED_TRACE(kNames[k]);
    TensorPtr on_host = make_tensor({2, 3}, ACL_FLOAT, host.data());
    expect_error(call(k, on_host.get()), ACLNN_ERR_PARAM_INVALID,
                 {kOp, kNames[k], "not inside device memory"});
    TensorPtr past = make_tensor({2, 3}, ACL_FLOAT, small.get());
    expect_error(call(k, past.get()), ACLNN_ERR_PARAM_INVALID,
                 {kOp, kNames[k], "not inside device memory", "runs past the end"});
  }
  for (int64_t reduction : {1, 2}) {
    TensorPtr scalar_on_host = make_tensor({}, ACL_FLOAT, host.data());
    expect_error(call(2, scalar_on_host.get(), reduction), ACLNN_ERR_PARAM_INVALID,
                 {kOp, "result", "not inside device memory"});
    TensorPtr scalar_past = make_tensor({1}, ACL_FLOAT, small.get(), {1}, 5);
    expect_error(call(2, scalar_past.get(), reduction), ACLNN_ERR_PARAM_INVALID,
                 {kOp, "result", "not inside device memory"});
  }
}

TEST_F(SmoothL1LossForwardChecks, ResultOverlapsAnInput) {
  for (int k = 0; k < 2; ++k) {
    SCOPED_TRACE(kNames[k]);
    TensorPtr shifted = make_tensor({2, 3}, ACL_FLOAT16, buffers_[k].get(), {3, 1}, 1);
    expect_error(call(2, shifted.get(), 0), ACLNN_ERR_PARAM_INVALID,
                 {kOp, "result overlaps", kNames[k]});
    // A reduction's 0-d result inside an input is never in place.
    TensorPtr inside = make_tensor({}, ACL_FLOAT, buffers_[k].get(), {}, 2);
    expect_error(call(2, inside.get(), 2), ACLNN_ERR_PARAM_INVALID,
                 {kOp, "result overlaps", kNames[k]});
    // Exactly the input's view, reduction none: in place, accepted.
    TensorPtr same = make_tensor({2, 3}, ACL_FLOAT, buffers_[k].get());
    EXPECT_EQ(call(2, same.get(), 0), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  }
  TensorPtr repeated = make_tensor({2, 3}, ACL_FLOAT, buffers_[2].get(), {1, 0});
  expect_error(call(2, repeated.get(), 0), ACLNN_ERR_PARAM_INVALID,
               {kOp, "result", "more than once"});
}

}  // namespace
