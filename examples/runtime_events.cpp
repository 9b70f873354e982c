// Events in the style of a CANN sample: one stream uploads the inputs and records an event, a
// second stream waits for that event and runs aclnnSmoothL1LossBackward between two timing events,
// and aclrtEventElapsedTime reports how long the operator took.
#include <cmath>
#include <cstdio>
#include <memory>
#include <vector>

#include "acl/acl.h"
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

using DevicePtr = std::unique_ptr<void, aclError (*)(void*)>;
using TensorPtr = std::unique_ptr<aclTensor, aclnnStatus (*)(const aclTensor*)>;
using EventPtr = std::unique_ptr<void, aclError (*)(aclrtEvent)>;

int Init(int32_t deviceId, aclrtStream* upload, aclrtStream* compute) {
  auto ret = aclInit(nullptr);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclInit failed. ERROR: %d\n", ret); return ret);
  ret = aclrtSetDevice(deviceId);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtSetDevice failed. ERROR: %d\n", ret); return ret);
  ret = aclrtCreateStream(upload);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtCreateStream failed. ERROR: %d\n", ret);
            return ret);
  ret = aclrtCreateStream(compute);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtCreateStream failed. ERROR: %d\n", ret);
            return ret);
  return 0;
}

// Device memory for values, copied in on stream (asynchronously, in CANN's terms), and a tensor
// of shape over it.
int CreateInput(const std::vector<float>& hostData, const std::vector<int64_t>& shape,
                aclrtStream stream, DevicePtr* deviceAddr, TensorPtr* tensor) {
  size_t bytes = hostData.size() * sizeof(float);
  void* addr = nullptr;
  auto ret = aclrtMalloc(&addr, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtMalloc failed. ERROR: %d\n", ret); return ret);
  deviceAddr->reset(addr);
  ret = aclrtMemcpyAsync(addr, bytes, hostData.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE, stream);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtMemcpyAsync failed. ERROR: %d\n", ret); return ret);
  std::vector<int64_t> strides = {shape[1], 1};
  tensor->reset(aclCreateTensor(shape.data(), shape.size(), aclDataType::ACL_FLOAT, strides.data(),
                                0, aclFormat::ACL_FORMAT_ND, shape.data(), shape.size(), addr));
  CHECK_RET(*tensor != nullptr, LOG_PRINT("aclCreateTensor failed: %s\n", aclGetRecentErrMsg());
            return 1);
  return 0;
}

int RunEvents(aclrtStream upload, aclrtStream compute) {
  const std::vector<int64_t> shape = {512, 1024};
  const size_t count = 512 * 1024;
  std::vector<float> gradOutputHost(count, 1.0f);
  std::vector<float> selfHost(count);
  std::vector<float> targetHost(count, 0.0f);
  for (size_t i = 0; i < count; i++) {
    selfHost[i] = static_cast<float>(static_cast<int>(i % 9) - 4) * 0.5f;  // -2 .. 2
  }

  DevicePtr gradOutputAddr(nullptr, aclrtFree), selfAddr(nullptr, aclrtFree),
      targetAddr(nullptr, aclrtFree), gradInputAddr(nullptr, aclrtFree);
  TensorPtr gradOutput(nullptr, aclDestroyTensor), self(nullptr, aclDestroyTensor),
      target(nullptr, aclDestroyTensor), gradInput(nullptr, aclDestroyTensor);
  // The upload stream copies the inputs in; gradInput starts as zeros.
  auto ret = CreateInput(gradOutputHost, shape, upload, &gradOutputAddr, &gradOutput);
  CHECK_RET(ret == 0, return ret);
  ret = CreateInput(selfHost, shape, upload, &selfAddr, &self);
  CHECK_RET(ret == 0, return ret);
  ret = CreateInput(targetHost, shape, upload, &targetAddr, &target);
  CHECK_RET(ret == 0, return ret);
  ret = CreateInput(std::vector<float>(count, 0.0f), shape, upload, &gradInputAddr, &gradInput);
  CHECK_RET(ret == 0, return ret);

  aclrtEvent uploaded = nullptr, start = nullptr, end = nullptr;
  ret = aclrtCreateEvent(&uploaded);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtCreateEvent failed. ERROR: %d\n", ret); return ret);
  EventPtr uploadedPtr(uploaded, aclrtDestroyEvent);
  ret = aclrtCreateEventWithFlag(&start, ACL_EVENT_TIME_LINE);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtCreateEventWithFlag failed. ERROR: %d\n", ret);
            return ret);
  EventPtr startPtr(start, aclrtDestroyEvent);
  ret = aclrtCreateEventWithFlag(&end, ACL_EVENT_TIME_LINE);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtCreateEventWithFlag failed. ERROR: %d\n", ret);
            return ret);
  EventPtr endPtr(end, aclrtDestroyEvent);

  // The compute stream starts only once the uploads recorded before `uploaded` are done.
  ret = aclrtRecordEvent(uploaded, upload);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtRecordEvent failed. ERROR: %d\n", ret); return ret);
  ret = aclrtStreamWaitEvent(compute, uploaded);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtStreamWaitEvent failed. ERROR: %d\n", ret);
            return ret);
  aclrtEventRecordedStatus status = ACL_EVENT_RECORDED_STATUS_NOT_READY;
  ret = aclrtQueryEventStatus(uploaded, &status);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtQueryEventStatus failed. ERROR: %d\n", ret);
            return ret);
  LOG_PRINT("upload event: %s\n",
            status == ACL_EVENT_RECORDED_STATUS_COMPLETE ? "complete" : "not ready");

  uint64_t workspaceSize = 0;
  aclOpExecutor* executor = nullptr;
  ret = aclnnSmoothL1LossBackwardGetWorkspaceSize(gradOutput.get(), self.get(), target.get(), 0,
                                                  1.0f, gradInput.get(), &workspaceSize, &executor);
  CHECK_RET(ret == ACL_SUCCESS,
            LOG_PRINT("aclnnSmoothL1LossBackwardGetWorkspaceSize failed. ERROR: %d: %s\n", ret,
                      aclGetRecentErrMsg());
            return ret);
  void* workspaceAddr = nullptr;
  if (workspaceSize > 0) {
    ret = aclrtMalloc(&workspaceAddr, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("allocate workspace failed. ERROR: %d\n", ret);
              return ret);
  }
  DevicePtr workspacePtr(workspaceAddr, aclrtFree);

  ret = aclrtRecordEvent(start, compute);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtRecordEvent failed. ERROR: %d\n", ret); return ret);
  ret = aclnnSmoothL1LossBackward(workspaceAddr, workspaceSize, executor, compute);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnSmoothL1LossBackward failed. ERROR: %d\n", ret);
            return ret);
  ret = aclrtRecordEvent(end, compute);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtRecordEvent failed. ERROR: %d\n", ret); return ret);
  ret = aclrtSynchronizeEvent(end);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtSynchronizeEvent failed. ERROR: %d\n", ret);
            return ret);

  float ms = 0.0f;
  ret = aclrtEventElapsedTime(&ms, start, end);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtEventElapsedTime failed. ERROR: %d\n", ret);
            return ret);
  LOG_PRINT("aclnnSmoothL1LossBackward on %zu elements took %.3f ms\n", count, ms);

  std::vector<float> result(count, 0.0f);
  ret = aclrtMemcpy(result.data(), count * sizeof(float), gradInputAddr.get(),
                    count * sizeof(float), ACL_MEMCPY_DEVICE_TO_HOST);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("copy result failed. ERROR: %d\n", ret); return ret);
  for (size_t i = 0; i < 9; i++) {
    LOG_PRINT("result[%zu] is: %f (self %f)\n", i, result[i], selfHost[i]);
  }
  // Smooth L1 gradient with reduction none and beta 1: clamp(self - target, -1, 1).
  for (size_t i = 0; i < count; i++) {
    float expected = std::fmax(-1.0f, std::fmin(1.0f, selfHost[i]));
    CHECK_RET(result[i] == expected,
              LOG_PRINT("result[%zu] is %f, expected %f\n", i, result[i], expected);
              return 1);
  }

  // Measuring needs both events recorded: a mistake is a code and a message.
  aclrtEvent never = nullptr;
  ret = aclrtCreateEvent(&never);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtCreateEvent failed. ERROR: %d\n", ret); return ret);
  ret = aclrtEventElapsedTime(&ms, start, never);
  LOG_PRINT("timing against an event never recorded returns %d: %s\n", ret, aclGetRecentErrMsg());
  aclrtDestroyEvent(never);
  return ACL_SUCCESS;
}

int main() {
  int32_t deviceId = 0;
  aclrtStream upload = nullptr;
  aclrtStream compute = nullptr;
  auto ret = Init(deviceId, &upload, &compute);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("Init acl failed. ERROR: %d\n", ret); return ret);

  ret = RunEvents(upload, compute);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("RunEvents failed. ERROR: %d\n", ret); return ret);

  aclrtDestroyStream(upload);
  aclrtDestroyStream(compute);
  aclrtResetDevice(deviceId);
  aclFinalize();
  return 0;
}
