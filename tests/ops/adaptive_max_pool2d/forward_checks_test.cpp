// Every check of aclnnAdaptiveMaxPool2dGetWorkspaceSize (SPEC sections 11 and 7), each triggered
// alone from otherwise valid arguments, with its code and message.
#include <memory>
#include <vector>

#include "aclnnop/aclnn_adaptive_max_pool2d.h"
#include "test_env.h"

namespace {

using oa_test::DeviceBuffer;
using oa_test::expect_error;
using oa_test::make_tensor;
using oa_test::TensorPtr;

constexpr const char* kOp = "aclnnAdaptiveMaxPool2d";

using IntArrayPtr = std::unique_ptr<aclIntArray, aclnnStatus (*)(const aclIntArray*)>;

IntArrayPtr int_array(std::vector<int64_t> values) {
  return IntArrayPtr(aclCreateIntArray(values.data(), values.size()), aclDestroyIntArray);
}

// Valid arguments: self [2, 3, 4, 4] FLOAT, outputSize (2, 2), outputOut [2, 3, 2, 2],
// indicesOut [2, 3, 2, 2] INT64, each in its own allocation, large enough for the variants below.
struct Args {
  DeviceBuffer self_memory{4096};
  DeviceBuffer out_memory{4096};
  DeviceBuffer indices_memory{4096};
  TensorPtr self = make_tensor({2, 3, 4, 4}, ACL_FLOAT, self_memory.get());
  IntArrayPtr output_size = int_array({2, 2});
  TensorPtr out = make_tensor({2, 3, 2, 2}, ACL_FLOAT, out_memory.get());
  TensorPtr indices = make_tensor({2, 3, 2, 2}, ACL_INT64, indices_memory.get());

  void set(aclDataType self_dtype, aclDataType out_dtype, aclDataType index_dtype,
           aclFormat format = ACL_FORMAT_ND) {
    self = make_tensor({2, 3, 4, 4}, self_dtype, self_memory.get(), {}, 0, format);
    out = make_tensor({2, 3, 2, 2}, out_dtype, out_memory.get(), {}, 0, format);
    indices = make_tensor({2, 3, 2, 2}, index_dtype, indices_memory.get(), {}, 0, format);
  }
  void set_shapes(const std::vector<int64_t>& x, const std::vector<int64_t>& o,
                  const std::vector<int64_t>& index) {
    self = make_tensor(x, ACL_FLOAT, self_memory.get());
    out = make_tensor(o, ACL_FLOAT, out_memory.get());
    indices = make_tensor(index, ACL_INT64, indices_memory.get());
  }

