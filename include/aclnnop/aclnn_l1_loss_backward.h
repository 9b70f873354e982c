/* Gradient of the L1 loss. */
#ifndef OPENACLNN_ACLNNOP_ACLNN_L1_LOSS_BACKWARD_H_
#define OPENACLNN_ACLNNOP_ACLNN_L1_LOSS_BACKWARD_H_

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnL1LossBackwardGetWorkspaceSize(
    const aclTensor* gradOutput, const aclTensor* self, const aclTensor* target, int64_t reduction,
    aclTensor* gradInput, uint64_t* workspaceSize, aclOpExecutor** executor);

ACLNN_API aclnnStatus aclnnL1LossBackward(void* workspace, uint64_t workspaceSize,
                                          aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OPENACLNN_ACLNNOP_ACLNN_L1_LOSS_BACKWARD_H_ */
