// Two losses of the aclnn loss family in the style of a CANN sample: the binary cross entropy of
// logits (with a positive-class weight) for a batch of multi-label predictions, and the negative
// log likelihood of class log-probabilities with one target ignored, each forward (mean) and
// backward.
#include <cstdio>
#include <memory>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_binary_cross_entropy_with_logits.h"
#include "aclnnop/aclnn_binary_cross_entropy_with_logits_backward.h"
#include "aclnnop/aclnn_nll_loss.h"
#include "aclnnop/aclnn_nll_loss_backward.h"

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

// A contiguous ND tensor in new device memory, holding hostData.
template <typename T>
int MakeTensor(const std::vector<T>& hostData, const std::vector<int64_t>& shape,
               aclDataType dataType, DevicePtr* memory, TensorPtr* tensor) {
  size_t bytes = hostData.size() * sizeof(T);
  void* deviceAddr = nullptr;
  auto ret = aclrtMalloc(&deviceAddr, bytes > 0 ? bytes : 1, ACL_MEM_MALLOC_HUGE_FIRST);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtMalloc failed. ERROR: %d\n", ret); return ret);
  memory->reset(deviceAddr);
  if (bytes > 0) {
    ret = aclrtMemcpy(deviceAddr, bytes, hostData.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtMemcpy failed. ERROR: %d\n", ret); return ret);
  }
  std::vector<int64_t> strides(shape.size(), 1);
  for (int64_t i = static_cast<int64_t>(shape.size()) - 2; i >= 0; i--) {
    strides[i] = shape[i + 1] * strides[i + 1];
  }
  tensor->reset(aclCreateTensor(shape.data(), shape.size(), dataType, strides.data(), 0,
                                aclFormat::ACL_FORMAT_ND, shape.data(), shape.size(), deviceAddr));
  CHECK_RET(*tensor != nullptr, LOG_PRINT("aclCreateTensor failed: %s\n", aclGetRecentErrMsg());
            return 1);
  return ACL_SUCCESS;
}

// Phase 2 of an operator whose phase 1 has produced workspaceSize and executor.
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

// Copies count floats from device memory and prints them.
int PrintFloats(const char* name, const DevicePtr& memory, size_t count) {
  std::vector<float> result(count, 0.0f);
  auto ret = aclrtMemcpy(result.data(), count * sizeof(float), memory.get(), count * sizeof(float),
                         ACL_MEMCPY_DEVICE_TO_HOST);
  CHECK_RET(ret == ACL_SUCCESS,
            LOG_PRINT("copy result from device to host failed. ERROR: %d\n", ret);
            return ret);
  for (size_t i = 0; i < count; i++) {
    LOG_PRINT("%s[%zu] is: %f\n", name, i, result[i]);
  }
  return ACL_SUCCESS;
}

// Three samples of four labels: logits, 0/1 targets, the positive class weighted 2.
int RunBinaryCrossEntropyWithLogits(aclrtStream stream) {
  std::vector<int64_t> shape = {3, 4};
  std::vector<float> logits = {2.0f,  -1.0f, 0.5f, -3.0f, 0.0f,  4.0f,
                               -2.0f, 1.0f,  3.0f, -0.5f, -4.0f, 0.25f};
  std::vector<float> labels = {1, 0, 1, 0, 0, 1, 0, 1, 1, 1, 0, 0};
  std::vector<float> posWeight = {2.0f, 2.0f, 2.0f, 2.0f};
  int64_t reduction = 1;  // mean

  DevicePtr selfMem(nullptr, aclrtFree), targetMem(nullptr, aclrtFree),
      posWeightMem(nullptr, aclrtFree), lossMem(nullptr, aclrtFree), gradMem(nullptr, aclrtFree),
      gradInputMem(nullptr, aclrtFree);
  TensorPtr self(nullptr, aclDestroyTensor), target(nullptr, aclDestroyTensor),
      pos(nullptr, aclDestroyTensor), loss(nullptr, aclDestroyTensor),
      grad(nullptr, aclDestroyTensor), gradInput(nullptr, aclDestroyTensor);
  CHECK_RET(MakeTensor(logits, shape, ACL_FLOAT, &selfMem, &self) == ACL_SUCCESS, return 1);
  CHECK_RET(MakeTensor(labels, shape, ACL_FLOAT, &targetMem, &target) == ACL_SUCCESS, return 1);
  CHECK_RET(MakeTensor(posWeight, {4}, ACL_FLOAT, &posWeightMem, &pos) == ACL_SUCCESS, return 1);
  CHECK_RET(MakeTensor(std::vector<float>{0.0f}, {}, ACL_FLOAT, &lossMem, &loss) == ACL_SUCCESS,
            return 1);
  CHECK_RET(MakeTensor(std::vector<float>{1.0f}, {}, ACL_FLOAT, &gradMem, &grad) == ACL_SUCCESS,
            return 1);
  CHECK_RET(MakeTensor(std::vector<float>(12, 0.0f), shape, ACL_FLOAT, &gradInputMem, &gradInput) ==
                ACL_SUCCESS,
            return 1);

  uint64_t workspaceSize = 0;
  aclOpExecutor* executor = nullptr;
  auto ret = aclnnBinaryCrossEntropyWithLogitsGetWorkspaceSize(self.get(), target.get(), nullptr,
                                                               pos.get(), reduction, loss.get(),
                                                               &workspaceSize, &executor);
  CHECK_RET(ret == ACL_SUCCESS,
            LOG_PRINT("aclnnBinaryCrossEntropyWithLogitsGetWorkspaceSize failed. ERROR: %d\n%s\n",
                      ret, aclGetRecentErrMsg());
            return ret);
  ret = Launch("aclnnBinaryCrossEntropyWithLogits", workspaceSize, executor,
               aclnnBinaryCrossEntropyWithLogits, stream);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  CHECK_RET(PrintFloats("bce with logits mean loss", lossMem, 1) == ACL_SUCCESS, return 1);

  ret = aclnnBinaryCrossEntropyWithLogitsBackwardGetWorkspaceSize(
      grad.get(), self.get(), target.get(), nullptr, pos.get(), reduction, gradInput.get(),
      &workspaceSize, &executor);
  CHECK_RET(
      ret == ACL_SUCCESS,
      LOG_PRINT("aclnnBinaryCrossEntropyWithLogitsBackwardGetWorkspaceSize failed. ERROR: %d\n%s\n",
                ret, aclGetRecentErrMsg());
      return ret);
  ret = Launch("aclnnBinaryCrossEntropyWithLogitsBackward", workspaceSize, executor,
               aclnnBinaryCrossEntropyWithLogitsBackward, stream);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  return PrintFloats("bce with logits gradInput", gradInputMem, 12);
}

// Four samples of five classes (log-probabilities), class weights, the last target ignored.
int RunNLLLoss(aclrtStream stream) {
  std::vector<int64_t> shape = {4, 5};
  std::vector<float> logProbs = {-1.2f, -0.7f, -2.3f, -3.0f, -1.9f, -0.2f, -2.5f,
                                 -3.1f, -2.2f, -4.0f, -1.6f, -1.6f, -1.6f, -1.6f,
                                 -1.6f, -2.9f, -0.9f, -1.1f, -2.0f, -3.3f};
  std::vector<int64_t> classes = {1, 0, 4, -100};
  std::vector<float> weight = {1.0f, 2.0f, 1.0f, 1.0f, 0.5f};
  int64_t reduction = 1;  // mean: divided by the total weight of the rows not ignored
  int64_t ignoreIndex = -100;

  DevicePtr selfMem(nullptr, aclrtFree), targetMem(nullptr, aclrtFree),
      weightMem(nullptr, aclrtFree), lossMem(nullptr, aclrtFree), totalMem(nullptr, aclrtFree),
      gradMem(nullptr, aclrtFree), gradInputMem(nullptr, aclrtFree);
  TensorPtr self(nullptr, aclDestroyTensor), target(nullptr, aclDestroyTensor),
      w(nullptr, aclDestroyTensor), loss(nullptr, aclDestroyTensor),
      total(nullptr, aclDestroyTensor), grad(nullptr, aclDestroyTensor),
      gradInput(nullptr, aclDestroyTensor);
  CHECK_RET(MakeTensor(logProbs, shape, ACL_FLOAT, &selfMem, &self) == ACL_SUCCESS, return 1);
  CHECK_RET(MakeTensor(classes, {4}, ACL_INT64, &targetMem, &target) == ACL_SUCCESS, return 1);
  CHECK_RET(MakeTensor(weight, {5}, ACL_FLOAT, &weightMem, &w) == ACL_SUCCESS, return 1);
  CHECK_RET(MakeTensor(std::vector<float>{0.0f}, {}, ACL_FLOAT, &lossMem, &loss) == ACL_SUCCESS,
            return 1);
  CHECK_RET(MakeTensor(std::vector<float>{0.0f}, {}, ACL_FLOAT, &totalMem, &total) == ACL_SUCCESS,
            return 1);
  CHECK_RET(MakeTensor(std::vector<float>{1.0f}, {}, ACL_FLOAT, &gradMem, &grad) == ACL_SUCCESS,
            return 1);
  CHECK_RET(MakeTensor(std::vector<float>(20, 0.0f), shape, ACL_FLOAT, &gradInputMem, &gradInput) ==
                ACL_SUCCESS,
            return 1);

  uint64_t workspaceSize = 0;
  aclOpExecutor* executor = nullptr;
  auto ret = aclnnNLLLossGetWorkspaceSize(self.get(), target.get(), w.get(), reduction, ignoreIndex,
                                          loss.get(), total.get(), &workspaceSize, &executor);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnNLLLossGetWorkspaceSize failed. ERROR: %d\n%s\n",
                                          ret, aclGetRecentErrMsg());
            return ret);
  ret = Launch("aclnnNLLLoss", workspaceSize, executor, aclnnNLLLoss, stream);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  CHECK_RET(PrintFloats("nll mean loss", lossMem, 1) == ACL_SUCCESS, return 1);
  CHECK_RET(PrintFloats("nll total weight", totalMem, 1) == ACL_SUCCESS, return 1);

  ret = aclnnNLLLossBackwardGetWorkspaceSize(grad.get(), self.get(), target.get(), w.get(),
                                             reduction, ignoreIndex, total.get(), gradInput.get(),
                                             &workspaceSize, &executor);
  CHECK_RET(ret == ACL_SUCCESS,
            LOG_PRINT("aclnnNLLLossBackwardGetWorkspaceSize failed. ERROR: %d\n%s\n", ret,
                      aclGetRecentErrMsg());
            return ret);
  ret = Launch("aclnnNLLLossBackward", workspaceSize, executor, aclnnNLLLossBackward, stream);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  return PrintFloats("nll gradInput", gradInputMem, 20);
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

  ret = RunBinaryCrossEntropyWithLogits(stream);
  if (ret == ACL_SUCCESS) {
    ret = RunNLLLoss(stream);
  }

  aclrtDestroyStream(stream);
  aclrtResetDevice(deviceId);
  aclFinalize();
  return ret;
}
