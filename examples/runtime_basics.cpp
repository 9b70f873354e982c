// The CPU device runtime in the style of a CANN sample: initialize, allocate device memory, copy
// host data in, describe it as an aclTensor, read the tensor back, copy it out, and see how a
// mistake is reported (an error code and a message, where an NPU might crash).
#include <cstdio>
#include <memory>
#include <vector>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"

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

int RunBasics(aclrtStream stream) {
  std::vector<int64_t> shape = {2, 3};
  std::vector<float> hostData = {0.5f, 1.5f, 2.5f, 3.5f, 4.5f, 5.5f};
  size_t bytes = hostData.size() * sizeof(float);

  void* deviceAddr = nullptr;
  auto ret = aclrtMalloc(&deviceAddr, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtMalloc failed. ERROR: %d\n", ret); return ret);
  std::unique_ptr<void, aclError (*)(void*)> deviceAddrPtr(deviceAddr, aclrtFree);

  ret = aclrtMemcpy(deviceAddr, bytes, hostData.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtMemcpy H2D failed. ERROR: %d\n", ret); return ret);

  std::vector<int64_t> strides = {3, 1};
  aclTensor* tensor =
      aclCreateTensor(shape.data(), shape.size(), aclDataType::ACL_FLOAT, strides.data(), 0,
                      aclFormat::ACL_FORMAT_ND, shape.data(), shape.size(), deviceAddr);
  CHECK_RET(tensor != nullptr, LOG_PRINT("aclCreateTensor failed: %s\n", aclGetRecentErrMsg());
            return 1);
  std::unique_ptr<aclTensor, aclnnStatus (*)(const aclTensor*)> tensorPtr(tensor, aclDestroyTensor);

  int64_t* viewDims = nullptr;
  uint64_t viewDimsNum = 0;
  aclGetViewShape(tensor, &viewDims, &viewDimsNum);
  aclDataType dataType = ACL_DT_UNDEFINED;
  aclGetDataType(tensor, &dataType);
  LOG_PRINT("tensor: rank %lu, shape [%ld, %ld], dtype %d\n", viewDimsNum, viewDims[0], viewDims[1],
            static_cast<int>(dataType));
  delete[] viewDims;

  ret = aclrtMemsetAsync(deviceAddr, bytes, 0, sizeof(float), stream);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtMemsetAsync failed. ERROR: %d\n", ret); return ret);
  ret = aclrtSynchronizeStream(stream);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtSynchronizeStream failed. ERROR: %d\n", ret);
            return ret);

  std::vector<float> result(hostData.size(), 0);
  ret = aclrtMemcpy(result.data(), bytes, deviceAddr, bytes, ACL_MEMCPY_DEVICE_TO_HOST);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtMemcpy D2H failed. ERROR: %d\n", ret); return ret);
  for (size_t i = 0; i < result.size(); i++) {
    LOG_PRINT("result[%zu] is: %f\n", i, result[i]);
  }

  // Mistakes an NPU would turn into a device fault come back as codes with messages.
  std::vector<float> tooBig(hostData.size() * 2, 0);
  ret = aclrtMemcpy(deviceAddr, tooBig.size() * sizeof(float), tooBig.data(),
                    tooBig.size() * sizeof(float), ACL_MEMCPY_HOST_TO_DEVICE);
  LOG_PRINT("copying %zu bytes into a %zu-byte allocation returns %d: %s\n",
            tooBig.size() * sizeof(float), bytes, ret, aclGetRecentErrMsg());
  ret = aclrtMemcpy(result.data(), bytes, hostData.data(), bytes, ACL_MEMCPY_DEVICE_TO_HOST);
  LOG_PRINT("a host pointer passed as the device source returns %d: %s\n", ret,
            aclGetRecentErrMsg());
  return ACL_SUCCESS;
}

int main() {
  int32_t deviceId = 0;
  aclrtStream stream = nullptr;
  auto ret = Init(deviceId, &stream);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("Init acl failed. ERROR: %d\n", ret); return ret);

  ret = RunBasics(stream);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("RunBasics failed. ERROR: %d\n", ret); return ret);

  aclrtDestroyStream(stream);
  aclrtResetDevice(deviceId);
  aclFinalize();
  return 0;
}
