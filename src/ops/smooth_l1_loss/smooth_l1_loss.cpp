// aclnnSmoothL1Loss (SPEC section 11): the loss per broadcast element, or its deterministic mean or
// sum (chunk partials in double from the workspace, combined in chunk order).
#include "aclnnop/aclnn_smooth_l1_loss.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

#include "core/checks.h"
#include "core/dtype.h"
#include "core/elementwise.h"
#include "core/executor.h"
#include "core/reduce.h"
#include "kernels/smooth_l1_loss/smooth_l1.h"
#include "ops/dtype_sets.h"
#include "ops/smooth_l1_loss/loss_checks.h"
#include "runtime/error.h"

namespace oa {
namespace {

constexpr const char* kOp = "aclnnSmoothL1Loss";

class ElementwisePlan : public Plan {
 public:
  ElementwisePlan(ElementwiseLoop loop, Isa isa, float beta)
      : loop_(loop),
        isa_(isa),
        beta_(beta),
        stream_(worth_streaming(loop)),
        dtypes_(operand_dtypes(loop)) {}

  aclnnStatus run(void*) const override {
    for_each_strip(loop_, [&](int64_t, const Strip& strip) {
      if (isa_ == Isa::simd && dense_strip(loop_, strip)) {
        kernels::smooth_l1_forward_dense(beta_, dtypes_.dtype, strip.ptr, strip.stride, strip.n,
                                         stream_);
        return;
      }
      map_floats<2>(
          isa_, loop_, strip, [&](float* out, const float* const* in, int64_t n, bool in_memory) {
            kernels::smooth_l1_forward(isa_, beta_, in[0], in[1], out, n, stream_ && in_memory);
          });
    });
    return ACLNN_SUCCESS;
  }

 private:
  ElementwiseLoop loop_;
  Isa isa_;
  float beta_;
  bool stream_;
  OperandDtypes dtypes_;
};

// The workspace holds one double partial sum per chunk of the elementwise walk.
class ReducePlan : public Plan {
 public:
  ReducePlan(ElementwiseLoop loop, Isa isa, float beta, bool mean, const aclTensor& result)
      : loop_(loop), isa_(isa), beta_(beta), mean_(mean), result_(result) {}

  uint64_t workspace_size() const { return static_cast<uint64_t>(loop_.chunks()) * sizeof(double); }

  aclnnStatus run(void* workspace) const override {
    auto* partials = static_cast<double*>(workspace);
    std::fill(partials, partials + loop_.chunks(), 0.0);
    for_each_strip(loop_, [&](int64_t chunk, const Strip& strip) {
      if (isa_ == Isa::simd && strip.stride[1] == 1 && strip.stride[2] == 1) {
        dense_partial(strip, &partials[chunk]);
        return;
      }
      FloatInputs<2> inputs(isa_, loop_, strip);
      alignas(64) float terms[kFloatBlock];
      for (int64_t done = 0; done < strip.n; done += kFloatBlock) {
        int64_t n = std::min(kFloatBlock, strip.n - done);
        kernels::smooth_l1_forward(isa_, beta_, inputs.block(0, done, n), inputs.block(1, done, n),
                                   terms, n, false);
        partials[chunk] = accumulate(terms, n, partials[chunk]);
      }
    });
    const double total = combine_partials(partials, loop_.chunks());
    // The mean of no terms is 0/0 = NaN.
    double result = mean_ ? total / static_cast<double>(loop_.numel) : total;
    // Which NaN a sum of NaNs ends as depends on the order of each addition's operands, which the
    // vectorised loops do not fix, and 0/0 is x86's negative default NaN: a NaN result is the
    // canonical quiet NaN.
    if (std::isnan(result)) {
      result = std::numeric_limits<double>::quiet_NaN();
    }
    float value = static_cast<float>(result);
    char* out = static_cast<char*>(result_.data) +
                result_.offset * static_cast<int64_t>(dtype_bits(result_.dtype) / 8);
    store_floats(isa_, result_.dtype, &value, 1, out, 1);
    return ACLNN_SUCCESS;
  }

