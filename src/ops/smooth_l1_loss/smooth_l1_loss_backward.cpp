// aclnnSmoothL1LossBackward (SPEC section 9): gradInput = grad(self - target) · gradOutput · norm,
// broadcast over the three inputs, computed in float32 by the elementwise engine.
#include "aclnnop/aclnn_smooth_l1_loss_backward.h"

#include <memory>

#include "core/checks.h"
#include "core/elementwise.h"
#include "core/executor.h"
#include "kernels/smooth_l1_loss/smooth_l1.h"
#include "ops/dtype_sets.h"
#include "ops/smooth_l1_loss/loss_checks.h"

namespace oa {
namespace {

constexpr const char* kOp = "aclnnSmoothL1LossBackward";

class BackwardPlan : public Plan {
 public:
  BackwardPlan(ElementwiseLoop loop, Isa isa, float beta, float scale)
      : loop_(loop),
        isa_(isa),
        beta_(beta),
        scale_(scale),
        stream_(worth_streaming(loop)),
        dtypes_(operand_dtypes(loop)) {}

  aclnnStatus run(void*) const override {
    for_each_strip(loop_, [&](int64_t, const Strip& strip) {
      // Contiguous operands (and one-value inputs of one 16-bit dtype) are converted in registers,
      // without float32 blocks in between.
      if (isa_ == Isa::simd && dense_strip(loop_, strip)) {
        kernels::smooth_l1_backward_dense(beta_, scale_, dtypes_.dtype, strip.ptr, strip.stride,
                                          strip.n, stream_);
        return;
      }
      map_floats<3>(isa_, loop_, strip,
                    [&](float* out, const float* const* in, int64_t n, bool in_memory) {
                      kernels::smooth_l1_backward(isa_, beta_, scale_, in[0], in[1], in[2], out, n,
                                                  stream_ && in_memory);
                    });
    });
    return ACLNN_SUCCESS;
  }

 private:
  ElementwiseLoop loop_;
  Isa isa_;
  float beta_;
  float scale_;
  bool stream_;
  OperandDtypes dtypes_;
};

}  // namespace
}  // namespace oa

extern "C" aclnnStatus aclnnSmoothL1LossBackwardGetWorkspaceSize(
    const aclTensor* gradOutput, const aclTensor* self, const aclTensor* target, int64_t reduction,
    float beta, aclTensor* gradInput, uint64_t* workspaceSize, aclOpExecutor** executor) {
  using namespace oa;
  OA_TRY(check_not_null(kOp, {{workspaceSize, "workspaceSize"},
                              {executor, "executor"},
                              {gradOutput, "gradOutput"},
                              {self, "self"},
                              {target, "target"},
                              {gradInput, "gradInput"}}));
  const Named grad_output{gradOutput, "gradOutput"};
  const Named x{self, "self"};
  const Named y{target, "target"};
  const Named grad_input{gradInput, "gradInput"};
  for (const Named& t : {grad_output, x, y, grad_input}) {
    OA_TRY(check_dtype(kOp, t, ops::kFloatDtypes));
  }
  for (const Named& t : {grad_output, x, y, grad_input}) {
    OA_TRY(check_rank(kOp, t, 0, kMaxElementwiseRank));
  }
  OA_TRY(check_reduction(kOp, reduction));
  OA_TRY(check_beta(kOp, beta));
  Shape shape;
  OA_TRY(check_broadcast(kOp, {grad_output, x, y}, &shape));
  OA_TRY(check_shape(kOp, grad_input, shape, "the broadcast of gradOutput, self and target"));
  OA_TRY(check_in_device_memory(kOp, {grad_output, x, y, grad_input}));
  OA_TRY(check_output(kOp, grad_input, {grad_output, x, y}, true));

  // The mean's derivative divides by the number of loss terms: the broadcast element count.
  float scale = static_cast<Reduction>(reduction) == Reduction::mean
                    ? static_cast<float>(1.0 / static_cast<double>(numel(shape)))
                    : 1.0f;
  auto plan = std::make_unique<BackwardPlan>(
      plan_elementwise(shape, gradInput, {gradOutput, self, target}), selected_isa(), beta, scale);
  return make_executor(kOp, std::move(plan), 0, workspaceSize, executor);
}

extern "C" aclnnStatus aclnnSmoothL1LossBackward(void* workspace, uint64_t workspaceSize,
                                                 aclOpExecutor* executor, aclrtStream stream) {
  return oa::launch(oa::kOp, workspace, workspaceSize, executor, stream);
}
