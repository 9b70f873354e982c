// The checks of aclnnSmoothL1LossBackwardGetWorkspaceSize (SPEC section 9), each triggered alone
// (every earlier check passes): the code, and a message naming the operator, the parameter and
// the value seen. Then the order of the checks, when several fail at once.
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "aclnnop/aclnn_smooth_l1_loss_backward.h"
#include "test_env.h"

namespace {

using oa_test::DeviceBuffer;
using oa_test::expect_error;
using oa_test::make_tensor;
using oa_test::TensorPtr;

constexpr const char* kOp = "aclnnSmoothL1LossBackward";
const char* const kNames[] = {"gradOutput", "self", "target", "gradInput"};

class SmoothL1LossBackwardChecks : public ::testing::Test {
 protected:
  // A valid [2, 3] FLOAT tensor at the start of buffer k.
  TensorPtr valid(int k) { return make_tensor({2, 3}, ACL_FLOAT, buffers_[k].get()); }

  void SetUp() override {
    for (int k = 0; k < 4; ++k) {
      tensors_[k] = valid(k);
    }
  }

  // Phase 1 with tensors_ (tensor k replaced by `replace` when given) and the given arguments.
  aclnnStatus call(int k = -1, const aclTensor* replace = nullptr, int64_t reduction = 0,
                   float beta = 1.0f) {
    const aclTensor* t[4];
    for (int i = 0; i < 4; ++i) {
      t[i] = i == k ? replace : tensors_[i].get();
    }
    aclnnStatus status = aclnnSmoothL1LossBackwardGetWorkspaceSize(
        t[0], t[1], t[2], reduction, beta, const_cast<aclTensor*>(t[3]), &workspace_size_,
        &executor_);
    if (status == ACLNN_SUCCESS) {
      // Run it, so that no executor leaks.
      EXPECT_EQ(aclnnSmoothL1LossBackward(nullptr, workspace_size_, executor_, nullptr),
                ACLNN_SUCCESS)
          << aclGetRecentErrMsg();
    }
    return status;
  }

