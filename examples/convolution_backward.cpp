// A 2-D convolution through openaclnn, written like a CANN sample: the forward
// aclnnConvolution, then aclnnConvolutionBackward with the gradient of a sum-of-squares loss
// (gradOutput = 2 * output) and every gradient asked for, printing every result. The same source
// builds against CANN.
#include <cstdint>
#include <cstdio>
#include <memory>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_convolution.h"
#include "aclnnop/aclnn_convolution_backward.h"

#define CHECK_RET(cond, return_expr) \
  do {                               \
    if (!(cond)) {                   \
      return_expr;                   \
    }                                \
  } while (0)

#define LOG_PRINT(message, ...)     \
  do {                              \
    printf(message, ##__VA_ARGS__); \
  } while (0)

using TensorHolder = std::unique_ptr<aclTensor, aclnnStatus (*)(const aclTensor*)>;
using DeviceHolder = std::unique_ptr<void, aclError (*)(void*)>;

int64_t ElementCount(const std::vector<int64_t>& shape) {
  int64_t count = 1;
  for (int64_t dim : shape) {
    count *= dim;
  }
  return count;
}

// A contiguous FLOAT tensor in device memory holding `values`, in `format`.
struct DeviceTensor {
  DeviceHolder memory{nullptr, aclrtFree};
  TensorHolder tensor{nullptr, aclDestroyTensor};
};

int MakeTensor(const std::vector<float>& values, const std::vector<int64_t>& shape,
               aclFormat format, DeviceTensor* out) {
  const size_t bytes = values.size() * sizeof(float);
  void* device = nullptr;
  auto ret = aclrtMalloc(&device, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtMalloc failed. ERROR: %d\n", ret); return ret);
  out->memory.reset(device);
  ret = aclrtMemcpy(device, bytes, values.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtMemcpy failed. ERROR: %d\n", ret); return ret);
  std::vector<int64_t> strides(shape.size(), 1);
  for (int64_t i = static_cast<int64_t>(shape.size()) - 2; i >= 0; --i) {
    strides[i] = shape[i + 1] * strides[i + 1];
  }
  out->tensor.reset(aclCreateTensor(shape.data(), shape.size(), ACL_FLOAT, strides.data(), 0,
                                    format, shape.data(), shape.size(), device));
  CHECK_RET(out->tensor != nullptr, LOG_PRINT("aclCreateTensor failed\n"); return -1);
  return ACL_SUCCESS;
}

int ReadTensor(const DeviceTensor& t, const std::vector<int64_t>& shape, std::vector<float>* out) {
  out->assign(static_cast<size_t>(ElementCount(shape)), 0.0f);
  const size_t bytes = out->size() * sizeof(float);
  auto ret = aclrtMemcpy(out->data(), bytes, t.memory.get(), bytes, ACL_MEMCPY_DEVICE_TO_HOST);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("copy to host failed. ERROR: %d\n", ret); return ret);
  return ACL_SUCCESS;
}

void PrintTensor(const char* name, const std::vector<float>& values,
                 const std::vector<int64_t>& shape) {
  LOG_PRINT("%s (shape", name);
  for (int64_t dim : shape) {
    LOG_PRINT(" %ld", static_cast<long>(dim));
  }
  LOG_PRINT("):\n");
  const int64_t row = shape.back();
  for (size_t i = 0; i < values.size(); ++i) {
    LOG_PRINT("%s%8.3f", i % row == 0 ? "  " : " ", values[i]);
    if ((i + 1) % row == 0) {
      LOG_PRINT("\n");
    }
  }
}

// Phase 1 asks for the workspace and an executor; phase 2 runs on the stream.
template <typename Phase1, typename Phase2>
int RunTwoPhases(const char* name, const Phase1& phase1, const Phase2& phase2, aclrtStream stream) {
  uint64_t workspaceSize = 0;
  aclOpExecutor* executor = nullptr;
  auto ret = phase1(&workspaceSize, &executor);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("%sGetWorkspaceSize failed. ERROR: %d (%s)\n", name, ret,
                                          aclGetRecentErrMsg());
            return ret);
  DeviceHolder workspace(nullptr, aclrtFree);
  if (workspaceSize > 0) {
    void* address = nullptr;
    ret = aclrtMalloc(&address, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("allocate workspace failed. ERROR: %d\n", ret);
              return ret);
    workspace.reset(address);
  }
  ret = phase2(workspace.get(), workspaceSize, executor, stream);
  CHECK_RET(ret == ACL_SUCCESS,
            LOG_PRINT("%s failed. ERROR: %d (%s)\n", name, ret, aclGetRecentErrMsg());
            return ret);
  ret = aclrtSynchronizeStream(stream);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtSynchronizeStream failed. ERROR: %d\n", ret);
            return ret);
  return ACL_SUCCESS;
}

