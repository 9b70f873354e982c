// The checks of aclnnConvTbc (SPEC section 11: section 8's rules for self, weight, bias and
// output), each triggered alone, with its code and message.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "aclnnop/aclnn_convolution.h"
#include "check_call.h"
#include "test_env.h"

namespace {

using oa_test::DeviceBuffer;
using oa_test::expect_error;
using oa_test::make_tensor;
using oa_test::TensorPtr;

constexpr const char* kOp = "aclnnConvTbc";

// A valid call (T=6, B=2, Cin=3, Cout=4, K=3, pad=1, so Tout=6); a test changes one thing.
struct Call : oa_test::CheckCall {
  std::vector<int64_t> self_shape{6, 2, 3};
  std::vector<int64_t> weight_shape{3, 3, 4};
  std::vector<int64_t> bias_shape{4};
  std::vector<int64_t> output_shape{6, 2, 4};
  aclDataType self_dtype = ACL_FLOAT, weight_dtype = ACL_FLOAT, bias_dtype = ACL_FLOAT,
              output_dtype = ACL_FLOAT;
  aclFormat self_format = ACL_FORMAT_ND, weight_format = ACL_FORMAT_ND, bias_format = ACL_FORMAT_ND,
            output_format = ACL_FORMAT_ND;
  int64_t pad = 1;
  int8_t cube_math_type = 0;
  std::function<void(Call&)> after_create;

  const aclTensor* self = nullptr;
  const aclTensor* weight = nullptr;
  const aclTensor* bias = nullptr;
  aclTensor* output = nullptr;

