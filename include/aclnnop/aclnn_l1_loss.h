/* The L1 (mean absolute error) loss. */
#ifndef OPENACLNN_ACLNNOP_ACLNN_L1_LOSS_H_
#define OPENACLNN_ACLNNOP_ACLNN_L1_LOSS_H_

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnL1LossGetWorkspaceSize(const aclTensor* self, const aclTensor* target,
                                                  int64_t reduction, aclTensor* out,
                                                  uint64_t* workspaceSize,
                                                  aclOpExecutor** executor);

ACLNN_API aclnnStatus aclnnL1Loss(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                  aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OPENACLNN_ACLNNOP_ACLNN_L1_LOSS_H_ */
