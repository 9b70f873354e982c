// Phase 1 of the oneDNN implementations of aclnnConvTbc and aclnnConvTbcBackward: the kernels'
// plans (views, how the work is cut, the oneDNN products) and the workspace layout.
#include <algorithm>
#include <memory>
#include <utility>
#include <vector>

#include "core/cube_math.h"
#include "core/executor.h"
#include "core/isa.h"
#include "ops/conv/impls.h"
#include "ops/conv/tbc_backward.h"
#include "ops/conv/tbc_forward.h"
#include "ops/conv/tbc_plan_parts.h"

namespace oa::conv {
namespace {

constexpr int64_t kFloat = 4;

// The FLOPs of the GEMM items: the Toeplitz tasks and (for the backward) gradWeight's taps.
std::vector<double> item_costs(const Toeplitz& p, const std::vector<int64_t>& row_counts,
                               const WeightGrad* wg = nullptr) {
  std::vector<double> costs;
  for (const Toeplitz::Task& task : p.tasks) {
    costs.push_back(2.0 * static_cast<double>(row_counts[static_cast<size_t>(task.gemm)] * p.n) *
                    static_cast<double>(p.taps * p.c));
  }
  if (wg != nullptr) {
    const double per_tap =
        2.0 * static_cast<double>(wg->ci * wg->co) * static_cast<double>(wg->tout * wg->batches);
    costs.insert(costs.end(), static_cast<size_t>(wg->taps), per_tap);
  }
  return costs;
}

// Fill *plan and *workspace_bytes. Fail (561000, with a message) only when oneDNN cannot plan a
// product.
aclnnStatus plan_forward(const Call& call, ForwardPlan* p, uint64_t* workspace_bytes) {
  const aclTensor* weight = call.tensor("weight");
  const aclTensor* bias = call.tensor("bias");
  const aclTensor* output = call.tensor("output");
  const int64_t pad = call.integer("pad");
  const int64_t cube_math_type = call.integer("cubeMathType");
  const aclTensor& x = *call.tensor("self");
  TbcDims& d = p->d;
  d = {x.shape[0],       x.shape[1], x.shape[2],      weight->shape[2],
       weight->shape[0], pad,        output->shape[0]};
  p->isa = selected_isa();
  p->x = view_of(x);
  p->w = view_of(*weight);
  p->bias = view_of(*bias);
  p->out = view_of(*output);
  p->x_rounding = cube_rounding(x.dtype, cube_math_type);
  p->w_rounding = cube_rounding(weight->dtype, cube_math_type);
  *workspace_bytes = 0;
  if (d.b == 0 || d.co == 0) {
    return ACLNN_SUCCESS;  // the output is empty
  }
  Layout layout;
  p->bias_offset = layout.add(d.co * kFloat);
  p->pack.add(kPackBias, 1, d.co);
  p->bias_only = d.t == 0 || d.ci == 0;
  if (p->bias_only) {
    p->finish.add(kFillBias, d.tout * d.b, d.co);
    *workspace_bytes = static_cast<uint64_t>(layout.total());
    return ACLNN_SUCCESS;
  }

  Toeplitz& conv = p->conv;
  conv.rows = d.tout;
  conv.batches = d.b;
  conv.taps = d.k;
  conv.c = d.ci;
  conv.n = d.co;
  conv.data_begin = d.pad;
  conv.data_end = d.pad + d.t;
  conv.bias = true;
  conv.precision = precision_of(x.dtype, weight->dtype);
  fold_toeplitz(&conv, d.t + 2 * d.pad);
  std::vector<int64_t> row_counts;
  split_toeplitz(&conv, &row_counts);
  const std::vector<double> costs = item_costs(conv, row_counts);
  const int slots = plan_slots(costs);
  OA_TRY(plan_toeplitz_gemms("aclnnConvTbc", &conv, row_counts, slots));
  p->slots = slots;

  p->x_offset = layout.add(conv.buffer_rows() * d.ci * kFloat);
  p->w_offset = layout.add(d.k * d.ci * d.co * kFloat);
  p->slot_layout = slot_layout_of(conv, nullptr);
  p->slots_offset = layout.add(p->slot_layout.bytes * slots);
  p->pack.add(kPackX, conv.buffer_rows(), d.ci);
  p->pack.add(kPackW, d.k * d.ci, d.co);
  if (conv.precision != Precision::f32) {
    p->f32_pack.add(kPackX, conv.buffer_rows(), d.ci);
    p->f32_pack.add(kPackW, d.k * d.ci, d.co);
  }
  *workspace_bytes = static_cast<uint64_t>(layout.total());
  return ACLNN_SUCCESS;
}

aclnnStatus plan_backward(const Call& call, BackwardPlan* p, uint64_t* workspace_bytes) {
  const aclTensor* self = call.tensor("self");
  const aclTensor* weight = call.tensor("weight");
  const aclTensor* grad_input = call.tensor("gradInput");
  const aclTensor* grad_weight = call.tensor("gradWeight");
  const aclTensor* grad_bias = call.tensor("gradBias");
  const int64_t pad = call.integer("pad");
  const int64_t cube_math_type = call.integer("cubeMathType");
  const aclTensor& x = *call.tensor("input");
  TbcDims& d = p->d;
  d = {x.shape[0], x.shape[1], x.shape[2], weight->shape[2], weight->shape[0], pad, self->shape[0]};
  p->isa = selected_isa();
  p->g = view_of(*self);
  p->x = view_of(x);
  p->w = view_of(*weight);
  p->grad_input = view_of(*grad_input);
  p->grad_weight = view_of(*grad_weight);
  p->grad_bias = view_of(*grad_bias);
  p->g_rounding = cube_rounding(self->dtype, cube_math_type);
  p->x_rounding = cube_rounding(x.dtype, cube_math_type);
  p->w_rounding = cube_rounding(weight->dtype, cube_math_type);

  Layout layout;
  const int64_t self_rows = d.tout * d.b;
  p->bias_rows = rows_per_piece(d.co);
  p->bias_sums_offset = layout.add((self_rows + p->bias_rows - 1) / p->bias_rows * d.co * 8);
  p->bias_out_offset = layout.add(d.co * kFloat);
  p->pack.add(kSumBias, self_rows, d.co);
  p->finish.add(kStoreGradBias, 1, d.co);
  p->zeros_only = d.t == 0 || d.ci == 0;
  if (p->zeros_only) {
    p->finish.add(kZeroGradInput, d.ci == 0 ? 0 : d.t * d.b, d.ci);
    p->finish.add(kZeroGradWeight, d.k * d.ci, d.co);
    *workspace_bytes = static_cast<uint64_t>(layout.total());
    return ACLNN_SUCCESS;
  }

  // gradInput[s] = sum over j of gpad[s + j] . w[k - 1 - j]^T, gpad row u = self row u + pad - k
  // + 1.
  Toeplitz& ig = p->input_grad;
  ig.rows = d.t;
  ig.batches = d.b;
  ig.taps = d.k;
  ig.c = d.co;
  ig.n = d.ci;
  ig.data_begin = std::max<int64_t>(0, d.k - 1 - d.pad);
  ig.data_end = std::min(d.t + d.k - 1, d.k - 1 - d.pad + d.tout);
  ig.precision = precision_of(self->dtype, weight->dtype);
  fold_toeplitz(&ig, d.t + d.k - 1);
  WeightGrad& wg = p->weight_grad;
  wg.taps = d.k;
  wg.batches = d.b;
  wg.ci = d.ci;
  wg.co = d.co;
  wg.pad = d.pad;
  wg.t_in = d.t;
  wg.tout = d.tout;
  wg.lead = std::min(d.pad, d.tout);
  wg.trail_begin = std::max(wg.lead, d.tout - d.pad);
  wg.precision = precision_of(x.dtype, self->dtype);
  // gradWeight reads input and self in place when they are dense rows of its precision (and not
  // rounded), and writes itself when it is dense FLOAT matrices.
  const bool bf16_weight = wg.precision == Precision::bf16;
  const aclDataType operand_dtype = bf16_weight ? ACL_BF16 : ACL_FLOAT;
  p->x_in_place = p->x_rounding == CubeRounding::none && dense(x, operand_dtype, true);
  p->g_in_place = p->g_rounding == CubeRounding::none && dense(*self, operand_dtype, true);
  p->direct_weight = dense(*grad_weight, ACL_FLOAT, false);
  wg.gw_k = p->direct_weight ? p->grad_weight.stride[0] : d.ci * d.co;

  std::vector<int64_t> row_counts;
  split_toeplitz(&ig, &row_counts);
  const std::vector<double> costs = item_costs(ig, row_counts, &wg);
  const int slots = plan_slots(costs);
  OA_TRY(plan_toeplitz_gemms("aclnnConvTbcBackward", &ig, row_counts, slots));
  OA_TRY(plan_weight_grad_gemms("aclnnConvTbcBackward", &wg, slots));
  p->slots = slots;

  const int64_t lead_rows = wg.lead > 0 ? (wg.lead + d.k - 1) * d.b : 0;
  const int64_t trail_rows =
      d.tout > wg.trail_begin ? (d.tout - wg.trail_begin + d.k - 1) * d.b : 0;
  p->g_pad_offset = layout.add(ig.buffer_rows() * d.co * kFloat);
  p->w_flip_offset = layout.add(d.k * d.co * d.ci * kFloat);
  // The float32 fallback of bfloat16 products packs input and self rows even when read in place.
  const bool fallback = ig.precision != Precision::f32 || bf16_weight;
  p->x_rows_offset = layout.add(p->x_in_place && !fallback ? 0 : d.t * d.b * d.ci * kFloat);
  p->g_rows_offset = layout.add(p->g_in_place && !fallback ? 0 : self_rows * d.co * kFloat);
  p->lead_offset = layout.add(lead_rows * d.ci * kFloat);
  p->trail_offset = layout.add(trail_rows * d.ci * kFloat);
  p->grad_weight_offset = layout.add(p->direct_weight ? 0 : d.k * d.ci * d.co * kFloat);
  p->slot_layout = slot_layout_of(ig, &wg);
  p->slots_offset = layout.add(p->slot_layout.bytes * slots);

  p->pack.add(kPackSelf, ig.buffer_rows(), d.co);
  p->pack.add(kPackFlippedWeight, d.k * d.co, d.ci);
  if (!p->x_in_place) {
    p->pack.add(kPackInputRows, d.t * d.b, d.ci);
  } else if (bf16_weight) {
    p->pack.add(kScanInputRows, d.t * d.b, d.ci);
  }
  p->pack.add(p->g_in_place ? kScanSelfRows : kPackSelfRows, self_rows, d.co);
  p->pack.add(kPackLead, lead_rows, d.ci);
  p->pack.add(kPackTrail, trail_rows, d.ci);
  if (fallback) {
    p->f32_pack.add(kPackSelf, ig.buffer_rows(), d.co);
    p->f32_pack.add(kPackFlippedWeight, d.k * d.co, d.ci);
    p->f32_pack.add(kPackInputRows, d.t * d.b, d.ci);
    p->f32_pack.add(kPackSelfRows, self_rows, d.co);
    p->f32_pack.add(kPackLead, lead_rows, d.ci);
    p->f32_pack.add(kPackTrail, trail_rows, d.ci);
  }
  if (!p->direct_weight) {
    p->finish.add(kStoreGradWeight, d.k * d.ci, d.co);
  }
  *workspace_bytes = static_cast<uint64_t>(layout.total());
  return ACLNN_SUCCESS;
}

// A planned kernel run in phase 2.
template <typename KernelPlan, aclnnStatus (*kRun)(const KernelPlan&, void*)>
class Run final : public Plan {
 public:
  explicit Run(std::unique_ptr<KernelPlan> plan) : plan_(std::move(plan)) {}
  aclnnStatus run(void* workspace) const override { return kRun(*plan_, workspace); }

 private:
  std::unique_ptr<KernelPlan> plan_;
};

// The implementation "onednn" of a ConvTbc operator: phase 1 kPlan, phase 2 kRun.
template <typename KernelPlan, aclnnStatus (*kPlan)(const Call&, KernelPlan*, uint64_t*),
          aclnnStatus (*kRun)(const KernelPlan&, void*)>
Impl onednn() {
  Impl impl;
  impl.name = "onednn";
  impl.reference_bits = false;
  impl.plan = [](const Call& call, Planned* planned) {
    auto plan = std::make_unique<KernelPlan>();
    OA_TRY(kPlan(call, plan.get(), &planned->workspace_bytes));
    planned->plan = std::make_unique<Run<KernelPlan, kRun>>(std::move(plan));
    return ACLNN_SUCCESS;
  };
  return impl;
}

}  // namespace

Impl tbc_forward_onednn() { return onednn<ForwardPlan, plan_forward, run_forward>(); }

Impl tbc_backward_onednn() { return onednn<BackwardPlan, plan_backward, run_backward>(); }

}  // namespace oa::conv
