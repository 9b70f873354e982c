// aclnnConvTbc (SPEC section 11): output[t, b, :] = bias + sum over k of self[t + k - pad, b, :] .
// weight[k], with zero padding; the format, pad and cubeMathType rules of section 8. self, weight
// and output share one dtype; bias may have any float dtype (it is converted), as in CANN.
#include "aclnnop/aclnn_convolution.h"

#include <memory>
#include <utility>

#include "core/executor.h"
#include "kernels/conv_tbc/forward.h"
#include "ops/conv_tbc/tbc_checks.h"
#include "ops/conv_tbc/tbc_plan.h"

namespace oa::tbc {
namespace {

constexpr const char* kOp = "aclnnConvTbc";

class ForwardRun final : public Plan {
 public:
  explicit ForwardRun(std::unique_ptr<ForwardPlan> plan) : plan_(std::move(plan)) {}
  aclnnStatus run(void* workspace) const override { return run_forward(*plan_, workspace); }

 private:
  std::unique_ptr<ForwardPlan> plan_;
};

}  // namespace
}  // namespace oa::tbc

extern "C" aclnnStatus aclnnConvTbcGetWorkspaceSize(const aclTensor* self, const aclTensor* weight,
                                                    const aclTensor* bias, const int64_t pad,
                                                    aclTensor* output, int8_t cubeMathType,
                                                    uint64_t* workspaceSize,
                                                    aclOpExecutor** executor) {
  using namespace oa;
  using namespace oa::tbc;
  OA_TRY(check_not_null(kOp, {{self, "self"},
                              {weight, "weight"},
                              {bias, "bias"},
                              {output, "output"},
                              {workspaceSize, "workspaceSize"},
                              {executor, "executor"}}));
  const Named x{self, "self"};
  const Named w{weight, "weight"};
  const Named b{bias, "bias"};
  const Named out{output, "output"};
  OA_TRY(check_float_dtypes(kOp, {b, x}));
  OA_TRY(check_same_dtype(kOp, w, x));
  OA_TRY(check_same_dtype(kOp, out, x));
  OA_TRY(check_formats(kOp, {x, w, b, out}, {}));
  OA_TRY(check_ranks(kOp, {x, w, out}, {b}));
  OA_TRY(check_channels_and_pad(kOp, x, w, b, pad));
  OA_TRY(check_output_shape(kOp, out, x, w, pad));
  OA_TRY(check_cube_math_type(kOp, cubeMathType, {x, w}));
  OA_TRY(check_in_device_memory(kOp, {x, w, b, out}));
  OA_TRY(check_output(kOp, out, {x, w, b}, false));

  auto plan = std::make_unique<ForwardPlan>();
  uint64_t workspace = 0;
  OA_TRY(plan_forward({self, weight, bias, output, pad, cubeMathType}, plan.get(), &workspace));
  return make_executor(kOp, std::make_unique<ForwardRun>(std::move(plan)), workspace, workspaceSize,
                       executor);
}

extern "C" aclnnStatus aclnnConvTbc(void* workspace, const uint64_t workspaceSize,
                                    aclOpExecutor* executor, const aclrtStream stream) {
  return oa::launch(oa::tbc::kOp, workspace, workspaceSize, executor, stream);
}
