// Every check of SPEC section 8, each triggered alone (all earlier checks pass), with its code and
// a message naming the API, the parameter, the rule and the values.
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "aclnnop/aclnn_convolution_backward.h"
#include "check_call.h"
#include "test_env.h"

namespace {

using oa_test::DeviceBuffer;
using oa_test::expect_error;
using oa_test::make_tensor;
using oa_test::TensorPtr;

constexpr const char* kOp = "aclnnConvTbcBackward";

// A valid call (T=6, B=2, Cin=3, Cout=4, K=3, pad=1, so Tout=6), every tensor in its own device
// allocation; a test changes one thing.
struct Call : oa_test::CheckCall {
  std::vector<int64_t> self_shape{6, 2, 4};
  std::vector<int64_t> input_shape{6, 2, 3};
  std::vector<int64_t> weight_shape{3, 3, 4};
  std::vector<int64_t> bias_shape{4};
  std::vector<int64_t> grad_input_shape{6, 2, 3};
  std::vector<int64_t> grad_weight_shape{3, 3, 4};
  std::vector<int64_t> grad_bias_shape{4};
  aclDataType self_dtype = ACL_FLOAT, input_dtype = ACL_FLOAT, weight_dtype = ACL_FLOAT,
              bias_dtype = ACL_FLOAT, grad_input_dtype = ACL_FLOAT, grad_weight_dtype = ACL_FLOAT,
              grad_bias_dtype = ACL_FLOAT;
  aclFormat self_format = ACL_FORMAT_ND, input_format = ACL_FORMAT_ND,
            weight_format = ACL_FORMAT_ND, bias_format = ACL_FORMAT_ND,
            grad_input_format = ACL_FORMAT_ND, grad_weight_format = ACL_FORMAT_ND,
            grad_bias_format = ACL_FORMAT_ND;
  int64_t pad = 1;
  int8_t cube_math_type = 0;
  // Set by a test to replace a tensor after creation (host memory, overlapping views, nulls).
  std::function<void(Call&)> after_create;

  const aclTensor* self = nullptr;
  const aclTensor* input = nullptr;
  const aclTensor* weight = nullptr;
  const aclTensor* bias = nullptr;
  aclTensor* grad_input = nullptr;
  aclTensor* grad_weight = nullptr;
  aclTensor* grad_bias = nullptr;