  DeviceBuffer buffers_[4] = {DeviceBuffer(24), DeviceBuffer(24), DeviceBuffer(24),
                              DeviceBuffer(24)};
  TensorPtr tensors_[4] = {{nullptr, aclDestroyTensor},
                           {nullptr, aclDestroyTensor},
                           {nullptr, aclDestroyTensor},
                           {nullptr, aclDestroyTensor}};
  uint64_t workspace_size_ = 0;
  aclOpExecutor* executor_ = nullptr;
};

TEST_F(SmoothL1LossBackwardChecks, ValidCallSucceeds) { EXPECT_EQ(call(), ACLNN_SUCCESS); }

TEST_F(SmoothL1LossBackwardChecks, NullTensors) {
  for (int k = 0; k < 4; ++k) {
    SCOPED_TRACE(kNames[k]);
    expect_error(call(k, nullptr), ACLNN_ERR_PARAM_NULLPTR, {kOp, kNames[k], "null"});
  }
}

TEST_F(SmoothL1LossBackwardChecks, NullWorkspaceSizeAndExecutor) {
  uint64_t size = 0;
  aclOpExecutor* executor = nullptr;
  expect_error(aclnnSmoothL1LossBackwardGetWorkspaceSize(tensors_[0].get(), tensors_[1].get(),
                                                         tensors_[2].get(), 0, 1.0f,
                                                         tensors_[3].get(), nullptr, &executor),
               ACLNN_ERR_PARAM_NULLPTR, {kOp, "workspaceSize", "null"});
  expect_error(aclnnSmoothL1LossBackwardGetWorkspaceSize(tensors_[0].get(), tensors_[1].get(),
                                                         tensors_[2].get(), 0, 1.0f,
                                                         tensors_[3].get(), &size, nullptr),
               ACLNN_ERR_PARAM_NULLPTR, {kOp, "executor", "null"});
}

TEST_F(SmoothL1LossBackwardChecks, UnsupportedDtypes) {
  const std::pair<aclDataType, const char*> bad[] = {
      {ACL_INT32, "INT32"}, {ACL_DOUBLE, "DOUBLE"}, {ACL_FLOAT8_E4M3FN, "FLOAT8_E4M3FN"}};
  for (int k = 0; k < 4; ++k) {
    for (const auto& [dtype, name] : bad) {
      SCOPED_TRACE(std::string(kNames[k]) + " " + name);
      TensorPtr t = make_tensor({2, 3}, dtype, buffers_[k].get());
      expect_error(call(k, t.get()), ACLNN_ERR_PARAM_INVALID, {kOp, kNames[k], "dtype", name});
    }
  }
}

TEST_F(SmoothL1LossBackwardChecks, RankNine) {
  DeviceBuffer big(4);
  for (int k = 0; k < 4; ++k) {
    SCOPED_TRACE(kNames[k]);
    TensorPtr t = make_tensor(std::vector<int64_t>(9, 1), ACL_FLOAT, big.get());
    expect_error(call(k, t.get()), ACLNN_ERR_PARAM_INVALID, {kOp, kNames[k], "rank", "got 9"});
  }
}

TEST_F(SmoothL1LossBackwardChecks, RankEightAndZeroAreAccepted) {
  DeviceBuffer one(4);
  for (int k = 0; k < 3; ++k) {
    SCOPED_TRACE(kNames[k]);
    TensorPtr eight = make_tensor({1, 1, 1, 1, 1, 1, 1, 1}, ACL_FLOAT, one.get());
    TensorPtr zero = make_tensor({}, ACL_FLOAT, one.get());
    EXPECT_EQ(call(k, zero.get()), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    // A rank-8 input makes the broadcast shape rank 8, so gradInput must be rank 8 too.
    TensorPtr out = make_tensor({1, 1, 1, 1, 1, 1, 2, 3}, ACL_FLOAT, buffers_[3].get());
    TensorPtr keep = std::move(tensors_[3]);
    tensors_[3] = std::move(out);
    EXPECT_EQ(call(k, eight.get()), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    tensors_[3] = std::move(keep);
  }
}

TEST_F(SmoothL1LossBackwardChecks, Reduction) {
  expect_error(call(-1, nullptr, 3), ACLNN_ERR_PARAM_INVALID, {kOp, "reduction", "got 3"});
  expect_error(call(-1, nullptr, -1), ACLNN_ERR_PARAM_INVALID, {kOp, "reduction", "got -1"});
  for (int64_t reduction : {0, 1, 2}) {
    EXPECT_EQ(call(-1, nullptr, reduction), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  }
}

TEST_F(SmoothL1LossBackwardChecks, Beta) {
  expect_error(call(-1, nullptr, 0, -1.0f), ACLNN_ERR_PARAM_INVALID, {kOp, "beta", "got -1"});
  expect_error(call(-1, nullptr, 0, std::nanf("")), ACLNN_ERR_PARAM_INVALID,
               {kOp, "beta", "got nan"});
  expect_error(call(-1, nullptr, 0, -std::numeric_limits<float>::infinity()),
               ACLNN_ERR_PARAM_INVALID, {kOp, "beta", "got -inf"});
  expect_error(call(-1, nullptr, 0, -1e-30f), ACLNN_ERR_PARAM_INVALID, {kOp, "beta", "got -1e-30"});
  for (float beta : {0.0f, -0.0f, 1e-30f, std::numeric_limits<float>::infinity()}) {
    EXPECT_EQ(call(-1, nullptr, 0, beta), ACLNN_SUCCESS) << beta << ": " << aclGetRecentErrMsg();
  }
}

TEST_F(SmoothL1LossBackwardChecks, InputsDoNotBroadcast) {
  DeviceBuffer big(64);
  for (int k = 0; k < 3; ++k) {
    SCOPED_TRACE(kNames[k]);
    TensorPtr t = make_tensor({4, 3}, ACL_FLOAT, big.get());
    expect_error(call(k, t.get()), ACLNN_ERR_PARAM_INVALID,
                 {kOp, "does not broadcast", "[4, 3]", "[2, 3]"});
  }
}

TEST_F(SmoothL1LossBackwardChecks, GradInputShapeIsNotTheBroadcastShape) {
  DeviceBuffer big(64);
  const std::vector<int64_t> shapes[] = {{3, 2}, {1, 2, 3}, {2, 1}, {3}, {}, {2, 3, 1}};
  for (const auto& shape : shapes) {
    TensorPtr t = make_tensor(shape, ACL_FLOAT, big.get());
    std::string got = "got [";
    for (size_t i = 0; i < shape.size(); ++i) {
      got += (i == 0 ? "" : ", ") + std::to_string(shape[i]);
    }
    got += "]";
    SCOPED_TRACE(got);
    expect_error(call(3, t.get()), ACLNN_ERR_PARAM_INVALID, {kOp, "gradInput", "[2, 3]", got});
  }
}

TEST_F(SmoothL1LossBackwardChecks, HostMemory) {
  std::vector<float> host(6, 0.0f);
  void* pinned = nullptr;
  ASSERT_EQ(aclrtMallocHost(&pinned, 64), ACL_SUCCESS);
  for (int k = 0; k < 4; ++k) {
    SCOPED_TRACE(kNames[k]);
    TensorPtr on_host = make_tensor({2, 3}, ACL_FLOAT, host.data());
    expect_error(call(k, on_host.get()), ACLNN_ERR_PARAM_INVALID,
                 {kOp, kNames[k], "not inside device memory"});
    TensorPtr on_pinned = make_tensor({2, 3}, ACL_FLOAT, pinned);
    expect_error(call(k, on_pinned.get()), ACLNN_ERR_PARAM_INVALID,
                 {kOp, kNames[k], "not inside device memory", "aclrtMallocHost"});
  }
  EXPECT_EQ(aclrtFreeHost(pinned), ACL_SUCCESS);
}

TEST_F(SmoothL1LossBackwardChecks, ViewsPastTheirAllocation) {
  DeviceBuffer small(20);  // five floats: [2, 3] needs six
  for (int k = 0; k < 4; ++k) {
    SCOPED_TRACE(kNames[k]);
    TensorPtr short_buffer = make_tensor({2, 3}, ACL_FLOAT, small.get());
    expect_error(call(k, short_buffer.get()), ACLNN_ERR_PARAM_INVALID,
                 {kOp, kNames[k], "not inside device memory", "runs past the end"});
    TensorPtr offset = make_tensor({2, 3}, ACL_FLOAT, buffers_[k].get(), {3, 1}, 1);
    expect_error(call(k, offset.get()), ACLNN_ERR_PARAM_INVALID,
                 {kOp, kNames[k], "not inside device memory", "offset 1"});
    TensorPtr strided = make_tensor({2, 3}, ACL_FLOAT, buffers_[k].get(), {4, 1});
    expect_error(call(k, strided.get()), ACLNN_ERR_PARAM_INVALID,
                 {kOp, kNames[k], "not inside device memory"});
    TensorPtr before = make_tensor({2, 3}, ACL_FLOAT, buffers_[k].get(), {-3, 1}, 2);
    expect_error(call(k, before.get()), ACLNN_ERR_PARAM_INVALID,
                 {kOp, kNames[k], "not inside device memory", "before the start"});
  }
}

TEST_F(SmoothL1LossBackwardChecks, FreedMemory) {
  void* freed = nullptr;
  ASSERT_EQ(aclrtMalloc(&freed, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtFree(freed), ACL_SUCCESS);
  for (int k = 0; k < 4; ++k) {
    SCOPED_TRACE(kNames[k]);
    TensorPtr t = make_tensor({2, 3}, ACL_FLOAT, freed);
    expect_error(call(k, t.get()), ACLNN_ERR_PARAM_INVALID,
                 {kOp, kNames[k], "not inside device memory"});
  }
}

// gradInput sharing bytes with an input without being exactly its view.
TEST_F(SmoothL1LossBackwardChecks, GradInputPartiallyOverlapsAnInput) {
  DeviceBuffer big(64);
  for (int k = 0; k < 3; ++k) {
    SCOPED_TRACE(kNames[k]);
    TensorPtr input = make_tensor({2, 3}, ACL_FLOAT, big.get());
    TensorPtr shifted = make_tensor({2, 3}, ACL_FLOAT, big.get(), {3, 1}, 1);
    TensorPtr transposed = make_tensor({2, 3}, ACL_FLOAT, big.get(), {1, 2});
    TensorPtr narrower = make_tensor({2, 3}, ACL_FLOAT16, big.get());
    TensorPtr keep = std::move(tensors_[k]);
    tensors_[k] = std::move(input);
    for (const TensorPtr* out : {&shifted, &transposed, &narrower}) {
      expect_error(call(3, out->get()), ACLNN_ERR_PARAM_INVALID,
                   {kOp, "gradInput overlaps", kNames[k]});
    }
    tensors_[k] = std::move(keep);
  }
}

// The same view as an input of the broadcast shape is the in-place case: accepted.
TEST_F(SmoothL1LossBackwardChecks, GradInputExactlyAnInputIsAccepted) {
  for (int k = 0; k < 3; ++k) {
    SCOPED_TRACE(kNames[k]);
    TensorPtr same = make_tensor({2, 3}, ACL_FLOAT, buffers_[k].get());
    EXPECT_EQ(call(3, same.get()), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  }
}

TEST_F(SmoothL1LossBackwardChecks, GradInputWritesAnElementTwice) {
  TensorPtr repeated = make_tensor({2, 3}, ACL_FLOAT, buffers_[3].get(), {0, 1});
  expect_error(call(3, repeated.get()), ACLNN_ERR_PARAM_INVALID,
               {kOp, "gradInput", "more than once"});
}

// When several checks fail, the first in the contract's order is reported.
TEST_F(SmoothL1LossBackwardChecks, Order) {
  DeviceBuffer big(64);
  std::vector<float> host(6, 0.0f);
  TensorPtr int32 = make_tensor({2, 3}, ACL_INT32, buffers_[0].get());
  TensorPtr int32_rank9 = make_tensor(std::vector<int64_t>(9, 1), ACL_INT32, big.get());
  TensorPtr rank9 = make_tensor(std::vector<int64_t>(9, 1), ACL_FLOAT, big.get());
  TensorPtr wide = make_tensor({4, 3}, ACL_FLOAT, big.get());
  TensorPtr wide_on_host = make_tensor({4, 3}, ACL_FLOAT, host.data());
  TensorPtr on_host = make_tensor({2, 3}, ACL_FLOAT, host.data());
  uint64_t size = 0;
  aclOpExecutor* executor = nullptr;

  // null before dtype: self null, gradOutput INT32.
  expect_error(
      aclnnSmoothL1LossBackwardGetWorkspaceSize(int32.get(), nullptr, tensors_[2].get(), 3, -1.0f,
                                                tensors_[3].get(), &size, &executor),
      ACLNN_ERR_PARAM_NULLPTR, {kOp, "self", "null"});
  // dtype before rank, rank before reduction, reduction before beta.
  expect_error(call(1, int32_rank9.get(), 3, -1.0f), ACLNN_ERR_PARAM_INVALID,
               {kOp, "self", "dtype", "INT32"});
  expect_error(call(2, rank9.get(), 3, -1.0f), ACLNN_ERR_PARAM_INVALID, {kOp, "target", "rank"});
  expect_error(call(-1, nullptr, 3, -1.0f), ACLNN_ERR_PARAM_INVALID, {kOp, "reduction", "got 3"});
  // beta before shapes, shapes before memory.
  expect_error(call(1, wide_on_host.get(), 0, -1.0f), ACLNN_ERR_PARAM_INVALID,
               {kOp, "beta", "got -1"});
  expect_error(call(1, wide_on_host.get()), ACLNN_ERR_PARAM_INVALID, {kOp, "does not broadcast"});
  // memory before overlap: self on the host, and gradInput partially overlapping target.
  TensorPtr keep_self = std::move(tensors_[1]);
  TensorPtr keep_target = std::move(tensors_[2]);
  tensors_[1] = std::move(on_host);
  tensors_[2] = make_tensor({2, 3}, ACL_FLOAT, big.get());
  TensorPtr shifted = make_tensor({2, 3}, ACL_FLOAT, big.get(), {3, 1}, 1);
  expect_error(call(3, shifted.get()), ACLNN_ERR_PARAM_INVALID,
               {kOp, "self", "not inside device memory"});
  tensors_[1] = std::move(keep_self);
  expect_error(call(3, shifted.get()), ACLNN_ERR_PARAM_INVALID, {kOp, "gradInput overlaps target"});
  tensors_[2] = std::move(keep_target);
}

}  // namespace
