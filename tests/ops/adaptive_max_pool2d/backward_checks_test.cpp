// Every check of aclnnAdaptiveMaxPool2dBackwardGetWorkspaceSize (SPEC section 7), each triggered
// alone from otherwise valid arguments, with its code and message.
#include <memory>
#include <vector>

#include "aclnnop/aclnn_adaptive_max_pool2d_backward.h"
#include "test_env.h"

namespace {

using oa_test::DeviceBuffer;
using oa_test::expect_error;
using oa_test::make_tensor;
using oa_test::TensorPtr;

constexpr const char* kOp = "aclnnAdaptiveMaxPool2dBackward";

// Valid arguments: gradOutput [2, 3, 2, 2], self [2, 3, 4, 4], indices [2, 3, 2, 2] INT64,
// gradInput [2, 3, 4, 4], each in its own allocation, large enough for every variant below.
struct Args {
  DeviceBuffer grad_output_memory{4096};
  DeviceBuffer self_memory{4096};
  DeviceBuffer indices_memory{4096};
  DeviceBuffer grad_input_memory{4096};
  TensorPtr grad_output = make_tensor({2, 3, 2, 2}, ACL_FLOAT, grad_output_memory.get());
  TensorPtr self = make_tensor({2, 3, 4, 4}, ACL_FLOAT, self_memory.get());
  TensorPtr indices = make_tensor({2, 3, 2, 2}, ACL_INT64, indices_memory.get());
  TensorPtr grad_input = make_tensor({2, 3, 4, 4}, ACL_FLOAT, grad_input_memory.get());
  uint64_t workspace_size = 0;
  aclOpExecutor* executor = nullptr;

  // The four tensors with other dtypes, formats or shapes, in the same memory.
  void set(aclDataType grad_dtype, aclDataType self_dtype, aclDataType index_dtype,
           aclDataType out_dtype, aclFormat format = ACL_FORMAT_ND) {
    grad_output = make_tensor({2, 3, 2, 2}, grad_dtype, grad_output_memory.get(), {}, 0, format);
    self = make_tensor({2, 3, 4, 4}, self_dtype, self_memory.get(), {}, 0, format);
    indices = make_tensor({2, 3, 2, 2}, index_dtype, indices_memory.get(), {}, 0, format);
    grad_input = make_tensor({2, 3, 4, 4}, out_dtype, grad_input_memory.get(), {}, 0, format);
  }
  void set_shapes(const std::vector<int64_t>& grad, const std::vector<int64_t>& x,
                  const std::vector<int64_t>& index, const std::vector<int64_t>& out) {
    grad_output = make_tensor(grad, ACL_FLOAT, grad_output_memory.get());
    self = make_tensor(x, ACL_FLOAT, self_memory.get());
    indices = make_tensor(index, ACL_INT64, indices_memory.get());
    grad_input = make_tensor(out, ACL_FLOAT, grad_input_memory.get());
  }

