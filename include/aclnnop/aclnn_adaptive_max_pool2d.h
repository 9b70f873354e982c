/* Adaptive 2-D max pooling with indices (SPEC section 11). */
#ifndef OPENACLNN_ACLNNOP_ACLNN_ADAPTIVE_MAX_POOL2D_H_
#define OPENACLNN_ACLNNOP_ACLNN_ADAPTIVE_MAX_POOL2D_H_

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnAdaptiveMaxPool2dGetWorkspaceSize(
    const aclTensor* self, const aclIntArray* outputSize, const aclTensor* outputOut,
    const aclTensor* indicesOut, uint64_t* workspaceSize, aclOpExecutor** executor);

ACLNN_API aclnnStatus aclnnAdaptiveMaxPool2d(void* workspace, uint64_t workspaceSize,
                                             aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OPENACLNN_ACLNNOP_ACLNN_ADAPTIVE_MAX_POOL2D_H_ */
