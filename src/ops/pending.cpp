// Operators whose prototypes are public but whose kernels have not landed yet. Phase 1 reports
// "not implemented" (never a crash); phase 2 is the shared launcher, which rejects any executor
// these could not have made. Each operator moves to src/ops/<op>/ when it is implemented.
#include "aclnnop/aclnn_adaptive_max_pool2d.h"
#include "aclnnop/aclnn_adaptive_max_pool2d_backward.h"
#include "aclnnop/aclnn_convolution.h"
#include "aclnnop/aclnn_convolution_backward.h"
#include "aclnnop/aclnn_smooth_l1_loss.h"
#include "aclnnop/aclnn_smooth_l1_loss_backward.h"
#include "core/executor.h"

extern "C" {

aclnnStatus aclnnAdaptiveMaxPool2dBackwardGetWorkspaceSize(const aclTensor*, const aclTensor*,
                                                           const aclTensor*, aclTensor*, uint64_t*,
                                                           aclOpExecutor**) {
  return oa::not_implemented("aclnnAdaptiveMaxPool2dBackward");
}

aclnnStatus aclnnAdaptiveMaxPool2dBackward(void* workspace, uint64_t workspaceSize,
                                           aclOpExecutor* executor, aclrtStream stream) {
  return oa::launch("aclnnAdaptiveMaxPool2dBackward", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnAdaptiveMaxPool2dGetWorkspaceSize(const aclTensor*, const aclIntArray*,
                                                   const aclTensor*, const aclTensor*, uint64_t*,
                                                   aclOpExecutor**) {
  return oa::not_implemented("aclnnAdaptiveMaxPool2d");
}

aclnnStatus aclnnAdaptiveMaxPool2d(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                   aclrtStream stream) {
  return oa::launch("aclnnAdaptiveMaxPool2d", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnConvTbcBackwardGetWorkspaceSize(const aclTensor*, const aclTensor*,
                                                 const aclTensor*, const aclTensor*, int64_t,
                                                 int8_t, aclTensor*, aclTensor*, aclTensor*,
                                                 uint64_t*, aclOpExecutor**) {
  return oa::not_implemented("aclnnConvTbcBackward");
}

aclnnStatus aclnnConvTbcBackward(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                 const aclrtStream stream) {
  return oa::launch("aclnnConvTbcBackward", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnConvTbcGetWorkspaceSize(const aclTensor*, const aclTensor*, const aclTensor*,
                                         const int64_t, aclTensor*, int8_t, uint64_t*,
                                         aclOpExecutor**) {
  return oa::not_implemented("aclnnConvTbc");
}

aclnnStatus aclnnConvTbc(void* workspace, const uint64_t workspaceSize, aclOpExecutor* executor,
                         const aclrtStream stream) {
  return oa::launch("aclnnConvTbc", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnSmoothL1LossBackwardGetWorkspaceSize(const aclTensor*, const aclTensor*,
                                                      const aclTensor*, int64_t, float, aclTensor*,
                                                      uint64_t*, aclOpExecutor**) {
  return oa::not_implemented("aclnnSmoothL1LossBackward");
}

aclnnStatus aclnnSmoothL1LossBackward(void* workspace, uint64_t workspaceSize,
                                      aclOpExecutor* executor, aclrtStream stream) {
  return oa::launch("aclnnSmoothL1LossBackward", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnSmoothL1LossGetWorkspaceSize(const aclTensor*, const aclTensor*, int64_t, float,
                                              aclTensor*, uint64_t*, aclOpExecutor**) {
  return oa::not_implemented("aclnnSmoothL1Loss");
}

aclnnStatus aclnnSmoothL1Loss(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                              aclrtStream stream) {
  return oa::launch("aclnnSmoothL1Loss", workspace, workspaceSize, executor, stream);
}

}  // extern "C"