int ConvolutionSample(aclrtStream stream) {
  // A 2-D convolution of one 4 x 4 image with 2 channels by a 3 x 3 kernel to 2 channels,
  // stride 1, padding 1, dilation 1, one group, with a bias: the output is 4 x 4 as well.
  const std::vector<int64_t> inputShape = {1, 2, 4, 4};
  const std::vector<int64_t> weightShape = {2, 2, 3, 3};
  const std::vector<int64_t> biasShape = {2};
  const std::vector<int64_t> outputShape = {1, 2, 4, 4};
  const std::vector<int64_t> strideData = {1, 1};
  const std::vector<int64_t> paddingData = {1, 1};
  const std::vector<int64_t> dilationData = {1, 1};
  const std::vector<int64_t> outputPaddingData = {0, 0};
  const bool transposed = false;
  const int64_t groups = 1;
  const int8_t cubeMathType = 0;  // KEEP_DTYPE

  std::vector<float> inputData(static_cast<size_t>(ElementCount(inputShape)));
  for (size_t i = 0; i < inputData.size(); ++i) {
    inputData[i] = static_cast<float>(i % 7) - 3;
  }
  std::vector<float> weightData(static_cast<size_t>(ElementCount(weightShape)));
  for (size_t i = 0; i < weightData.size(); ++i) {
    weightData[i] = 0.25f * static_cast<float>(i % 5) - 0.5f;
  }
  const std::vector<float> biasData = {0.5f, -1.0f};
  DeviceTensor input, weight, bias, output;
  auto ret = MakeTensor(inputData, inputShape, ACL_FORMAT_NCHW, &input);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = MakeTensor(weightData, weightShape, ACL_FORMAT_NCHW, &weight);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = MakeTensor(biasData, biasShape, ACL_FORMAT_ND, &bias);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = MakeTensor(std::vector<float>(ElementCount(outputShape), 0), outputShape, ACL_FORMAT_NCHW,
                   &output);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  using ArrayHolder = std::unique_ptr<aclIntArray, aclnnStatus (*)(const aclIntArray*)>;
  ArrayHolder stride(aclCreateIntArray(strideData.data(), strideData.size()), aclDestroyIntArray);
  ArrayHolder padding(aclCreateIntArray(paddingData.data(), paddingData.size()),
                      aclDestroyIntArray);
  ArrayHolder dilation(aclCreateIntArray(dilationData.data(), dilationData.size()),
                       aclDestroyIntArray);
  ArrayHolder outputPadding(aclCreateIntArray(outputPaddingData.data(), outputPaddingData.size()),
                            aclDestroyIntArray);
  CHECK_RET(stride && padding && dilation && outputPadding, LOG_PRINT("aclCreateIntArray failed\n");
            return -1);

  ret = RunTwoPhases(
      "aclnnConvolution",
      [&](uint64_t* size, aclOpExecutor** executor) {
        return aclnnConvolutionGetWorkspaceSize(
            input.tensor.get(), weight.tensor.get(), bias.tensor.get(), stride.get(), padding.get(),
            dilation.get(), transposed, outputPadding.get(), groups, output.tensor.get(),
            cubeMathType, size, executor);
      },
      aclnnConvolution, stream);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  std::vector<float> outputData;
  ret = ReadTensor(output, outputShape, &outputData);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  PrintTensor("output", outputData, outputShape);

  // The gradient of loss = sum(output^2) with respect to the output; all three gradients.
  std::vector<float> gradOutputData(outputData.size());
  for (size_t i = 0; i < outputData.size(); ++i) {
    gradOutputData[i] = 2 * outputData[i];
  }
  DeviceTensor gradOutput, gradInput, gradWeight, gradBias;
  ret = MakeTensor(gradOutputData, outputShape, ACL_FORMAT_NCHW, &gradOutput);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret =
      MakeTensor(std::vector<float>(inputData.size(), 0), inputShape, ACL_FORMAT_NCHW, &gradInput);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = MakeTensor(std::vector<float>(weightData.size(), 0), weightShape, ACL_FORMAT_NCHW,
                   &gradWeight);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = MakeTensor(std::vector<float>(biasData.size(), 0), biasShape, ACL_FORMAT_ND, &gradBias);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  const std::vector<int64_t> biasSizesData = {2};
  ArrayHolder biasSizes(aclCreateIntArray(biasSizesData.data(), biasSizesData.size()),
                        aclDestroyIntArray);
  bool maskData[3] = {true, true, true};
  std::unique_ptr<aclBoolArray, aclnnStatus (*)(const aclBoolArray*)> outputMask(
      aclCreateBoolArray(maskData, 3), aclDestroyBoolArray);
  CHECK_RET(biasSizes && outputMask, LOG_PRINT("creating the arrays failed\n"); return -1);

  ret = RunTwoPhases(
      "aclnnConvolutionBackward",
      [&](uint64_t* size, aclOpExecutor** executor) {
        return aclnnConvolutionBackwardGetWorkspaceSize(
            gradOutput.tensor.get(), input.tensor.get(), weight.tensor.get(), biasSizes.get(),
            stride.get(), padding.get(), dilation.get(), transposed, outputPadding.get(),
            static_cast<int>(groups), outputMask.get(), cubeMathType, gradInput.tensor.get(),
            gradWeight.tensor.get(), gradBias.tensor.get(), size, executor);
      },
      aclnnConvolutionBackward, stream);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  std::vector<float> result;
  ret = ReadTensor(gradInput, inputShape, &result);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  PrintTensor("gradInput", result, inputShape);
  ret = ReadTensor(gradWeight, weightShape, &result);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  PrintTensor("gradWeight", result, weightShape);
  ret = ReadTensor(gradBias, biasShape, &result);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  PrintTensor("gradBias", result, biasShape);
  return ACL_SUCCESS;
}

int main() {
  const int32_t deviceId = 0;
  auto ret = aclInit(nullptr);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclInit failed. ERROR: %d\n", ret); return ret);
  ret = aclrtSetDevice(deviceId);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtSetDevice failed. ERROR: %d\n", ret); return ret);
  aclrtStream stream = nullptr;
  ret = aclrtCreateStream(&stream);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtCreateStream failed. ERROR: %d\n", ret);
            return ret);

  ret = ConvolutionSample(stream);

  aclrtDestroyStream(stream);
  aclrtResetDevice(deviceId);
  aclFinalize();
  return ret;
}
