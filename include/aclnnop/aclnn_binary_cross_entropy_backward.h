/* Gradient of the binary cross entropy. */
#ifndef OPENACLNN_ACLNNOP_ACLNN_BINARY_CROSS_ENTROPY_BACKWARD_H_
#define OPENACLNN_ACLNNOP_ACLNN_BINARY_CROSS_ENTROPY_BACKWARD_H_

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnBinaryCrossEntropyBackwardGetWorkspaceSize(
    const aclTensor* gradOutput, const aclTensor* self, const aclTensor* target,
    const aclTensor* weightOptional, int64_t reduction, aclTensor* out, uint64_t* workspaceSize,
    aclOpExecutor** executor);

ACLNN_API aclnnStatus aclnnBinaryCrossEntropyBackward(void* workspace, uint64_t workspaceSize,
                                                      aclOpExecutor* executor,
                                                      const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OPENACLNN_ACLNNOP_ACLNN_BINARY_CROSS_ENTROPY_BACKWARD_H_ */