 private:
  // Adds the terms of a strip whose inputs are contiguous to *partial, block by block as the
  // float32 blocks below: each block's terms computed from inputs widened in registers and added
  // there in accumulate's order, the same bits (16M elements, 2 threads, against terms stored
  // into a block and then accumulated: bfloat16 and float16 means 1.45-1.86x, bfloat16 sum
  // 1.37-1.47x, float32 mean 1.12-1.31x, float32 sum 0.99-1.27x).
  void dense_partial(const Strip& strip, double* partial) const {
    const aclDataType dtype[2] = {loop_.operands[1].dtype, loop_.operands[2].dtype};
    for (int64_t done = 0; done < strip.n; done += kFloatBlock) {
      const int64_t n = std::min(kFloatBlock, strip.n - done);
      const char* const ptr[2] = {strip.ptr[1] + done * loop_.operands[1].element_size,
                                  strip.ptr[2] + done * loop_.operands[2].element_size};
      *partial = kernels::smooth_l1_forward_sum(beta_, dtype, ptr, n, *partial);
    }
  }

  ElementwiseLoop loop_;
  Isa isa_;
  float beta_;
  bool mean_;
  aclTensor result_;  // a copy of the view: the caller may destroy its aclTensor after phase 1
};

}  // namespace
}  // namespace oa

extern "C" aclnnStatus aclnnSmoothL1LossGetWorkspaceSize(const aclTensor* self,
                                                         const aclTensor* target, int64_t reduction,
                                                         float beta, aclTensor* result,
                                                         uint64_t* workspaceSize,
                                                         aclOpExecutor** executor) {
  using namespace oa;
  OA_TRY(check_not_null(kOp, {{workspaceSize, "workspaceSize"},
                              {executor, "executor"},
                              {self, "self"},
                              {target, "target"},
                              {result, "result"}}));
  const Named x{self, "self"};
  const Named y{target, "target"};
  const Named out{result, "result"};
  for (const Named& t : {x, y, out}) {
    OA_TRY(check_dtype(kOp, t, ops::kFloatDtypes));
  }
  for (const Named& t : {x, y, out}) {
    OA_TRY(check_rank(kOp, t, 0, kMaxElementwiseRank));
  }
  OA_TRY(check_reduction(kOp, reduction));
  OA_TRY(check_beta(kOp, beta));
  Shape shape;
  OA_TRY(check_broadcast(kOp, {x, y}, &shape));
  bool reduce = static_cast<Reduction>(reduction) != Reduction::none;
  if (!reduce) {
    OA_TRY(check_shape(kOp, out, shape, "the broadcast of self and target"));
  } else if (result->shape != Shape{} && result->shape != Shape{1}) {
    return failf(ACLNN_ERR_PARAM_INVALID,
                 "%s: result shape must be [] or [1] for reduction %s, got %s", kOp,
                 reduction == 1 ? "mean" : "sum", shape_string(result->shape).c_str());
  }
  OA_TRY(check_in_device_memory(kOp, {x, y, out}));
  OA_TRY(check_output(kOp, out, {x, y}, !reduce));

  Isa isa = selected_isa();
  if (!reduce) {
    auto plan = std::make_unique<ElementwisePlan>(plan_elementwise(shape, result, {self, target}),
                                                  isa, beta);
    return make_executor(kOp, std::move(plan), 0, workspaceSize, executor);
  }
  auto plan = std::make_unique<ReducePlan>(plan_elementwise(shape, nullptr, {self, target}), isa,
                                           beta, reduction == 1, *result);
  uint64_t bytes = plan->workspace_size();
  return make_executor(kOp, std::move(plan), bytes, workspaceSize, executor);
}

extern "C" aclnnStatus aclnnSmoothL1Loss(void* workspace, uint64_t workspaceSize,
                                         aclOpExecutor* executor, aclrtStream stream) {
  return oa::launch(oa::kOp, workspace, workspaceSize, executor, stream);
}
