// Adaptive max pooling, forward then backward, in the style of a CANN sample: a 3x5 plane pooled
// to 2x3 (overlapping windows), the forward's indices fed to the backward, results printed. Last,
// the original sample's index 6 for a 2x2 plane, which openaclnn reports instead of writing
// outside gradInput.
#include <cstdio>
#include <memory>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_adaptive_max_pool2d.h"
#include "aclnnop/aclnn_adaptive_max_pool2d_backward.h"

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

using TensorPtr = std::unique_ptr<aclTensor, aclnnStatus (*)(const aclTensor*)>;
using DevicePtr = std::unique_ptr<void, aclError (*)(void*)>;

int64_t GetShapeSize(const std::vector<int64_t>& shape) {
  int64_t shapeSize = 1;
  for (auto i : shape) {
    shapeSize *= i;
  }
  return shapeSize;
}

int Init(int32_t deviceId, aclrtStream* stream) {
  auto ret = aclInit(nullptr);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclInit failed. ERROR: %d\n", ret); return ret);
  ret = aclrtSetDevice(deviceId);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtSetDevice failed. ERROR: %d\n", ret); return ret);
  ret = aclrtCreateStream(stream);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtCreateStream failed. ERROR: %d\n", ret);
            return ret);
  return 0;
}

// Device memory holding hostData, described as a contiguous ND tensor.
template <typename T>
int CreateAclTensor(const std::vector<T>& hostData, const std::vector<int64_t>& shape,
                    DevicePtr* deviceAddr, aclDataType dataType, TensorPtr* tensor) {
  auto size = GetShapeSize(shape) * sizeof(T);
  void* addr = nullptr;
  auto ret = aclrtMalloc(&addr, size, ACL_MEM_MALLOC_HUGE_FIRST);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtMalloc failed. ERROR: %d\n", ret); return ret);
  deviceAddr->reset(addr);
  ret = aclrtMemcpy(addr, size, hostData.data(), size, ACL_MEMCPY_HOST_TO_DEVICE);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtMemcpy failed. ERROR: %d\n", ret); return ret);
  std::vector<int64_t> strides(shape.size(), 1);
  for (int64_t i = static_cast<int64_t>(shape.size()) - 2; i >= 0; i--) {
    strides[i] = shape[i + 1] * strides[i + 1];
  }
  tensor->reset(aclCreateTensor(shape.data(), shape.size(), dataType, strides.data(), 0,
                                aclFormat::ACL_FORMAT_ND, shape.data(), shape.size(), addr));
  CHECK_RET(*tensor != nullptr, LOG_PRINT("aclCreateTensor failed: %s\n", aclGetRecentErrMsg());
            return 1);
  return 0;
}

template <typename T>
int CopyToHost(const DevicePtr& deviceAddr, std::vector<T>* hostData) {
  auto size = hostData->size() * sizeof(T);
  auto ret = aclrtMemcpy(hostData->data(), size, deviceAddr.get(), size, ACL_MEMCPY_DEVICE_TO_HOST);
  CHECK_RET(ret == ACL_SUCCESS,
            LOG_PRINT("copy result from device to host failed. ERROR: %d\n", ret);
            return ret);
  return 0;
}

int RunForward(const aclTensor* self, const aclIntArray* outputSize, const aclTensor* out,
               const aclTensor* indices, aclrtStream stream) {
  uint64_t workspaceSize = 0;
  aclOpExecutor* executor = nullptr;
  auto ret = aclnnAdaptiveMaxPool2dGetWorkspaceSize(self, outputSize, out, indices, &workspaceSize,
                                                    &executor);
  CHECK_RET(ret == ACL_SUCCESS,
            LOG_PRINT("aclnnAdaptiveMaxPool2dGetWorkspaceSize failed. ERROR: %d\n", ret);
            return ret);
  DevicePtr workspace(nullptr, aclrtFree);
  if (workspaceSize > 0) {
    void* addr = nullptr;
    ret = aclrtMalloc(&addr, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("allocate workspace failed. ERROR: %d\n", ret);
              return ret);
    workspace.reset(addr);
  }
  ret = aclnnAdaptiveMaxPool2d(workspace.get(), workspaceSize, executor, stream);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnAdaptiveMaxPool2d failed. ERROR: %d\n", ret);
            return ret);
  return aclrtSynchronizeStream(stream);
}

