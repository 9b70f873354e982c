// Phase 1 of aclnnConvTbc and aclnnConvTbcBackward after their checks: the kernels' plans (views,
// how the work is cut, the oneDNN products) and the workspace layout.
#pragma once

#include <cstdint>

#include "aclnn/aclnn_base.h"
#include "kernels/conv_tbc/backward.h"
#include "kernels/conv_tbc/forward.h"

namespace oa::tbc {

// The tensors of one call, already checked.
struct ForwardArgs {
  const aclTensor* self;
  const aclTensor* weight;
  const aclTensor* bias;
  const aclTensor* output;
  int64_t pad;
  int8_t cube_math_type;
};

struct BackwardArgs {
  const aclTensor* self;
  const aclTensor* input;
  const aclTensor* weight;
  const aclTensor* bias;
  const aclTensor* grad_input;
  const aclTensor* grad_weight;
  const aclTensor* grad_bias;
  int64_t pad;
  int8_t cube_math_type;
};

// Fill *plan and *workspace_bytes. Fail (561000, with a message) only when oneDNN cannot plan a
// product.
aclnnStatus plan_forward(const ForwardArgs& args, ForwardPlan* plan, uint64_t* workspace_bytes);
aclnnStatus plan_backward(const BackwardArgs& args, BackwardPlan* plan, uint64_t* workspace_bytes);

}  // namespace oa::tbc
