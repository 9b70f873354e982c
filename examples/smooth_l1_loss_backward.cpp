// aclnnSmoothL1LossBackward in the style of a CANN sample: the gradient of the smooth L1 loss for
// a batch of predictions against a broadcast target row, with reduction "mean", then the forward
// loss of the same data.
#include <cstdio>
#include <memory>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_smooth_l1_loss.h"
#include "aclnnop/aclnn_smooth_l1_loss_backward.h"

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

int64_t ElementCount(const std::vector<int64_t>& shape) {
  int64_t count = 1;
  for (int64_t dim : shape) {
    count *= dim;
  }
  return count;
}

// Copies hostData to new device memory and describes it as a contiguous ND tensor.
int MakeTensor(const std::vector<float>& hostData, const std::vector<int64_t>& shape,
               DevicePtr* memory, TensorPtr* tensor) {
  size_t bytes = hostData.size() * sizeof(float);
  void* deviceAddr = nullptr;
  auto ret = aclrtMalloc(&deviceAddr, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtMalloc failed. ERROR: %d\n", ret); return ret);
  memory->reset(deviceAddr);
  ret = aclrtMemcpy(deviceAddr, bytes, hostData.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtMemcpy failed. ERROR: %d\n", ret); return ret);
  std::vector<int64_t> strides(shape.size(), 1);
  for (int64_t i = static_cast<int64_t>(shape.size()) - 2; i >= 0; i--) {
    strides[i] = shape[i + 1] * strides[i + 1];
  }
  tensor->reset(aclCreateTensor(shape.data(), shape.size(), aclDataType::ACL_FLOAT, strides.data(),
                                0, aclFormat::ACL_FORMAT_ND, shape.data(), shape.size(),
                                deviceAddr));
  CHECK_RET(*tensor != nullptr, LOG_PRINT("aclCreateTensor failed: %s\n", aclGetRecentErrMsg());
            return 1);
  return ACL_SUCCESS;
}

// Runs a two-phase operator: phase 1 has already produced workspaceSize and executor.
int Launch(const char* name, uint64_t workspaceSize, aclOpExecutor* executor,
           aclnnStatus (*phase2)(void*, uint64_t, aclOpExecutor*, aclrtStream),
           aclrtStream stream) {
  void* workspaceAddr = nullptr;
  DevicePtr workspace(nullptr, aclrtFree);
  if (workspaceSize > 0) {
    auto ret = aclrtMalloc(&workspaceAddr, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("allocate workspace failed. ERROR: %d\n", ret);
              return ret);
    workspace.reset(workspaceAddr);
  }
  auto ret = phase2(workspaceAddr, workspaceSize, executor, stream);
  CHECK_RET(ret == ACL_SUCCESS,
            LOG_PRINT("%s failed. ERROR: %d\n%s\n", name, ret, aclGetRecentErrMsg());
            return ret);
  return aclrtSynchronizeStream(stream);
}

int Run(aclrtStream stream) {
  // Four predictions of three values each, against one target row broadcast over the batch.
  std::vector<int64_t> selfShape = {4, 3};
  std::vector<int64_t> targetShape = {3};
  std::vector<int64_t> gradOutputShape = {};  // the mean loss is a scalar
  std::vector<float> selfData = {0.0f, 0.25f, 3.0f, -1.0f, 1.0f,  0.5f,
                                 2.0f, -0.5f, 0.0f, 1.5f,  0.75f, -2.0f};
  std::vector<float> targetData = {0.5f, 0.0f, 1.0f};
  std::vector<float> gradOutputData = {1.0f};
  std::vector<float> gradInputData(ElementCount(selfShape), 0.0f);
  int64_t reduction = 1;  // mean
  float beta = 1.0f;

  DevicePtr selfMem(nullptr, aclrtFree), targetMem(nullptr, aclrtFree),
      gradOutputMem(nullptr, aclrtFree), gradInputMem(nullptr, aclrtFree),
      lossMem(nullptr, aclrtFree);
  TensorPtr self(nullptr, aclDestroyTensor), target(nullptr, aclDestroyTensor),
      gradOutput(nullptr, aclDestroyTensor), gradInput(nullptr, aclDestroyTensor),
      loss(nullptr, aclDestroyTensor);
  CHECK_RET(MakeTensor(selfData, selfShape, &selfMem, &self) == ACL_SUCCESS, return 1);
  CHECK_RET(MakeTensor(targetData, targetShape, &targetMem, &target) == ACL_SUCCESS, return 1);
  CHECK_RET(MakeTensor(gradOutputData, gradOutputShape, &gradOutputMem, &gradOutput) == ACL_SUCCESS,
            return 1);
  CHECK_RET(MakeTensor(gradInputData, selfShape, &gradInputMem, &gradInput) == ACL_SUCCESS,
            return 1);
  CHECK_RET(MakeTensor({0.0f}, {}, &lossMem, &loss) == ACL_SUCCESS, return 1);

  uint64_t workspaceSize = 0;
  aclOpExecutor* executor = nullptr;
  auto ret = aclnnSmoothL1LossBackwardGetWorkspaceSize(gradOutput.get(), self.get(), target.get(),
                                                       reduction, beta, gradInput.get(),
                                                       &workspaceSize, &executor);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnSmoothL1LossBackwardGetWorkspaceSize failed. "
                                          "ERROR: %d\n%s\n",
                                          ret, aclGetRecentErrMsg());
            return ret);
  ret = Launch("aclnnSmoothL1LossBackward", workspaceSize, executor, aclnnSmoothL1LossBackward,
               stream);
  CHECK_RET(ret == ACL_SUCCESS, return ret);

  std::vector<float> result(gradInputData.size(), 0.0f);
  ret = aclrtMemcpy(result.data(), result.size() * sizeof(float), gradInputMem.get(),
                    result.size() * sizeof(float), ACL_MEMCPY_DEVICE_TO_HOST);
  CHECK_RET(ret == ACL_SUCCESS,
            LOG_PRINT("copy result from device to host failed. ERROR: %d\n", ret);
            return ret);
  for (size_t i = 0; i < result.size(); i++) {
    LOG_PRINT("gradInput[%zu] is: %f\n", i, result[i]);
  }

  ret = aclnnSmoothL1LossGetWorkspaceSize(self.get(), target.get(), reduction, beta, loss.get(),
                                          &workspaceSize, &executor);
  CHECK_RET(ret == ACL_SUCCESS,
            LOG_PRINT("aclnnSmoothL1LossGetWorkspaceSize failed. ERROR: %d\n", ret);
            return ret);
  ret = Launch("aclnnSmoothL1Loss", workspaceSize, executor, aclnnSmoothL1Loss, stream);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  float lossValue = 0.0f;
  ret = aclrtMemcpy(&lossValue, sizeof(float), lossMem.get(), sizeof(float),
                    ACL_MEMCPY_DEVICE_TO_HOST);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  LOG_PRINT("mean loss is: %f\n", lossValue);
  return ACL_SUCCESS;
}

int main() {
  int32_t deviceId = 0;
  aclrtStream stream = nullptr;
  auto ret = aclInit(nullptr);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclInit failed. ERROR: %d\n", ret); return ret);
  ret = aclrtSetDevice(deviceId);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtSetDevice failed. ERROR: %d\n", ret); return ret);
  ret = aclrtCreateStream(&stream);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtCreateStream failed. ERROR: %d\n", ret);
            return ret);

  ret = Run(stream);

  aclrtDestroyStream(stream);
  aclrtResetDevice(deviceId);
  aclFinalize();
  return ret;
}
