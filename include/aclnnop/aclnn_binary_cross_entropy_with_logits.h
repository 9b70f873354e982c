/* The binary cross entropy of logits, with optional weight and posWeight. */
#ifndef OPENACLNN_ACLNNOP_ACLNN_BINARY_CROSS_ENTROPY_WITH_LOGITS_H_
#define OPENACLNN_ACLNNOP_ACLNN_BINARY_CROSS_ENTROPY_WITH_LOGITS_H_

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnBinaryCrossEntropyWithLogitsGetWorkspaceSize(
    const aclTensor* self, const aclTensor* target, const aclTensor* weightOptional,
    const aclTensor* posWeightOptional, int64_t reduction, aclTensor* out, uint64_t* workspaceSize,
    aclOpExecutor** executor);

ACLNN_API aclnnStatus aclnnBinaryCrossEntropyWithLogits(void* workspace, uint64_t workspaceSize,
                                                        aclOpExecutor* executor,
                                                        const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OPENACLNN_ACLNNOP_ACLNN_BINARY_CROSS_ENTROPY_WITH_LOGITS_H_ */
