// aclnnConvTbcBackward (SPEC section 8): the gradients of the TBC convolution with respect to its
// input, weight and bias, from self = the gradient of its output.
#include "aclnnop/aclnn_convolution_backward.h"

#include <memory>
#include <utility>

#include "core/executor.h"
#include "kernels/conv_tbc/backward.h"
#include "ops/conv_tbc/tbc_checks.h"
#include "ops/conv_tbc/tbc_plan.h"
#include "ops/dtype_sets.h"
#include "runtime/error.h"

namespace oa::tbc {
namespace {

constexpr const char* kOp = "aclnnConvTbcBackward";

class BackwardRun final : public Plan {
 public:
  explicit BackwardRun(std::unique_ptr<BackwardPlan> plan) : plan_(std::move(plan)) {}
  aclnnStatus run(void* workspace) const override { return run_backward(*plan_, workspace); }

 private:
  std::unique_ptr<BackwardPlan> plan_;
};

aclnnStatus check_not_empty(Named self) {
  if (numel(*self.tensor) == 0) {
    return failf(ACLNN_ERR_PARAM_INVALID, "%s: %s must not be empty, got shape %s", kOp, self.name,
                 shape_string(self.tensor->shape).c_str());
  }
  return ACLNN_SUCCESS;
}

}  // namespace
}  // namespace oa::tbc

extern "C" aclnnStatus aclnnConvTbcBackwardGetWorkspaceSize(
    const aclTensor* self, const aclTensor* input, const aclTensor* weight, const aclTensor* bias,
    int64_t pad, int8_t cubeMathType, aclTensor* gradInput, aclTensor* gradWeight,
    aclTensor* gradBias, uint64_t* workspaceSize, aclOpExecutor** executor) {
  using namespace oa;
  using namespace oa::tbc;
  OA_TRY(check_not_null(kOp, {{self, "self"},
                              {input, "input"},
                              {weight, "weight"},
                              {bias, "bias"},
                              {gradInput, "gradInput"},
                              {gradWeight, "gradWeight"},
                              {gradBias, "gradBias"},
                              {workspaceSize, "workspaceSize"},
                              {executor, "executor"}}));
  const Named g{self, "self"};
  const Named x{input, "input"};
  const Named w{weight, "weight"};
  const Named b{bias, "bias"};
  const Named gi{gradInput, "gradInput"};
  const Named gw{gradWeight, "gradWeight"};
  const Named gb{gradBias, "gradBias"};
  OA_TRY(check_float_dtypes(kOp, {g, x, w, b, gi, gb}));
  OA_TRY(check_dtype(kOp, gw, ops::kGradWeightDtypes));
  OA_TRY(check_same_dtype(kOp, gi, x));
  OA_TRY(check_same_dtype(kOp, gb, b));
  OA_TRY(check_grad_weight_dtype(kOp, gw, w));
  OA_TRY(check_formats(kOp, {g, x, w, b, gi, gw}, {gb}));
  OA_TRY(check_ranks(kOp, {g, x, w, gi, gw}, {b, gb}));
  OA_TRY(check_channels_and_pad(kOp, x, w, b, pad));
  OA_TRY(check_not_empty(g));
  OA_TRY(check_output_shape(kOp, g, x, w, pad));
  OA_TRY(check_same_shape(kOp, gi, x));
  OA_TRY(check_same_shape(kOp, gw, w));
  OA_TRY(check_same_shape(kOp, gb, b));
  OA_TRY(check_cube_math_type(kOp, cubeMathType, {g, x, w}));
  OA_TRY(check_in_device_memory(kOp, {g, x, w, b, gi, gw, gb}));
  OA_TRY(check_output(kOp, gi, {g, x, w, b}, false));
  OA_TRY(check_output(kOp, gw, {g, x, w, b, gi}, false));
  OA_TRY(check_output(kOp, gb, {g, x, w, b, gi, gw}, false));

  auto plan = std::make_unique<BackwardPlan>();
  uint64_t workspace = 0;
  OA_TRY(
      plan_backward({self, input, weight, bias, gradInput, gradWeight, gradBias, pad, cubeMathType},
                    plan.get(), &workspace));
  return make_executor(kOp, std::make_unique<BackwardRun>(std::move(plan)), workspace,
                       workspaceSize, executor);
}

extern "C" aclnnStatus aclnnConvTbcBackward(void* workspace, uint64_t workspaceSize,
                                            aclOpExecutor* executor, const aclrtStream stream) {
  return oa::launch(oa::tbc::kOp, workspace, workspaceSize, executor, stream);
}