// Returns the status of the backward's launch (or of whatever failed before it).
int RunBackward(const aclTensor* gradOut, const aclTensor* self, const aclTensor* indices,
                aclTensor* gradIn, aclrtStream stream) {
  uint64_t workspaceSize = 0;
  aclOpExecutor* executor = nullptr;
  auto ret = aclnnAdaptiveMaxPool2dBackwardGetWorkspaceSize(gradOut, self, indices, gradIn,
                                                            &workspaceSize, &executor);
  CHECK_RET(ret == ACL_SUCCESS,
            LOG_PRINT("aclnnAdaptiveMaxPool2dBackwardGetWorkspaceSize failed. ERROR: %d\n", ret);
            return ret);
  DevicePtr workspace(nullptr, aclrtFree);
  if (workspaceSize > 0) {
    void* addr = nullptr;
    ret = aclrtMalloc(&addr, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("allocate workspace failed. ERROR: %d\n", ret);
              return ret);
    workspace.reset(addr);
  }
  ret = aclnnAdaptiveMaxPool2dBackward(workspace.get(), workspaceSize, executor, stream);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  return aclrtSynchronizeStream(stream);
}

int RunPooling(aclrtStream stream) {
  // 1. Inputs and outputs. self [1, 1, 3, 5] pooled to 2x3: the row windows [0, 2) and [1, 3)
  // share row 1, the column windows [0, 2), [1, 4), [3, 5) share columns 1 and 3.
  std::vector<int64_t> selfShape = {1, 1, 3, 5};
  std::vector<int64_t> outShape = {1, 1, 2, 3};
  std::vector<float> selfHostData = {0.1f, 0.9f, 0.3f, 0.8f, 0.2f,  //
                                     0.4f, 0.5f, 0.6f, 0.7f, 0.1f,  //
                                     0.2f, 0.3f, 0.9f, 0.1f, 0.6f};
  std::vector<float> gradOutHostData = {1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f};
  DevicePtr selfAddr(nullptr, aclrtFree), outAddr(nullptr, aclrtFree);
  DevicePtr indicesAddr(nullptr, aclrtFree), gradOutAddr(nullptr, aclrtFree);
  DevicePtr gradInAddr(nullptr, aclrtFree);
  TensorPtr self(nullptr, aclDestroyTensor), out(nullptr, aclDestroyTensor);
  TensorPtr indices(nullptr, aclDestroyTensor), gradOut(nullptr, aclDestroyTensor);
  TensorPtr gradIn(nullptr, aclDestroyTensor);
  auto ret = CreateAclTensor(selfHostData, selfShape, &selfAddr, aclDataType::ACL_FLOAT, &self);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(std::vector<float>(6, 0.0f), outShape, &outAddr, aclDataType::ACL_FLOAT,
                        &out);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(std::vector<int64_t>(6, 0), outShape, &indicesAddr, aclDataType::ACL_INT64,
                        &indices);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(gradOutHostData, outShape, &gradOutAddr, aclDataType::ACL_FLOAT, &gradOut);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(std::vector<float>(15, 0.0f), selfShape, &gradInAddr,
                        aclDataType::ACL_FLOAT, &gradIn);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  std::vector<int64_t> outputSizeData = {2, 3};
  std::unique_ptr<aclIntArray, aclnnStatus (*)(const aclIntArray*)> outputSize(
      aclCreateIntArray(outputSizeData.data(), outputSizeData.size()), aclDestroyIntArray);

  // 2. The forward: maxima and their indices h * W + w.
  ret = RunForward(self.get(), outputSize.get(), out.get(), indices.get(), stream);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  std::vector<float> outData(6, 0);
  std::vector<int64_t> indicesData(6, 0);
  CHECK_RET(CopyToHost(outAddr, &outData) == ACL_SUCCESS, return 1);
  CHECK_RET(CopyToHost(indicesAddr, &indicesData) == ACL_SUCCESS, return 1);
  for (size_t i = 0; i < outData.size(); i++) {
    LOG_PRINT("out[%zu] is: %f, indices[%zu] is: %ld\n", i, outData[i], i, indicesData[i]);
  }

  // 3. The backward with those indices: outputs sharing a maximum add up.
  ret = RunBackward(gradOut.get(), self.get(), indices.get(), gradIn.get(), stream);
  CHECK_RET(ret == ACL_SUCCESS,
            LOG_PRINT("aclnnAdaptiveMaxPool2dBackward failed. ERROR: %d\n", ret);
            return ret);
  std::vector<float> gradInData(15, 0);
  CHECK_RET(CopyToHost(gradInAddr, &gradInData) == ACL_SUCCESS, return 1);
  for (size_t i = 0; i < gradInData.size(); i++) {
    LOG_PRINT("gradIn[%zu] is: %f\n", i, gradInData[i]);
  }
  return 0;
}

