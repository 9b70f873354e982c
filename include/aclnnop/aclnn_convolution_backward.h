/* Gradients of the TBC-layout 1-D convolution (SPEC section 8). */
#ifndef OPENACLNN_ACLNNOP_ACLNN_CONVOLUTION_BACKWARD_H_
#define OPENACLNN_ACLNNOP_ACLNN_CONVOLUTION_BACKWARD_H_

#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnConvTbcBackwardGetWorkspaceSize(
    const aclTensor* self, const aclTensor* input, const aclTensor* weight, const aclTensor* bias,
    int64_t pad, int8_t cubeMathType, aclTensor* gradInput, aclTensor* gradWeight,
    aclTensor* gradBias, uint64_t* workspaceSize, aclOpExecutor** executor);

ACLNN_API aclnnStatus aclnnConvTbcBackward(void* workspace, uint64_t workspaceSize,
                                           aclOpExecutor* executor, const aclrtStream stream);

ACLNN_API aclnnStatus aclnnConvolutionBackwardGetWorkspaceSize(
    const aclTensor* gradOutput, const aclTensor* input, const aclTensor* weight,
    const aclIntArray* biasSizes, const aclIntArray* stride, const aclIntArray* padding,
    const aclIntArray* dilation, bool transposed, const aclIntArray* outputPadding, int groups,
    const aclBoolArray* outputMask, int8_t cubeMathType, aclTensor* gradInput,
    aclTensor* gradWeight, aclTensor* gradBias, uint64_t* workspaceSize, aclOpExecutor** executor);

ACLNN_API aclnnStatus aclnnConvolutionBackward(void* workspace, uint64_t workspaceSize,
                                               aclOpExecutor* executor, const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OPENACLNN_ACLNNOP_ACLNN_CONVOLUTION_BACKWARD_H_ */
