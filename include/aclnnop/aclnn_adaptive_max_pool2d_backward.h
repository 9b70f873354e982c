/* Gradient of adaptive 2-D max pooling (SPEC section 7). */
#ifndef OPENACLNN_ACLNNOP_ACLNN_ADAPTIVE_MAX_POOL2D_BACKWARD_H_
#define OPENACLNN_ACLNNOP_ACLNN_ADAPTIVE_MAX_POOL2D_BACKWARD_H_

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnAdaptiveMaxPool2dBackwardGetWorkspaceSize(
    const aclTensor* gradOutput, const aclTensor* self, const aclTensor* indices,
    aclTensor* gradInput, uint64_t* workspaceSize, aclOpExecutor** executor);

ACLNN_API aclnnStatus aclnnAdaptiveMaxPool2dBackward(void* workspace, uint64_t workspaceSize,
                                                     aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OPENACLNN_ACLNNOP_ACLNN_ADAPTIVE_MAX_POOL2D_BACKWARD_H_ */
