// A program written the way the samples of CANN's ops-nn repository are: the operator header
// included by its bare name (found through -I include/aclnnop), linked with their build line
// (-lopapi_nn -lopapi_math -lascendcl -lnnopbase). Prints the smooth L1 loss of two vectors.
#include <cstdio>
#include <vector>

#include "acl/acl.h"
#include "aclnn_smooth_l1_loss.h"

int main() {
  if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) return 1;
  aclrtStream stream = nullptr;
  if (aclrtCreateStream(&stream) != ACL_SUCCESS) return 1;

  std::vector<int64_t> shape = {4};
  std::vector<float> self = {0.0f, 1.0f, 2.0f, 3.0f};
  std::vector<float> target = {0.5f, 1.0f, 0.0f, 3.25f};
  const size_t bytes = self.size() * sizeof(float);
  void* selfAddr = nullptr;
  void* targetAddr = nullptr;
  void* resultAddr = nullptr;
  aclrtMalloc(&selfAddr, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
  aclrtMalloc(&targetAddr, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
  aclrtMalloc(&resultAddr, sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST);
  aclrtMemcpy(selfAddr, bytes, self.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE);
  aclrtMemcpy(targetAddr, bytes, target.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE);
  std::vector<int64_t> strides = {1};
  aclTensor* selfTensor = aclCreateTensor(shape.data(), 1, ACL_FLOAT, strides.data(), 0,
                                          ACL_FORMAT_ND, shape.data(), 1, selfAddr);
  aclTensor* targetTensor = aclCreateTensor(shape.data(), 1, ACL_FLOAT, strides.data(), 0,
                                            ACL_FORMAT_ND, shape.data(), 1, targetAddr);
  aclTensor* resultTensor =
      aclCreateTensor(nullptr, 0, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, nullptr, 0, resultAddr);

  uint64_t workspaceSize = 0;
  aclOpExecutor* executor = nullptr;
  aclnnStatus ret = aclnnSmoothL1LossGetWorkspaceSize(selfTensor, targetTensor, 2, 1.0f,
                                                      resultTensor, &workspaceSize, &executor);
  void* workspaceAddr = nullptr;
  if (ret == ACLNN_SUCCESS && workspaceSize > 0) {
    aclrtMalloc(&workspaceAddr, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST);
  }
  if (ret == ACLNN_SUCCESS) ret = aclnnSmoothL1Loss(workspaceAddr, workspaceSize, executor, stream);
  if (ret == ACLNN_SUCCESS) ret = aclrtSynchronizeStream(stream);
  float result = 0.0f;
  aclrtMemcpy(&result, sizeof(float), resultAddr, sizeof(float), ACL_MEMCPY_DEVICE_TO_HOST);
  printf("status %d, sum of the smooth L1 loss: %g\n", ret, result);

  aclDestroyTensor(selfTensor);
  aclDestroyTensor(targetTensor);
  aclDestroyTensor(resultTensor);
  aclrtFree(selfAddr);
  aclrtFree(targetAddr);
  aclrtFree(resultAddr);
  if (workspaceAddr != nullptr) aclrtFree(workspaceAddr);
  aclrtDestroyStream(stream);
  aclrtResetDevice(0);
  aclFinalize();
  return ret == ACLNN_SUCCESS ? 0 : 1;
}