  int run() {
    self = create(self_shape, self_dtype, self_format);
    input = create(input_shape, input_dtype, input_format);
    weight = create(weight_shape, weight_dtype, weight_format);
    bias = create(bias_shape, bias_dtype, bias_format);
    grad_input = create(grad_input_shape, grad_input_dtype, grad_input_format);
    grad_weight = create(grad_weight_shape, grad_weight_dtype, grad_weight_format);
    grad_bias = create(grad_bias_shape, grad_bias_dtype, grad_bias_format);
    if (after_create) {
      after_create(*this);
    }
    return finish(aclnnConvTbcBackwardGetWorkspaceSize(
        self, input, weight, bias, pad, cube_math_type, grad_input, grad_weight, grad_bias,
        workspace_size_arg, executor_arg));
  }
};

TEST(ConvTbcBackwardChecks, ValidCallSucceeds) {
  Call call;
  EXPECT_EQ(call.run(), ACLNN_SUCCESS) << aclGetRecentErrMsg();
}

// 1. Null pointers, each alone.
TEST(ConvTbcBackwardChecks, NullPointers) {
  const char* names[] = {"self",       "input",    "weight",        "bias",    "gradInput",
                         "gradWeight", "gradBias", "workspaceSize", "executor"};
  for (int which = 0; which < 9; ++which) {
    Call call;
    call.after_create = [which](Call& c) {
      switch (which) {
        case 0:
          c.self = nullptr;
          break;
        case 1:
          c.input = nullptr;
          break;
        case 2:
          c.weight = nullptr;
          break;
        case 3:
          c.bias = nullptr;
          break;
        case 4:
          c.grad_input = nullptr;
          break;
        case 5:
          c.grad_weight = nullptr;
          break;
        case 6:
          c.grad_bias = nullptr;
          break;
        case 7:
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

// 2. Dtypes.
TEST(ConvTbcBackwardChecks, InputDtypesOutsideTheFloatTypes) {
  struct Case {
    aclDataType Call::*field;
    const char* name;
  } cases[] = {{&Call::self_dtype, "self"},
               {&Call::input_dtype, "input"},
               {&Call::weight_dtype, "weight"},
               {&Call::bias_dtype, "bias"},
               {&Call::grad_input_dtype, "gradInput"},
               {&Call::grad_bias_dtype, "gradBias"}};
  for (const Case& c : cases) {
    Call call;
    call.*c.field = ACL_INT32;
    if (c.field == &Call::input_dtype) {
      call.grad_input_dtype = ACL_INT32;  // so that only input's own dtype rule fails first
    }
    expect_error(
        call.run(), ACLNN_ERR_PARAM_INVALID,
        {kOp, std::string(c.name) + " dtype must be one of {FLOAT, FLOAT16, BF16}", "INT32"});
  }
}

TEST(ConvTbcBackwardChecks, GradWeightDtypeOutsideItsList) {
  Call call;
  call.grad_weight_dtype = ACL_FLOAT8_E5M2;
  expect_error(
      call.run(), ACLNN_ERR_PARAM_INVALID,
      {kOp, "gradWeight dtype must be one of", "HIFLOAT8", "FLOAT8_E4M3FN", "FLOAT8_E5M2"});
}

TEST(ConvTbcBackwardChecks, GradInputDtypeMustEqualInput) {
  Call call;
  call.grad_input_dtype = ACL_FLOAT16;
  expect_error(call.run(), ACLNN_ERR_PARAM_INVALID,
               {kOp, "gradInput dtype must equal input dtype (FLOAT), got FLOAT16"});
}

TEST(ConvTbcBackwardChecks, GradBiasDtypeMustEqualBias) {
  Call call;
  call.grad_bias_dtype = ACL_BF16;
  expect_error(call.run(), ACLNN_ERR_PARAM_INVALID,
               {kOp, "gradBias dtype must equal bias dtype (FLOAT), got BF16"});
}

TEST(ConvTbcBackwardChecks, GradWeightDtypeMustEqualWeightOrBeEightBit) {
  Call call;
  call.grad_weight_dtype = ACL_FLOAT16;
  expect_error(call.run(), ACLNN_ERR_PARAM_INVALID,
               {kOp,
                "gradWeight dtype must equal weight dtype (FLOAT) or be HIFLOAT8 or "
                "FLOAT8_E4M3FN, got FLOAT16"});
  for (aclDataType eight_bit : {ACL_HIFLOAT8, ACL_FLOAT8_E4M3FN}) {
    Call ok;
    ok.grad_weight_dtype = eight_bit;
    EXPECT_EQ(ok.run(), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  }
}

TEST(ConvTbcBackwardChecks, MixedInputDtypesAreAccepted) {
  Call call;
  call.self_dtype = ACL_FLOAT16;
  call.input_dtype = call.grad_input_dtype = ACL_BF16;
  call.bias_dtype = call.grad_bias_dtype = ACL_FLOAT16;
  EXPECT_EQ(call.run(), ACLNN_SUCCESS) << aclGetRecentErrMsg();
}

// 3. Formats.
TEST(ConvTbcBackwardChecks, Formats) {
  struct Case {
    aclFormat Call::*field;
    const char* name;
    aclFormat bad;
    const char* allowed;
  } cases[] = {
      {&Call::self_format, "self", ACL_FORMAT_NCHW, "{ND, NCL}"},
      {&Call::input_format, "input", ACL_FORMAT_NHWC, "{ND, NCL}"},
      {&Call::weight_format, "weight", ACL_FORMAT_FRACTAL_Z, "{ND, NCL}"},
      {&Call::grad_input_format, "gradInput", ACL_FORMAT_NC1HWC0, "{ND, NCL}"},
      {&Call::grad_weight_format, "gradWeight", ACL_FORMAT_NCHW, "{ND, NCL}"},
      {&Call::bias_format, "bias", ACL_FORMAT_NCHW, "{ND, NCL}"},
      {&Call::grad_bias_format, "gradBias", ACL_FORMAT_NCL, "{ND}"},
  };
  for (const Case& c : cases) {
    Call call;
    call.*c.field = c.bad;
    expect_error(call.run(), ACLNN_ERR_PARAM_INVALID,
                 {kOp, std::string(c.name) + " format must be one of " + c.allowed});
  }
  // CANN's system tests pass an NCL bias.
  Call ncl;
  ncl.self_format = ncl.input_format = ncl.weight_format = ncl.bias_format = ncl.grad_input_format =
      ncl.grad_weight_format = ACL_FORMAT_NCL;
  EXPECT_EQ(ncl.run(), ACLNN_SUCCESS) << aclGetRecentErrMsg();
}

// 4. Ranks.
TEST(ConvTbcBackwardChecks, Ranks) {
  struct Case {
    std::vector<int64_t> Call::*field;
    const char* name;
    std::vector<int64_t> shape;
    const char* rank;
  } cases[] = {
      {&Call::self_shape, "self", {6, 8}, "3"},
      {&Call::input_shape, "input", {6, 2, 3, 1}, "3"},
      {&Call::weight_shape, "weight", {9, 4}, "3"},
      {&Call::grad_input_shape, "gradInput", {36}, "3"},
      {&Call::grad_weight_shape, "gradWeight", {3, 3, 4, 1}, "3"},
      {&Call::bias_shape, "bias", {1, 4}, "1"},
      {&Call::grad_bias_shape, "gradBias", {}, "1"},
  };
  for (const Case& c : cases) {
    Call call;
    call.*c.field = c.shape;
    expect_error(call.run(), ACLNN_ERR_PARAM_INVALID,
                 {kOp, std::string(c.name) + " rank must be " + c.rank});
  }
}

// 5. Sizes.
TEST(ConvTbcBackwardChecks, InputChannelsMustMatchWeight) {
  Call call;
  call.input_shape = call.grad_input_shape = {6, 2, 5};
  expect_error(call.run(), ACLNN_ERR_PARAM_INVALID,
               {kOp, "input dim 2 (Cin=5) must equal weight dim 1 (Cin=3)"});
}

TEST(ConvTbcBackwardChecks, BiasMustMatchWeightOutputChannels) {
  Call call;
  call.bias_shape = call.grad_bias_shape = {5};
  expect_error(call.run(), ACLNN_ERR_PARAM_INVALID,
               {kOp, "bias dim 0 (Cout=5) must equal weight dim 2 (Cout=4)"});
}

TEST(ConvTbcBackwardChecks, KernelSizeZero) {
  Call call;
  call.weight_shape = call.grad_weight_shape = {0, 3, 4};
  call.self_shape = {9, 2, 4};  // what T + 2*pad - K + 1 would give
  expect_error(call.run(), ACLNN_ERR_PARAM_INVALID,
               {kOp, "weight dim 0 (the kernel size K) must be >= 1, got 0"});
}

TEST(ConvTbcBackwardChecks, NegativePad) {
  Call call;
  call.pad = -1;
  expect_error(call.run(), ACLNN_ERR_PARAM_INVALID, {kOp, "pad must be >= 0, got -1"});
}

// pad has no upper cap: CANN's own system tests use 1037.
TEST(ConvTbcBackwardChecks, LargePadIsAccepted) {
  Call call;
  call.pad = 1037;
  call.self_shape = {6 + 2 * 1037 - 3 + 1, 2, 4};
  EXPECT_EQ(call.run(), ACLNN_SUCCESS) << aclGetRecentErrMsg();
}

TEST(ConvTbcBackwardChecks, PadWhoseOutputLengthOverflows) {
  Call call;
  call.pad = int64_t{1} << 62;
  expect_error(call.run(), ACLNN_ERR_PARAM_INVALID,
               {kOp, "self length T + 2*pad - K + 1 does not fit in 64 bits: T=6, pad=" +
                         std::to_string(int64_t{1} << 62)});
}

TEST(ConvTbcBackwardChecks, SelfMustNotBeEmpty) {
  Call call;
  call.self_shape = {6, 0, 4};
  call.input_shape = call.grad_input_shape = {6, 0, 3};
  expect_error(call.run(), ACLNN_ERR_PARAM_INVALID,
               {kOp, "self must not be empty, got shape [6, 0, 4]"});
}

TEST(ConvTbcBackwardChecks, OutputLengthBelowOne) {
  Call call;
  call.input_shape = call.grad_input_shape = {1, 2, 3};
  call.weight_shape = call.grad_weight_shape = {6, 3, 4};
  call.pad = 1;  // Tout = 1 + 2 - 6 + 1 = -2
  expect_error(
      call.run(), ACLNN_ERR_PARAM_INVALID,
      {kOp, "self shape must be (T + 2*pad - K + 1, B, Cout)", "1 + 2*1 - 6 + 1 = -2 is below 1"});
}

TEST(ConvTbcBackwardChecks, SelfShape) {
  Call call;
  call.self_shape = {5, 2, 4};
  expect_error(call.run(), ACLNN_ERR_PARAM_INVALID,
               {kOp,
                "self shape must be (T + 2*pad - K + 1, B, Cout) with T=6, pad=1, K=3: "
                "[6, 2, 4], got [5, 2, 4]"});
}

TEST(ConvTbcBackwardChecks, GradientShapes) {
  Call gi;
  gi.grad_input_shape = {6, 3, 3};
  expect_error(gi.run(), ACLNN_ERR_PARAM_INVALID,
               {kOp, "gradInput shape must be equal to input shape [6, 2, 3], got [6, 3, 3]"});
  Call gw;
  gw.grad_weight_shape = {3, 3, 5};
  expect_error(gw.run(), ACLNN_ERR_PARAM_INVALID,
               {kOp, "gradWeight shape must be equal to weight shape [3, 3, 4], got [3, 3, 5]"});
  Call gb;
  gb.grad_bias_shape = {3};
  expect_error(gb.run(), ACLNN_ERR_PARAM_INVALID,
               {kOp, "gradBias shape must be equal to bias shape [4], got [3]"});
}

// 6. cubeMathType.
TEST(ConvTbcBackwardChecks, CubeMathTypeRange) {
  for (int8_t mode : {int8_t{-1}, int8_t{4}}) {
    Call call;
    call.cube_math_type = mode;
    expect_error(call.run(), ACLNN_ERR_PARAM_INVALID,
                 {kOp,
                  "cubeMathType must be 0 (KEEP_DTYPE), 1 (ALLOW_FP32_DOWN_PRECISION), 2 "
                  "(USE_FP16) or 3 (USE_HF32), got " +
                      std::to_string(mode)});
  }
}

TEST(ConvTbcBackwardChecks, UseFp16WithBf16Input) {
  Call call;
  call.cube_math_type = 2;
  call.weight_dtype = call.grad_weight_dtype = ACL_BF16;
  expect_error(call.run(), ACLNN_ERR_PARAM_INVALID,
               {kOp,
                "cubeMathType 2 (USE_FP16) cannot be used with BF16 inputs, got weight "
                "dtype BF16"});
  Call fp16;
  fp16.cube_math_type = 2;
  fp16.weight_dtype = fp16.grad_weight_dtype = ACL_FLOAT16;
  EXPECT_EQ(fp16.run(), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  // bias is no operand of the products (only its shape is used), so a BF16 one is allowed.
  Call bias;
  bias.cube_math_type = 2;
  bias.bias_dtype = bias.grad_bias_dtype = ACL_BF16;
  EXPECT_EQ(bias.run(), ACLNN_SUCCESS) << aclGetRecentErrMsg();
}

// 7. Memory and overlaps.
TEST(ConvTbcBackwardChecks, TensorInHostMemory) {
  std::vector<float> host(64);
  TensorPtr on_host = make_tensor({6, 2, 3}, ACL_FLOAT, host.data());
  Call call;
  call.after_create = [&](Call& c) { c.input = on_host.get(); };
  expect_error(call.run(), ACLNN_ERR_PARAM_INVALID, {kOp, "input", "is not inside device memory"});
}

TEST(ConvTbcBackwardChecks, ViewPastItsAllocation) {
  DeviceBuffer small(16);
  TensorPtr past = make_tensor({3}, ACL_FLOAT, small.get(), {}, 2);
  Call call;
  call.after_create = [&](Call& c) { c.grad_bias = past.get(); };
  call.grad_bias_shape = {3};
  call.bias_shape = {3};
  call.weight_shape = call.grad_weight_shape = {3, 3, 3};
  call.self_shape = {6, 2, 3};
  expect_error(call.run(), ACLNN_ERR_PARAM_INVALID,
               {kOp, "gradBias", "is not inside device memory"});
}

TEST(ConvTbcBackwardChecks, OutputOverlapsAnInput) {
  Call call;
  TensorPtr alias{nullptr, aclDestroyTensor};
  call.after_create = [&](Call& c) {
    alias = make_tensor({6, 2, 3}, ACL_FLOAT, c.buffers[1]->get());  // input's memory
    c.grad_input = alias.get();
  };
  expect_error(call.run(), ACLNN_ERR_PARAM_INVALID, {kOp, "gradInput overlaps input"});
}

TEST(ConvTbcBackwardChecks, OutputsOverlapEachOther) {
  Call call;
  TensorPtr alias{nullptr, aclDestroyTensor};
  call.after_create = [&](Call& c) {
    alias = make_tensor({4}, ACL_FLOAT, c.buffers[5]->get());  // gradWeight's memory
    c.grad_bias = alias.get();
  };
  expect_error(call.run(), ACLNN_ERR_PARAM_INVALID, {kOp, "gradBias overlaps gradWeight"});
}

TEST(ConvTbcBackwardChecks, OutputWritingAnElementTwice) {
  Call call;
  TensorPtr repeated{nullptr, aclDestroyTensor};
  call.after_create = [&](Call& c) {
    repeated = make_tensor({3, 3, 4}, ACL_FLOAT, c.buffers[5]->get(), {0, 4, 1});
    c.grad_weight = repeated.get();
  };
  expect_error(call.run(), ACLNN_ERR_PARAM_INVALID,
               {kOp, "gradWeight", "would write some element more than once"});
}

// Phase 2's own checks, through the shared launcher.
TEST(ConvTbcBackwardChecks, LaunchChecksExecutorAndWorkspace) {
  expect_error(aclnnConvTbcBackward(nullptr, 0, nullptr, nullptr), ACLNN_ERR_PARAM_NULLPTR,
               {kOp, "executor is null"});
  DeviceBuffer a(256), b(256), c(256), d(64), e(256), f(256), g(64);
  TensorPtr self = make_tensor({6, 2, 4}, ACL_FLOAT, a.get());
  TensorPtr input = make_tensor({6, 2, 3}, ACL_FLOAT, b.get());
  TensorPtr weight = make_tensor({3, 3, 4}, ACL_FLOAT, c.get());
  TensorPtr bias = make_tensor({4}, ACL_FLOAT, d.get());
  TensorPtr gi = make_tensor({6, 2, 3}, ACL_FLOAT, e.get());
  TensorPtr gw = make_tensor({3, 3, 4}, ACL_FLOAT, f.get());
  TensorPtr gb = make_tensor({4}, ACL_FLOAT, g.get());
  uint64_t size = 0;
  aclOpExecutor* executor = nullptr;
  ASSERT_EQ(
      aclnnConvTbcBackwardGetWorkspaceSize(self.get(), input.get(), weight.get(), bias.get(), 1, 0,
                                           gi.get(), gw.get(), gb.get(), &size, &executor),
      ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  ASSERT_GT(size, 0u);
  expect_error(aclnnConvTbcBackward(nullptr, size - 1, executor, nullptr), ACLNN_ERR_PARAM_INVALID,
               {kOp, "workspaceSize is"});
}

}  // namespace