  aclnnStatus call() {
    uint64_t workspace_size = 0;
    aclOpExecutor* executor = nullptr;
    aclnnStatus status = aclnnAdaptiveMaxPool2dGetWorkspaceSize(
        self.get(), output_size.get(), out.get(), indices.get(), &workspace_size, &executor);
    if (status == ACLNN_SUCCESS) {
      EXPECT_EQ(aclDestroyAclOpExecutor(executor), ACLNN_SUCCESS);
    }
    return status;
  }
};

TEST(AdaptiveMaxPool2dChecks, ValidArgumentsPass) {
  Args a;
  EXPECT_EQ(a.call(), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  a.set(ACL_FLOAT16, ACL_FLOAT16, ACL_INT64, ACL_FORMAT_NCHW);
  EXPECT_EQ(a.call(), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  a.set(ACL_DOUBLE, ACL_DOUBLE, ACL_INT64);  // CANN's code and document support DOUBLE
  EXPECT_EQ(a.call(), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  a.set_shapes({3, 4, 4}, {3, 5, 7}, {3, 5, 7});  // 3-D, Ho > H
  a.output_size = int_array({5, 7});
  EXPECT_EQ(a.call(), ACLNN_SUCCESS) << aclGetRecentErrMsg();
}

// 1. Null pointers, in the order of the prototype.
TEST(AdaptiveMaxPool2dChecks, NullPointers) {
  Args a;
  uint64_t size = 0;
  aclOpExecutor* executor = nullptr;
  expect_error(aclnnAdaptiveMaxPool2dGetWorkspaceSize(nullptr, a.output_size.get(), a.out.get(),
                                                      a.indices.get(), &size, &executor),
               ACLNN_ERR_PARAM_NULLPTR, {kOp, "self must not be null"});
  expect_error(aclnnAdaptiveMaxPool2dGetWorkspaceSize(a.self.get(), nullptr, a.out.get(),
                                                      a.indices.get(), &size, &executor),
               ACLNN_ERR_PARAM_NULLPTR, {kOp, "outputSize must not be null"});
  expect_error(aclnnAdaptiveMaxPool2dGetWorkspaceSize(a.self.get(), a.output_size.get(), nullptr,
                                                      a.indices.get(), &size, &executor),
               ACLNN_ERR_PARAM_NULLPTR, {kOp, "outputOut must not be null"});
  expect_error(aclnnAdaptiveMaxPool2dGetWorkspaceSize(a.self.get(), a.output_size.get(),
                                                      a.out.get(), nullptr, &size, &executor),
               ACLNN_ERR_PARAM_NULLPTR, {kOp, "indicesOut must not be null"});
  expect_error(
      aclnnAdaptiveMaxPool2dGetWorkspaceSize(a.self.get(), a.output_size.get(), a.out.get(),
                                             a.indices.get(), nullptr, &executor),
      ACLNN_ERR_PARAM_NULLPTR, {kOp, "workspaceSize must not be null"});
  expect_error(aclnnAdaptiveMaxPool2dGetWorkspaceSize(a.self.get(), a.output_size.get(),
                                                      a.out.get(), a.indices.get(), &size, nullptr),
               ACLNN_ERR_PARAM_NULLPTR, {kOp, "executor must not be null"});
}

// 2. Dtypes.
TEST(AdaptiveMaxPool2dChecks, SelfDtypeMustBeFloating) {
  Args a;
  a.set(ACL_INT32, ACL_INT32, ACL_INT64);
  expect_error(a.call(), ACLNN_ERR_PARAM_INVALID,
               {kOp, "self dtype must be one of {FLOAT, FLOAT16, BF16, DOUBLE}", "got INT32"});
}

TEST(AdaptiveMaxPool2dChecks, OutputDtypeMustEqualSelfDtype) {
  Args a;
  a.set(ACL_FLOAT, ACL_BF16, ACL_INT64);
  expect_error(a.call(), ACLNN_ERR_PARAM_INVALID,
               {kOp, "outputOut dtype must equal self dtype (FLOAT)", "got BF16"});
  a.set(ACL_FLOAT16, ACL_FLOAT, ACL_INT64);  // no widening output either
  expect_error(a.call(), ACLNN_ERR_PARAM_INVALID,
               {kOp, "outputOut dtype must equal self dtype (FLOAT16)", "got FLOAT"});
}

TEST(AdaptiveMaxPool2dChecks, IndicesDtypeMustBeInt64) {
  for (aclDataType dtype : {ACL_INT32, ACL_INT16}) {
    Args a;
    a.set(ACL_FLOAT, ACL_FLOAT, dtype);
    expect_error(a.call(), ACLNN_ERR_PARAM_INVALID,
                 {kOp, "indicesOut dtype must be one of {INT64}", "got INT"});
  }
}

// 3. Formats: ND or NCHW. NHWC is rejected: read as NCHW, its axes would be pooled wrongly.
TEST(AdaptiveMaxPool2dChecks, FormatsMustBeNdOrNchw) {
  Args a;
  a.set(ACL_FLOAT, ACL_FLOAT, ACL_INT64, ACL_FORMAT_NHWC);
  expect_error(a.call(), ACLNN_ERR_PARAM_INVALID,
               {kOp, "self format must be one of {ND, NCHW}", "got NHWC"});
  Args out;
  out.out = make_tensor({2, 3, 2, 2}, ACL_FLOAT, out.out_memory.get(), {}, 0, ACL_FORMAT_NHWC);
  expect_error(out.call(), ACLNN_ERR_PARAM_INVALID,
               {kOp, "outputOut format must be one of {ND, NCHW}", "got NHWC"});
  Args indices;
  indices.indices =
      make_tensor({2, 3, 2, 2}, ACL_INT64, indices.indices_memory.get(), {}, 0, ACL_FORMAT_NCL);
  expect_error(indices.call(), ACLNN_ERR_PARAM_INVALID,
               {kOp, "indicesOut format must be one of {ND, NCHW}", "got NCL"});
}

TEST(AdaptiveMaxPool2dChecks, PrivateFormatIsRejected) {
  Args a;
  a.set(ACL_FLOAT, ACL_FLOAT, ACL_INT64, ACL_FORMAT_FRACTAL_Z);
  expect_error(a.call(), ACLNN_ERR_PARAM_INVALID,
               {kOp, "self format must be one of {ND, NCHW}", "FRACTAL_Z"});
}

// 4. Ranks.
TEST(AdaptiveMaxPool2dChecks, RankMustBe3Or4) {
  Args a;
  a.set_shapes({4, 4}, {2, 2}, {2, 2});
  expect_error(a.call(), ACLNN_ERR_PARAM_INVALID, {kOp, "self rank must be 3..4", "got 2"});
}

TEST(AdaptiveMaxPool2dChecks, RanksMustBeEqual) {
  Args a;
  a.set_shapes({2, 3, 4, 4}, {6, 2, 2}, {2, 3, 2, 2});
  expect_error(a.call(), ACLNN_ERR_PARAM_INVALID,
               {kOp, "outputOut rank must equal self rank (4)", "got 3"});
}

// 5. outputSize.
TEST(AdaptiveMaxPool2dChecks, OutputSizeMustHaveTwoValues) {
  Args a;
  a.output_size = int_array({2});
  expect_error(a.call(), ACLNN_ERR_PARAM_INVALID,
               {kOp, "outputSize must have 2 values (Ho, Wo)", "got 1 [2]"});
  a.output_size = int_array({2, 2, 1});
  expect_error(a.call(), ACLNN_ERR_PARAM_INVALID, {kOp, "got 3 [2, 2, 1]"});
}

TEST(AdaptiveMaxPool2dChecks, OutputSizeValuesMustBePositive) {
  Args a;
  a.output_size = int_array({0, 2});
  expect_error(a.call(), ACLNN_ERR_PARAM_INVALID,
               {kOp, "outputSize values must be >= 1", "got [0, 2]"});
  a.output_size = int_array({2, -3});
  expect_error(a.call(), ACLNN_ERR_PARAM_INVALID, {kOp, "got [2, -3]"});
}

// 6. The input plane.
TEST(AdaptiveMaxPool2dChecks, InputPlaneMustNotBeEmpty) {
  Args a;
  a.set_shapes({2, 3, 0, 4}, {2, 3, 2, 2}, {2, 3, 2, 2});
  expect_error(a.call(), ACLNN_ERR_PARAM_INVALID,
               {kOp, "self H and W (its last two dims) must be >= 1", "got shape [2, 3, 0, 4]"});
}

// 7. Output shapes.
TEST(AdaptiveMaxPool2dChecks, OutputShapeMustFollowOutputSize) {
  Args a;
  a.set_shapes({2, 3, 4, 4}, {2, 3, 3, 3}, {2, 3, 2, 2});
  expect_error(a.call(), ACLNN_ERR_PARAM_INVALID,
               {kOp, "outputOut shape must be self's leading dims followed by outputSize",
                "[2, 3, 2, 2], got [2, 3, 3, 3]"});
}

TEST(AdaptiveMaxPool2dChecks, IndicesShapeMustFollowOutputSize) {
  Args a;
  a.set_shapes({2, 3, 4, 4}, {2, 3, 2, 2}, {2, 4, 2, 2});
  expect_error(a.call(), ACLNN_ERR_PARAM_INVALID,
               {kOp, "indicesOut shape must be self's leading dims followed by outputSize",
                "got [2, 4, 2, 2]"});
}

// 9. Device memory.
TEST(AdaptiveMaxPool2dChecks, TensorsMustBeInDeviceMemory) {
  Args a;
  std::vector<float> host(96);
  a.self = make_tensor({2, 3, 4, 4}, ACL_FLOAT, host.data());
  expect_error(a.call(), ACLNN_ERR_PARAM_INVALID, {kOp, "self", "not inside device memory"});
  Args b;
  b.indices = make_tensor({2, 3, 2, 2}, ACL_INT64, b.indices_memory.get(), {}, 500);
  expect_error(b.call(), ACLNN_ERR_PARAM_INVALID, {kOp, "indicesOut", "not inside device memory"});
}

// 10. Overlaps.
TEST(AdaptiveMaxPool2dChecks, OutputsMustNotOverlapSelfOrEachOther) {
  Args a;
  a.out = make_tensor({2, 3, 2, 2}, ACL_FLOAT, a.self_memory.get(), {}, 8);
  expect_error(a.call(), ACLNN_ERR_PARAM_INVALID, {kOp, "outputOut overlaps self"});
  Args b;
  b.indices = make_tensor({2, 3, 2, 2}, ACL_INT64, b.out_memory.get());
  expect_error(b.call(), ACLNN_ERR_PARAM_INVALID, {kOp, "outputOut overlaps indicesOut"});
  Args c;
  c.indices = make_tensor({2, 3, 2, 2}, ACL_INT64, c.self_memory.get(), {}, 4);
  expect_error(c.call(), ACLNN_ERR_PARAM_INVALID, {kOp, "indicesOut overlaps self"});
}

TEST(AdaptiveMaxPool2dChecks, OutputsMustNotOverlapThemselves) {
  Args a;
  a.indices = make_tensor({2, 3, 2, 2}, ACL_INT64, a.indices_memory.get(), {6, 2, 1, 0});
  expect_error(a.call(), ACLNN_ERR_PARAM_INVALID,
               {kOp, "indicesOut", "would write some element more than once"});
}

}  // namespace
