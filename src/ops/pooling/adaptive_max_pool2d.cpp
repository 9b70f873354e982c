// aclnnAdaptiveMaxPool2d (SPEC section 11): adaptive 2-D max pooling with the argmax indices the
// backward operator consumes. DOUBLE runs the float64 scan of forward_reference.h; the other dtypes
// the float32 kernels.
#include "aclnnop/aclnn_adaptive_max_pool2d.h"

#include <memory>
#include <utility>

#include "core/checks.h"
#include "core/executor.h"
#include "core/parallel.h"
#include "core/values.h"
#include "kernels/adaptive_max_pool2d/forward.h"
#include "kernels/adaptive_max_pool2d/forward_reference.h"
#include "ops/adaptive_max_pool2d/pool_plan.h"
#include "ops/dtype_sets.h"
#include "runtime/error.h"

namespace oa {
namespace {

constexpr const char* kOp = "aclnnAdaptiveMaxPool2d";

// Elements scanned per chunk at least: about 10 microseconds of work.
constexpr int64_t kChunkWork = int64_t{1} << 15;

class ForwardRun final : public Plan {
 public:
  ForwardRun(amp::ForwardPlan plan, amp::ForwardKernel kernel)
      : plan_(std::move(plan)), kernel_(kernel) {}

  aclnnStatus run(void* workspace) const override {
    parallel_for(plan_.split.chunks, [&](int64_t chunk) { kernel_(plan_, chunk, workspace); });
    return ACLNN_SUCCESS;
  }

 private:
  amp::ForwardPlan plan_;
  amp::ForwardKernel kernel_;
};

aclnnStatus check_output_size(const aclIntArray& output_size) {
  const std::vector<int64_t>& v = output_size.values;
  if (v.size() != 2) {
    return failf(ACLNN_ERR_PARAM_INVALID, "%s: outputSize must have 2 values (Ho, Wo), got %zu %s",
                 kOp, v.size(), shape_string(v).c_str());
  }
  if (v[0] < 1 || v[1] < 1) {
    return failf(ACLNN_ERR_PARAM_INVALID, "%s: outputSize values must be >= 1, got %s", kOp,
                 shape_string(v).c_str());
  }
  return ACLNN_SUCCESS;
}

aclnnStatus check_plane_not_empty(const aclTensor& self) {
  const Shape& s = self.shape;
  if (s[s.size() - 2] < 1 || s[s.size() - 1] < 1) {
    return failf(ACLNN_ERR_PARAM_INVALID,
                 "%s: self H and W (its last two dims) must be >= 1, got shape %s", kOp,
                 shape_string(s).c_str());
  }
  return ACLNN_SUCCESS;
}

// Window k of `out` windows over `in` positions: [floor(k * in / out), ceil((k + 1) * in / out)).
void windows(int64_t in, int64_t out, std::vector<int64_t>* begin, std::vector<int64_t>* end) {
  begin->resize(out);
  end->resize(out);
  for (int64_t k = 0; k < out; ++k) {
    (*begin)[k] = static_cast<int64_t>(static_cast<__int128>(k) * in / out);
    (*end)[k] = static_cast<int64_t>((static_cast<__int128>(k + 1) * in + out - 1) / out);
  }
}

amp::ForwardPlan make_plan(const aclTensor& self, int64_t ho, int64_t wo, const aclTensor& out,
                           const aclTensor& indices) {
  amp::ForwardPlan plan;
  amp::Dims& d = plan.dims;
  d = amp::dims_of(self, ho, wo);
  plan.self = amp::view_of(self);
  plan.out = amp::view_of(out);
  plan.indices = amp::view_of(indices);
  windows(d.h, d.ho, &plan.row_begin, &plan.row_end);
  windows(d.w, d.wo, &plan.col_begin, &plan.col_end);
  const int64_t planes = numel(self) == 0 ? 0 : d.n * d.c;
  if (self.dtype != ACL_DOUBLE && amp::channels_innermost(plan.self, d)) {
    plan.layout = amp::Layout::channels_last;
    const int64_t window_rows = (d.h + d.ho - 1) / d.ho + 1;
    plan.split = amp::split_work(planes == 0 ? 0 : d.n * d.ho, (window_rows * d.w + d.wo) * d.c,
                                 amp::forward_slot_bytes(plan.layout, d), kChunkWork);
  } else {
    plan.split = amp::split_work(planes, d.h * d.w + d.ho * d.w,
                                 amp::forward_slot_bytes(plan.layout, d), kChunkWork);
  }
  return plan;
}

}  // namespace
}  // namespace oa

extern "C" aclnnStatus aclnnAdaptiveMaxPool2dGetWorkspaceSize(
    const aclTensor* self, const aclIntArray* outputSize, const aclTensor* outputOut,
    const aclTensor* indicesOut, uint64_t* workspaceSize, aclOpExecutor** executor) {
  using namespace oa;
  OA_TRY(check_not_null(kOp, {{self, "self"},
                              {outputSize, "outputSize"},
                              {outputOut, "outputOut"},
                              {indicesOut, "indicesOut"},
                              {workspaceSize, "workspaceSize"},
                              {executor, "executor"}}));
  const Named x{self, "self"};
  const Named out{outputOut, "outputOut"};
  const Named indices{indicesOut, "indicesOut"};
  OA_TRY(check_dtype(kOp, x, ops::kPoolForwardDtypes));
  OA_TRY(check_same_dtype(kOp, out, x));
  OA_TRY(check_dtype(kOp, indices, {ACL_INT64}));
  for (const Named& t : {x, out, indices}) {
    OA_TRY(check_format(kOp, t, {ACL_FORMAT_ND, ACL_FORMAT_NCHW}));
  }
  OA_TRY(check_rank(kOp, x, 3, 4));
  OA_TRY(check_same_rank(kOp, {x, out, indices}));
  OA_TRY(check_output_size(*outputSize));
  OA_TRY(check_plane_not_empty(*self));
  const int64_t ho = outputSize->values[0];
  const int64_t wo = outputSize->values[1];
  Shape expected = self->shape;
  expected[expected.size() - 2] = ho;
  expected[expected.size() - 1] = wo;
  OA_TRY(check_shape(kOp, out, expected, "self's leading dims followed by outputSize"));
  OA_TRY(check_shape(kOp, indices, expected, "self's leading dims followed by outputSize"));
  OA_TRY(check_in_device_memory(kOp, {x, out, indices}));
  OA_TRY(check_output(kOp, out, {x, indices}, false));
  OA_TRY(check_output(kOp, indices, {x}, false));

  amp::ForwardPlan plan = make_plan(*self, ho, wo, *outputOut, *indicesOut);
  const amp::ForwardKernel kernel =
      self->dtype == ACL_DOUBLE
          ? amp::forward_reference(ACL_DOUBLE)
          : amp::forward_kernel(self->dtype, ACL_INT64, plan.layout, amp::kernel_isa());
  const uint64_t workspace = static_cast<uint64_t>(plan.split.chunks * plan.split.slot_bytes);
  return make_executor(kOp, std::make_unique<ForwardRun>(std::move(plan), kernel), workspace,
                       workspaceSize, executor);
}

extern "C" aclnnStatus aclnnAdaptiveMaxPool2d(void* workspace, uint64_t workspaceSize,
                                              aclOpExecutor* executor, aclrtStream stream) {
  return oa::launch(oa::kOp, workspace, workspaceSize, executor, stream);
}
