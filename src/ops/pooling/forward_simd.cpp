// The fast implementation of aclnnAdaptiveMaxPool2d: the float32 kernels of forward_kernels.h, the
// loop nest chosen by self's layout, on all threads. The same bits as the reference: the maximum
// and its index follow the scan rule exactly, and the maximum is stored back unchanged.
#include <memory>
#include <utility>
#include <vector>

#include "base/parallel.h"
#include "core/values.h"
#include "ops/pooling/forward_kernels.h"
#include "ops/pooling/impls.h"
#include "ops/pooling/pool_plan.h"

namespace oa::pooling {
namespace {

// Elements scanned per chunk at least: about 10 microseconds of work.
constexpr int64_t kChunkWork = int64_t{1} << 15;

class ForwardRun final : public Plan {
 public:
  ForwardRun(ForwardPlan plan, ForwardKernel kernel) : plan_(std::move(plan)), kernel_(kernel) {}

  aclnnStatus run(void* workspace) const override {
    parallel_for(plan_.split.chunks, [&](int64_t chunk) { kernel_(plan_, chunk, workspace); });
    return ACLNN_SUCCESS;
  }

 private:
  ForwardPlan plan_;
  ForwardKernel kernel_;
};

// The windows of `out` outputs over `in` positions.
void windows(int64_t in, int64_t out, std::vector<int64_t>* begin, std::vector<int64_t>* end) {
  begin->resize(out);
  end->resize(out);
  for (int64_t k = 0; k < out; ++k) {
    (*begin)[k] = window_begin(k, in, out);
    (*end)[k] = window_end(k, in, out);
  }
}

ForwardPlan make_plan(const aclTensor& self, int64_t ho, int64_t wo, const aclTensor& out,
                      const aclTensor& indices) {
  ForwardPlan plan;
  Dims& d = plan.dims;
  d = dims_of(self, ho, wo);
  plan.self = view_of(self);
  plan.out = view_of(out);
  plan.indices = view_of(indices);
  windows(d.h, d.ho, &plan.row_begin, &plan.row_end);
  windows(d.w, d.wo, &plan.col_begin, &plan.col_end);
  const int64_t planes = numel(self) == 0 ? 0 : d.n * d.c;
  if (channels_innermost(plan.self, d)) {
    plan.layout = Layout::channels_last;
    const int64_t window_rows = (d.h + d.ho - 1) / d.ho + 1;
    plan.split = split_work(planes == 0 ? 0 : d.n * d.ho, (window_rows * d.w + d.wo) * d.c,
                            forward_slot_bytes(plan.layout, d), kChunkWork);
  } else {
    plan.split =
        split_work(planes, d.h * d.w + d.ho * d.w, forward_slot_bytes(plan.layout, d), kChunkWork);
  }
  return plan;
}

}  // namespace

Impl forward_simd() {
  Impl impl;
  impl.name = "simd";
  impl.applies = [](const Call& call, std::string* why_not) {
    if (call.tensor("self")->dtype == ACL_DOUBLE) {
      *why_not = "its kernels compute in float32; DOUBLE takes the float64 scan";
      return false;
    }
    return true;
  };
  impl.plan = [](const Call& call, Planned* planned) {
    const aclTensor& self = *call.tensor("self");
    const aclTensor& out = *call.tensor("outputOut");
    const aclTensor& indices = *call.tensor("indicesOut");
    const auto* output_size = static_cast<const aclIntArray*>(call.handle("outputSize"));
    ForwardPlan plan =
        make_plan(self, output_size->values[0], output_size->values[1], out, indices);
    const ForwardKernel kernel = forward_kernel(self.dtype, indices.dtype, plan.layout);
    planned->workspace_bytes = static_cast<uint64_t>(plan.split.chunks * plan.split.slot_bytes);
    planned->plan = std::make_unique<ForwardRun>(std::move(plan), kernel);
    return ACLNN_SUCCESS;
  };
  return impl;
}

}  // namespace oa::pooling