// The original sample's call: index 6 for a 2x2 plane. An NPU would write outside gradInput;
// openaclnn returns ACLNN_ERR_RUNTIME_ERROR (361001) and says which index is wrong.
int RunOutOfRangeIndex(aclrtStream stream) {
  std::vector<int64_t> gradOutShape = {1, 1, 1, 1};
  std::vector<int64_t> selfShape = {1, 1, 2, 2};
  DevicePtr gradOutAddr(nullptr, aclrtFree), selfAddr(nullptr, aclrtFree);
  DevicePtr indicesAddr(nullptr, aclrtFree), gradInAddr(nullptr, aclrtFree);
  TensorPtr gradOut(nullptr, aclDestroyTensor), self(nullptr, aclDestroyTensor);
  TensorPtr indices(nullptr, aclDestroyTensor), gradIn(nullptr, aclDestroyTensor);
  auto ret = CreateAclTensor(std::vector<float>{0.4757f}, gradOutShape, &gradOutAddr,
                             aclDataType::ACL_FLOAT, &gradOut);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(std::vector<float>{0.0850f, -0.5147f, -0.0212f, -0.5654f}, selfShape,
                        &selfAddr, aclDataType::ACL_FLOAT, &self);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(std::vector<int32_t>{6}, gradOutShape, &indicesAddr, aclDataType::ACL_INT32,
                        &indices);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(std::vector<float>(4, 0.0f), selfShape, &gradInAddr, aclDataType::ACL_FLOAT,
                        &gradIn);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = RunBackward(gradOut.get(), self.get(), indices.get(), gradIn.get(), stream);
  CHECK_RET(ret == ACLNN_ERR_RUNTIME_ERROR,
            LOG_PRINT("expected ACLNN_ERR_RUNTIME_ERROR for index 6, got %d\n", ret);
            return 1);
  LOG_PRINT("index 6 for a 2x2 plane: ERROR %d: %s\n", ret, aclGetRecentErrMsg());
  return 0;
}

int main() {
  int32_t deviceId = 0;
  aclrtStream stream = nullptr;
  auto ret = Init(deviceId, &stream);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("Init acl failed. ERROR: %d\n", ret); return ret);
  int result = RunPooling(stream);
  if (result == 0) {
    result = RunOutOfRangeIndex(stream);
  }
  aclrtDestroyStream(stream);
  aclrtResetDevice(deviceId);
  aclFinalize();
  return result;
}
