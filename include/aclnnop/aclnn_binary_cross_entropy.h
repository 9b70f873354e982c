/* The binary cross entropy of probabilities, with an optional weight. */
#ifndef OPENACLNN_ACLNNOP_ACLNN_BINARY_CROSS_ENTROPY_H_
#define OPENACLNN_ACLNNOP_ACLNN_BINARY_CROSS_ENTROPY_H_

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* CANN's header declares the reduction codes too. */
enum Reduction { None = 0, Mean = 1, Sum = 2 };

ACLNN_API aclnnStatus aclnnBinaryCrossEntropyGetWorkspaceSize(
    const aclTensor* self, const aclTensor* target, const aclTensor* weight, int64_t reduction,
    aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);

ACLNN_API aclnnStatus aclnnBinaryCrossEntropy(void* workspace, uint64_t workspaceSize,
                                              aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OPENACLNN_ACLNNOP_ACLNN_BINARY_CROSS_ENTROPY_H_ */