  int run() {
    self = create(self_shape, self_dtype, self_format);
    weight = create(weight_shape, weight_dtype, weight_format);
    bias = create(bias_shape, bias_dtype, bias_format);
    output = create(output_shape, output_dtype, output_format);
    if (after_create) {
      after_create(*this);
    }
    return finish(aclnnConvTbcGetWorkspaceSize(self, weight, bias, pad, output, cube_math_type,
                                               workspace_size_arg, executor_arg));
  }
};

TEST(ConvTbcForwardChecks, ValidCallSucceeds) {
  Call call;
  EXPECT_EQ(call.run(), ACLNN_SUCCESS) << aclGetRecentErrMsg();
}

TEST(ConvTbcForwardChecks, NullPointers) {
  const char* names[] = {"self", "weight", "bias", "output", "workspaceSize", "executor"};
  for (int which = 0; which < 6; ++which) {
    Call call;
    call.after_create = [which](Call& c) {
      switch (which) {
        case 0:
          c.self = nullptr;
          break;
        case 1:
          c.weight = nullptr;
          break;
        case 2:
          c.bias = nullptr;
          break;
        case 3:
          c.output = nullptr;
          break;
        case 4:
          c.workspace_size_arg = nullptr;
          break;
        default:
          c.executor_arg = nullptr;
          break;
      }
    };
    expect_error(call.run(), ACLNN_ERR_PARAM_NULLPTR,
                 {kOp, std::string(names[which]) + " must not be null"});
  }
}

// bias and self are checked against the float types; weight and output against self (below).
TEST(ConvTbcForwardChecks, Dtypes) {
  struct Case {
    aclDataType Call::*field;
    const char* name;
  } cases[] = {{&Call::self_dtype, "self"}, {&Call::bias_dtype, "bias"}};
  for (const Case& c : cases) {
    Call call;
    call.*c.field = ACL_HIFLOAT8;
    expect_error(
        call.run(), ACLNN_ERR_PARAM_INVALID,
        {kOp, std::string(c.name) + " dtype must be one of {FLOAT, FLOAT16, BF16}", "HIFLOAT8"});
  }
}

// self, weight and output share one dtype (CANN's rule).
TEST(ConvTbcForwardChecks, WeightDtypeMustEqualSelf) {
  Call call;
  call.self_dtype = call.output_dtype = ACL_FLOAT16;
  call.weight_dtype = ACL_BF16;
  expect_error(call.run(), ACLNN_ERR_PARAM_INVALID,
               {kOp, "weight dtype must equal self dtype (FLOAT16), got BF16"});
}

TEST(ConvTbcForwardChecks, OutputDtypeMustEqualSelf) {
  Call call;
  call.self_dtype = call.weight_dtype = ACL_FLOAT16;
  call.output_dtype = ACL_FLOAT;
  expect_error(call.run(), ACLNN_ERR_PARAM_INVALID,
               {kOp, "output dtype must equal self dtype (FLOAT16), got FLOAT"});
}

// bias may have any float dtype: it is converted (CANN's system tests mix FLOAT16 bias with BF16
// tensors and the reverse).
TEST(ConvTbcForwardChecks, BiasOfAnotherFloatDtypeIsAccepted) {
  const aclDataType dtypes[] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
  for (aclDataType tensors : dtypes) {
    for (aclDataType bias : dtypes) {
      Call call;
      call.self_dtype = call.weight_dtype = call.output_dtype = tensors;
      call.bias_dtype = bias;
      EXPECT_EQ(call.run(), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    }
  }
}

TEST(ConvTbcForwardChecks, Formats) {
  Call self;
  self.self_format = ACL_FORMAT_NCHW;
  expect_error(self.run(), ACLNN_ERR_PARAM_INVALID, {kOp, "self format must be one of {ND, NCL}"});
  Call output;
  output.output_format = ACL_FORMAT_FRACTAL_NZ;
  expect_error(output.run(), ACLNN_ERR_PARAM_INVALID,
               {kOp, "output format must be one of {ND, NCL}", "FRACTAL_NZ"});
  Call weight;
  weight.weight_format = ACL_FORMAT_NHWC;
  expect_error(weight.run(), ACLNN_ERR_PARAM_INVALID,
               {kOp, "weight format must be one of {ND, NCL}"});
  Call bias;
  bias.bias_format = ACL_FORMAT_NCHW;
  expect_error(bias.run(), ACLNN_ERR_PARAM_INVALID,
               {kOp, "bias format must be one of {ND, NCL}", "NCHW"});
  // CANN's system tests pass every tensor as NCL, bias included.
  Call ncl;
  ncl.self_format = ncl.weight_format = ncl.bias_format = ncl.output_format = ACL_FORMAT_NCL;
  EXPECT_EQ(ncl.run(), ACLNN_SUCCESS) << aclGetRecentErrMsg();
}

TEST(ConvTbcForwardChecks, Ranks) {
  Call self;
  self.self_shape = {6, 6};
  expect_error(self.run(), ACLNN_ERR_PARAM_INVALID, {kOp, "self rank must be 3"});
  Call bias;
  bias.bias_shape = {4, 1};
  expect_error(bias.run(), ACLNN_ERR_PARAM_INVALID, {kOp, "bias rank must be 1"});
  Call output;
  output.output_shape = {6, 2, 4, 1};
  expect_error(output.run(), ACLNN_ERR_PARAM_INVALID, {kOp, "output rank must be 3"});
}

TEST(ConvTbcForwardChecks, Sizes) {
  Call channels;
  channels.self_shape = {6, 2, 2};
  expect_error(channels.run(), ACLNN_ERR_PARAM_INVALID,
               {kOp, "self dim 2 (Cin=2) must equal weight dim 1 (Cin=3)"});
  Call bias;
  bias.bias_shape = {3};
  expect_error(bias.run(), ACLNN_ERR_PARAM_INVALID,
               {kOp, "bias dim 0 (Cout=3) must equal weight dim 2 (Cout=4)"});
  Call kernel;
  kernel.weight_shape = {0, 3, 4};
  kernel.output_shape = {9, 2, 4};  // what T + 2*pad - K + 1 would give
  expect_error(kernel.run(), ACLNN_ERR_PARAM_INVALID,
               {kOp, "weight dim 0 (the kernel size K) must be >= 1, got 0"});
  Call pad;
  pad.pad = -2;
  expect_error(pad.run(), ACLNN_ERR_PARAM_INVALID, {kOp, "pad must be >= 0, got -2"});
  Call overflow;
  overflow.pad = INT64_MAX / 2;
  expect_error(overflow.run(), ACLNN_ERR_PARAM_INVALID,
               {kOp, "output length T + 2*pad - K + 1 does not fit in 64 bits"});
  Call length;
  length.self_shape = {1, 2, 3};
  length.pad = 0;
  expect_error(length.run(), ACLNN_ERR_PARAM_INVALID,
               {kOp, "output shape must be (T + 2*pad - K + 1, B, Cout)", "is below 1"});
  Call output;
  output.output_shape = {6, 2, 5};
  expect_error(output.run(), ACLNN_ERR_PARAM_INVALID,
               {kOp,
                "output shape must be (T + 2*pad - K + 1, B, Cout) with T=6, pad=1, K=3: "
                "[6, 2, 4], got [6, 2, 5]"});
}

// No upper cap on pad: CANN's system tests use 1037, 443 and 354.
TEST(ConvTbcForwardChecks, LargePadsAreAccepted) {
  for (int64_t pad : {int64_t{354}, int64_t{443}, int64_t{1037}}) {
    Call call;
    call.pad = pad;
    call.output_shape = {6 + 2 * pad - 3 + 1, 2, 4};
    EXPECT_EQ(call.run(), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  }
}

TEST(ConvTbcForwardChecks, CubeMathType) {
  Call range;
  range.cube_math_type = 9;
  expect_error(range.run(), ACLNN_ERR_PARAM_INVALID, {kOp, "cubeMathType must be", "got 9"});
  Call bf16;
  bf16.cube_math_type = 2;
  bf16.self_dtype = bf16.weight_dtype = bf16.output_dtype = ACL_BF16;
  expect_error(bf16.run(), ACLNN_ERR_PARAM_INVALID,
               {kOp,
                "cubeMathType 2 (USE_FP16) cannot be used with BF16 inputs, got self dtype "
                "BF16"});
  // bias is converted, not multiplied: a BF16 bias is no BF16 operand.
  Call bias;
  bias.cube_math_type = 2;
  bias.bias_dtype = ACL_BF16;
  EXPECT_EQ(bias.run(), ACLNN_SUCCESS) << aclGetRecentErrMsg();
}

TEST(ConvTbcForwardChecks, MemoryAndOverlap) {
  std::vector<float> host(64);
  TensorPtr on_host = make_tensor({3, 3, 4}, ACL_FLOAT, host.data());
  Call memory;
  memory.after_create = [&](Call& c) { c.weight = on_host.get(); };
  expect_error(memory.run(), ACLNN_ERR_PARAM_INVALID,
               {kOp, "weight", "is not inside device memory"});
  Call overlap;
  TensorPtr alias{nullptr, aclDestroyTensor};
  overlap.after_create = [&](Call& c) {
    alias = make_tensor({6, 2, 4}, ACL_FLOAT, c.buffers[0]->get());  // self's memory
    c.output = alias.get();
  };
  expect_error(overlap.run(), ACLNN_ERR_PARAM_INVALID, {kOp, "output overlaps self"});
}

}  // namespace
