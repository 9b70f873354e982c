/* The negative log likelihood loss of [N, C, H, W] log-probabilities. */
#ifndef OPENACLNN_ACLNNOP_ACLNN_NLL_LOSS2D_H_
#define OPENACLNN_ACLNNOP_ACLNN_NLL_LOSS2D_H_

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnNLLLoss2dGetWorkspaceSize(const aclTensor* self, const aclTensor* target,
                                                     const aclTensor* weight, int64_t reduction,
                                                     int64_t ignoreIndex, aclTensor* out,
                                                     aclTensor* totalWeightOut,
                                                     uint64_t* workspaceSize,
                                                     aclOpExecutor** executor);

ACLNN_API aclnnStatus aclnnNLLLoss2d(void* workspace, uint64_t workspaceSize,
                                     aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OPENACLNN_ACLNNOP_ACLNN_NLL_LOSS2D_H_ */