  aclnnStatus call() {
    aclnnStatus status = aclnnAdaptiveMaxPool2dBackwardGetWorkspaceSize(
        grad_output.get(), self.get(), indices.get(), grad_input.get(), &workspace_size, &executor);
    if (status == ACLNN_SUCCESS) {
      EXPECT_EQ(aclDestroyAclOpExecutor(executor), ACLNN_SUCCESS);
    }
    return status;
  }
};

TEST(AdaptiveMaxPool2dBackwardChecks, ValidArgumentsPass) {
  Args a;
  EXPECT_EQ(a.call(), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  a.set(ACL_BF16, ACL_BF16, ACL_INT32, ACL_BF16, ACL_FORMAT_NCHW);
  EXPECT_EQ(a.call(), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  a.set_shapes({3, 5, 7}, {3, 4, 4}, {3, 5, 7}, {3, 4, 4});  // 3-D, Ho > H
  EXPECT_EQ(a.call(), ACLNN_SUCCESS) << aclGetRecentErrMsg();
}

// 1. Null pointers, in the order of the prototype.
TEST(AdaptiveMaxPool2dBackwardChecks, NullPointers) {
  Args a;
  uint64_t size = 0;
  aclOpExecutor* executor = nullptr;
  expect_error(aclnnAdaptiveMaxPool2dBackwardGetWorkspaceSize(
                   nullptr, a.self.get(), a.indices.get(), a.grad_input.get(), &size, &executor),
               ACLNN_ERR_PARAM_NULLPTR, {kOp, "gradOutput must not be null"});
  expect_error(
      aclnnAdaptiveMaxPool2dBackwardGetWorkspaceSize(a.grad_output.get(), nullptr, a.indices.get(),
                                                     a.grad_input.get(), &size, &executor),
      ACLNN_ERR_PARAM_NULLPTR, {kOp, "self must not be null"});
  expect_error(
      aclnnAdaptiveMaxPool2dBackwardGetWorkspaceSize(a.grad_output.get(), a.self.get(), nullptr,
                                                     a.grad_input.get(), &size, &executor),
      ACLNN_ERR_PARAM_NULLPTR, {kOp, "indices must not be null"});
  expect_error(aclnnAdaptiveMaxPool2dBackwardGetWorkspaceSize(
                   a.grad_output.get(), a.self.get(), a.indices.get(), nullptr, &size, &executor),
               ACLNN_ERR_PARAM_NULLPTR, {kOp, "gradInput must not be null"});
  expect_error(aclnnAdaptiveMaxPool2dBackwardGetWorkspaceSize(a.grad_output.get(), a.self.get(),
                                                              a.indices.get(), a.grad_input.get(),
                                                              nullptr, &executor),
               ACLNN_ERR_PARAM_NULLPTR, {kOp, "workspaceSize must not be null"});
  expect_error(
      aclnnAdaptiveMaxPool2dBackwardGetWorkspaceSize(
          a.grad_output.get(), a.self.get(), a.indices.get(), a.grad_input.get(), &size, nullptr),
      ACLNN_ERR_PARAM_NULLPTR, {kOp, "executor must not be null"});
}

// 2. Dtypes.
TEST(AdaptiveMaxPool2dBackwardChecks, GradOutputDtypeMustEqualSelfDtype) {
  Args a;
  a.set(ACL_FLOAT16, ACL_FLOAT, ACL_INT64, ACL_FLOAT);
  expect_error(a.call(), ACLNN_ERR_PARAM_INVALID,
               {kOp, "gradOutput dtype must equal self dtype (FLOAT)", "got FLOAT16"});
}

TEST(AdaptiveMaxPool2dBackwardChecks, GradInputDtypeMustEqualSelfDtype) {
  Args a;
  a.set(ACL_FLOAT, ACL_FLOAT, ACL_INT64, ACL_BF16);
  expect_error(a.call(), ACLNN_ERR_PARAM_INVALID,
               {kOp, "gradInput dtype must equal self dtype (FLOAT)", "got BF16"});
}

TEST(AdaptiveMaxPool2dBackwardChecks, SelfDtypeMustBeFloating) {
  Args a;
  a.set(ACL_DOUBLE, ACL_DOUBLE, ACL_INT64, ACL_DOUBLE);
  expect_error(a.call(), ACLNN_ERR_PARAM_INVALID,
               {kOp, "self dtype must be one of {FLOAT, FLOAT16, BF16}", "got DOUBLE"});
}

TEST(AdaptiveMaxPool2dBackwardChecks, IndicesDtypeMustBeInt32OrInt64) {
  Args a;
  a.set(ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, ACL_FLOAT);
  expect_error(a.call(), ACLNN_ERR_PARAM_INVALID,
               {kOp, "indices dtype must be one of {INT32, INT64}", "got FLOAT"});
}

// 3. Formats.
TEST(AdaptiveMaxPool2dBackwardChecks, FormatsMustBeEqual) {
  Args a;
  a.indices = make_tensor({2, 3, 2, 2}, ACL_INT64, a.indices_memory.get(), {}, 0, ACL_FORMAT_NCHW);
  expect_error(a.call(), ACLNN_ERR_PARAM_INVALID,
               {kOp, "indices format must equal gradOutput format (ND)", "got NCHW"});
}

TEST(AdaptiveMaxPool2dBackwardChecks, PrivateFormatIsRejected) {
  Args a;
  a.set(ACL_FLOAT, ACL_FLOAT, ACL_INT64, ACL_FLOAT, ACL_FORMAT_NC1HWC0);
  expect_error(a.call(), ACLNN_ERR_PARAM_INVALID, {kOp, "NC1HWC0", "private"});
}

// 4. Ranks.
TEST(AdaptiveMaxPool2dBackwardChecks, RankMustBe3Or4) {
  Args a;
  a.set_shapes({1, 2, 3, 2, 2}, {1, 2, 3, 4, 4}, {1, 2, 3, 2, 2}, {1, 2, 3, 4, 4});
  expect_error(a.call(), ACLNN_ERR_PARAM_INVALID, {kOp, "gradOutput rank must be 3..4", "got 5"});
  a.set_shapes({2, 2}, {4, 4}, {2, 2}, {4, 4});
  expect_error(a.call(), ACLNN_ERR_PARAM_INVALID, {kOp, "gradOutput rank must be 3..4", "got 2"});
}

TEST(AdaptiveMaxPool2dBackwardChecks, RanksMustBeEqual) {
  Args a;
  a.set_shapes({2, 3, 2, 2}, {6, 4, 4}, {2, 3, 2, 2}, {2, 3, 4, 4});
  expect_error(a.call(), ACLNN_ERR_PARAM_INVALID,
               {kOp, "self rank must equal gradOutput rank (4)", "got 3"});
}

// 5. Shapes.
TEST(AdaptiveMaxPool2dBackwardChecks, IndicesShapeMustEqualGradOutputShape) {
  Args a;
  a.set_shapes({2, 3, 2, 2}, {2, 3, 4, 4}, {2, 3, 2, 3}, {2, 3, 4, 4});
  expect_error(
      a.call(), ACLNN_ERR_PARAM_INVALID,
      {kOp, "indices shape must be equal to gradOutput shape [2, 3, 2, 2]", "got [2, 3, 2, 3]"});
}

TEST(AdaptiveMaxPool2dBackwardChecks, GradInputShapeMustEqualSelfShape) {
  Args a;
  a.set_shapes({2, 3, 2, 2}, {2, 3, 4, 4}, {2, 3, 2, 2}, {2, 3, 4, 5});
  expect_error(
      a.call(), ACLNN_ERR_PARAM_INVALID,
      {kOp, "gradInput shape must be equal to self shape [2, 3, 4, 4]", "got [2, 3, 4, 5]"});
}

TEST(AdaptiveMaxPool2dBackwardChecks, LeadingDimsMustMatchSelf) {
  Args a;
  a.set_shapes({2, 4, 2, 2}, {2, 3, 4, 4}, {2, 4, 2, 2}, {2, 3, 4, 4});
  expect_error(a.call(), ACLNN_ERR_PARAM_INVALID,
               {kOp, "gradOutput leading dims [2, 4] must equal self's leading dims [2, 3]"});
  a.set_shapes({4, 2, 2}, {3, 4, 4}, {4, 2, 2}, {3, 4, 4});
  expect_error(a.call(), ACLNN_ERR_PARAM_INVALID,
               {kOp, "gradOutput leading dims [4] must equal self's leading dims [3] (C)"});
}

// 6. The plane must be indexable by an int32.
TEST(AdaptiveMaxPool2dBackwardChecks, PlaneMustHaveAtMost2To31Minus1Positions) {
  Args a;
  a.set_shapes({1, 1, 2, 2}, {1, 1, 65536, 32768}, {1, 1, 2, 2}, {1, 1, 65536, 32768});
  expect_error(a.call(), ACLNN_ERR_PARAM_INVALID,
               {kOp, "self H*W must be <= 2147483647", "got 65536*32768"});
}

// 7. Device memory and overlaps.
TEST(AdaptiveMaxPool2dBackwardChecks, TensorsMustBeInDeviceMemory) {
  Args a;
  std::vector<float> host(24);
  a.grad_output = make_tensor({2, 3, 2, 2}, ACL_FLOAT, host.data());
  expect_error(a.call(), ACLNN_ERR_PARAM_INVALID, {kOp, "gradOutput", "not inside device memory"});
  Args b;
  b.self = make_tensor({2, 3, 4, 4}, ACL_FLOAT, b.self_memory.get(), {}, 1000);
  expect_error(b.call(), ACLNN_ERR_PARAM_INVALID, {kOp, "self", "not inside device memory"});
  Args c;
  c.grad_input = make_tensor({2, 3, 4, 4}, ACL_FLOAT, c.grad_input_memory.get(), {}, 1000);
  expect_error(c.call(), ACLNN_ERR_PARAM_INVALID, {kOp, "gradInput", "not inside device memory"});
}

TEST(AdaptiveMaxPool2dBackwardChecks, GradInputMustNotOverlapItsInputs) {
  Args a;
  a.grad_input = make_tensor({2, 3, 4, 4}, ACL_FLOAT, a.grad_output_memory.get());
  expect_error(a.call(), ACLNN_ERR_PARAM_INVALID, {kOp, "gradInput overlaps gradOutput"});
  Args b;
  b.grad_input = make_tensor({2, 3, 4, 4}, ACL_FLOAT, b.indices_memory.get(), {}, 10);
  expect_error(b.call(), ACLNN_ERR_PARAM_INVALID, {kOp, "gradInput overlaps indices"});
}

TEST(AdaptiveMaxPool2dBackwardChecks, GradInputMustNotOverlapItself) {
  Args a;
  a.grad_input = make_tensor({2, 3, 4, 4}, ACL_FLOAT, a.grad_input_memory.get(), {48, 16, 0, 1});
  expect_error(a.call(), ACLNN_ERR_PARAM_INVALID,
               {kOp, "gradInput", "would write some element more than once"});
}

// Phase 2's own checks (the shared launcher).
TEST(AdaptiveMaxPool2dBackwardChecks, LaunchChecksExecutorAndWorkspace) {
  expect_error(aclnnAdaptiveMaxPool2dBackward(nullptr, 0, nullptr, nullptr),
               ACLNN_ERR_PARAM_NULLPTR, {kOp, "executor is null"});
  Args a;
  a.set(ACL_BF16, ACL_BF16, ACL_INT64, ACL_BF16);
  ASSERT_EQ(aclnnAdaptiveMaxPool2dBackwardGetWorkspaceSize(a.grad_output.get(), a.self.get(),
                                                           a.indices.get(), a.grad_input.get(),
                                                           &a.workspace_size, &a.executor),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  ASSERT_GT(a.workspace_size, 0u);
  expect_error(aclnnAdaptiveMaxPool2dBackward(nullptr, a.workspace_size - 1, a.executor, nullptr),
               ACLNN_ERR_PARAM_INVALID, {kOp, "workspaceSize"});
}

}  // namespace
