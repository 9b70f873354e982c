// aclnnAdaptiveMaxPool2dBackward (SPEC section 7): scatters gradOutput into gradInput at the
// forward's argmax indices, accumulating in float32 in row-major output order. Every index is
// checked before anything is written, so an out-of-range index leaves gradInput untouched.
#include "aclnnop/aclnn_adaptive_max_pool2d_backward.h"

#include <algorithm>
#include <array>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/checks.h"
#include "core/executor.h"
#include "core/fill_simd.h"
#include "core/parallel.h"
#include "kernels/adaptive_max_pool2d/backward.h"
#include "kernels/adaptive_max_pool2d/index_check.h"
#include "ops/adaptive_max_pool2d/pool_plan.h"
#include "ops/dtype_sets.h"
#include "runtime/error.h"

namespace oa {
namespace {

constexpr const char* kOp = "aclnnAdaptiveMaxPool2dBackward";

// The largest float32 scratch per chunk for which the channels_last loop nest is used; beyond it
// the plane loop nest needs less.
constexpr int64_t kMaxLaneSlotBytes = int64_t{4} << 20;

// Elements touched per chunk at least: about 10 microseconds of work.
constexpr int64_t kChunkWork = int64_t{1} << 18;

// A plane with at least this many positions per output has few outputs: gradInput is zeroed and
// only the named positions are summed (in gradInput itself for float32, Accumulate::sparse
// otherwise), which costs less than rounding every position from a float32 copy. With more outputs
// the sums are formed in a float32 copy of the plane (Accumulate::dense), where the additions stay
// in the L1 cache.
constexpr int64_t kSparseRatio = 8;

// The same for a gradInput of contiguous planes written with streaming stores (it does not stay
// in cache: core/fill_simd.h), whose float32 sums fit in an L2 cache
// (kMaxStreamedPlaneSums): with dense sums each plane is written once, with streaming stores,
// where zeroing it and adding at the maxima reads back every line an output touches. In-process A/B
// on 64-256 MiB gradInputs against the sparse path, float32 / bfloat16: 64 positions an
// output 1.16-1.3x / 0.88-1.24x (planes of 112x112 to 512x512), 16 an output 1.5-2.3x / 1.3-1.4x
// (64x64 to 256x256); 334 an output (128x128 to 7x7) 0.7x / 0.7x. Planes of 1000x1001 and 2048x2048
// (4 and 16 MiB of sums) were 0.58-0.99x even at 64-70 an output. Channels-last samples that are
// dense blocks are treated as planes whose sums interleave the channels (float32 32x64x56x56 to
// 7x7, 802 KB of sums a sample: 1.67-1.76x; to 28x28 1.18x, bfloat16 1.24x).
constexpr int64_t kStreamedSparseRatio = 128;
constexpr int64_t kStreamedSparseRatio16 = 32;  // float16 and bfloat16
constexpr int64_t kMaxStreamedPlaneSums = int64_t{1} << 20;

// Channels-last samples that are dense blocks, with windows that tile them, are written a row of
// windows at a time when every index lies in its own window (amp::BackwardPlan::tiled): the band of
// kh rows is zeroed and takes each output by a store, all in L1 or L2, where the sparse sums store
// channel by channel all over the sample. In-process A/B against the sums, bfloat16: 32x64x56x56 to
// 7x7 1.6-2.1x, to 14x14 2.7-4.2x, 8x64x64x64 to 16x16 2.3-3.1x, 64x64x56x56 to 7x7 (streamed)
// 2.8-3x; float32 under 17 MiB 0.9-1.2x (noise). Float32 launches that stream keep their streamed
// sums: bands built in the workspace and streamed out ran 0.6-0.7x those. A band is built in the
// workspace only while it stays in an L2 cache:
constexpr int64_t kMaxStreamedBandBytes = int64_t{256} << 10;

// Indices up to this size are checked on the calling thread: reading them takes about as long
// as waking the other threads (an OpenMP region costs about 4 microseconds on a 2-core VM).
constexpr int64_t kParallelCheckBytes = int64_t{64} << 10;

class BackwardRun final : public Plan {
 public:
  BackwardRun(amp::BackwardPlan plan, std::vector<int32_t> window_first, aclDataType dtype,
              aclDataType index_dtype, int rank, amp::KernelIsa isa)
      : plan_(std::move(plan)),
        window_first_(std::move(window_first)),
        index_dtype_(index_dtype),
        rank_(rank),
        kernel_(plan_.tiled && plan_.layout == amp::Layout::planes
                    ? amp::tiled_backward_kernel(dtype, isa)
                    : amp::backward_kernel(dtype, index_dtype, plan_.layout, isa)),
        check_(amp::index_check(index_dtype, plan_.layout, isa)),
        parallel_check_(plan_.dims.n * plan_.dims.c * plan_.dims.ho * plan_.dims.wo *
                            (index_dtype == ACL_INT64 ? 8 : 4) >=
                        kParallelCheckBytes) {
    plan_.window_first = window_first_.data();
  }

  aclnnStatus run(void* workspace) const override {
    const int64_t chunks = plan_.split.chunks;
    std::array<bool, amp::kMaxChunks> in_range{};
    parallel_for(
        chunks, [&](int64_t chunk) { in_range[chunk] = check_(plan_, chunk, workspace); },
        parallel_check_);
    for (int64_t chunk = 0; chunk < chunks; ++chunk) {
      if (!in_range[chunk]) {
        return report_bad_index();
      }
    }
    parallel_for(chunks, [&](int64_t chunk) { kernel_(plan_, chunk, workspace); });
    return ACLNN_SUCCESS;
  }

 private:
  aclnnStatus report_bad_index() const {
    const amp::BadIndex bad = amp::find_bad_index(plan_, index_dtype_);
    const amp::Dims& d = plan_.dims;
    const std::string position =
        rank_ == 4 ? format("[%lld, %lld, %lld, %lld]", static_cast<long long>(bad.n),
                            static_cast<long long>(bad.c), static_cast<long long>(bad.i),
                            static_cast<long long>(bad.j))
                   : format("[%lld, %lld, %lld]", static_cast<long long>(bad.c),
                            static_cast<long long>(bad.i), static_cast<long long>(bad.j));
    return failf(ACLNN_ERR_RUNTIME_ERROR,
                 "%s: indices%s = %lld is out of range: an index must lie in [0, H*W) = [0, %lld) "
                 "for self's plane %lldx%lld; gradInput was not written",
                 kOp, position.c_str(), static_cast<long long>(bad.value),
                 static_cast<long long>(d.h * d.w), static_cast<long long>(d.h),
                 static_cast<long long>(d.w));
  }

  amp::BackwardPlan plan_;
  std::vector<int32_t> window_first_;  // BackwardPlan::window_first of a tiled plan
  aclDataType index_dtype_;
  int rank_;
  amp::BackwardKernel kernel_;
  amp::IndexCheck check_;
  bool parallel_check_;  // whether the indices are worth checking on all threads
};

aclnnStatus check_leading_dims(const aclTensor& grad_output, const aclTensor& self) {
  const Shape& g = grad_output.shape;
  const Shape& s = self.shape;
  const Shape g_lead(g.begin(), g.end() - 2);
  const Shape s_lead(s.begin(), s.end() - 2);
  if (g_lead != s_lead) {
    return failf(ACLNN_ERR_PARAM_INVALID,
                 "%s: gradOutput leading dims %s must equal self's leading dims %s (%s), got "
                 "gradOutput shape %s and self shape %s",
                 kOp, shape_string(g_lead).c_str(), shape_string(s_lead).c_str(),
                 s.size() == 4 ? "N, C" : "C", shape_string(g).c_str(), shape_string(s).c_str());
  }
  return ACLNN_SUCCESS;
}

// The positions of gradInput's plane at one uniform stride: p = h * W + w lies at p * stride.
bool uniform_positions(const amp::View& v, const amp::Dims& d, int64_t* stride) {
  *stride = d.w > 1 ? v.sw : (d.h > 1 ? v.sh : 1);
  return (d.w == 1 || v.sw == *stride) && (d.h == 1 || v.sh == d.w * *stride);
}

// For a tiled plan (amp::BackwardPlan::tiled), sets what the windows are and where the check
// writes into the workspace, and returns the first position of each output's window; empty for a
// plan that is not tiled.
std::vector<int32_t> window_starts(amp::BackwardPlan& plan) {
  if (!plan.tiled) {
    return {};
  }
  const amp::Dims& d = plan.dims;
  const int64_t kh = d.h / d.ho;
  const int64_t kw = d.w / d.wo;
  plan.window_rows_span = kh * d.w;
  plan.kw = static_cast<int32_t>(kw);
  plan.inverse_width = 1.0f / static_cast<float>(d.w);
  const int64_t outputs = d.ho * d.wo;
  plan.window_period = (amp::kMinWindowPeriod + outputs - 1) / outputs * outputs;
  std::vector<int32_t> first(plan.window_period);
  for (int64_t i = 0; i < d.ho; ++i) {
    for (int64_t j = 0; j < d.wo; ++j) {
      first[i * d.wo + j] = static_cast<int32_t>(i * kh * d.w + j * kw);
    }
  }
  for (int64_t k = outputs; k < plan.window_period; k += outputs) {
    std::copy_n(first.begin(), outputs, first.begin() + k);
  }
  const int64_t slots = plan.split.chunks * plan.split.slot_bytes;
  plan.own_offset = slots;
  if (plan.layout == amp::Layout::planes) {
    plan.narrowed_offset = slots;
    plan.own_offset = slots + amp::align64(d.n * d.c * d.ho * d.wo * int64_t{2});
  }
  return first;
}

// The bytes of workspace a plan needs.
int64_t workspace_bytes(const amp::BackwardPlan& plan) {
  return plan.tiled ? plan.own_offset + plan.split.chunks
                    : plan.split.chunks * plan.split.slot_bytes;
}

// The bytes a launch reads and writes: gradInput written, gradOutput and indices read.
int64_t touched_bytes(const aclTensor& grad_output, const aclTensor& indices,
                      const aclTensor& grad_input) {
  return (numel(grad_input) * dtype_bits(grad_input.dtype) +
          numel(grad_output) * (dtype_bits(grad_output.dtype) + dtype_bits(indices.dtype))) /
         8;
}

// The plan of a launch that writes gradInput with streaming stores when stream_output, for
// kernels of instruction set isa.
amp::BackwardPlan make_plan(const aclTensor& grad_output, const aclTensor& self,
                            const aclTensor& indices, const aclTensor& grad_input,
                            bool stream_output, amp::KernelIsa isa) {
  const Shape& g = grad_output.shape;
  amp::BackwardPlan plan;
  amp::Dims& d = plan.dims;
  d = amp::dims_of(self, g[g.size() - 2], g[g.size() - 1]);
  plan.grad_output = amp::view_of(grad_output);
  plan.indices = amp::view_of(indices);
  plan.grad_input = amp::view_of(grad_input);
  plan.uniform = uniform_positions(plan.grad_input, d, &plan.position_stride);
  const int64_t positions = d.h * d.w;
  plan.dense_planes = amp::dense_block(plan.grad_input, d.n, d.c, d.h, d.w);
  plan.stream_output = stream_output;
  const bool channels_last = amp::channels_innermost(plan.grad_input, d);
  // A channels-last sample that is one dense block is streamed whole from its sums, all channels
  // interleaved, as a plane is.
  const bool dense_samples = channels_last && plan.uniform && plan.position_stride == d.c;
  const int64_t streamed_sums =
      positions * (dense_samples ? d.c : 1) * static_cast<int64_t>(sizeof(float));
  const bool streamed = (plan.dense_planes || dense_samples) && plan.stream_output &&
                        streamed_sums <= kMaxStreamedPlaneSums;
  int64_t sparse_ratio = kSparseRatio;
  if (streamed) {
    sparse_ratio = grad_input.dtype == ACL_FLOAT ? kStreamedSparseRatio : kStreamedSparseRatio16;
  }
  const bool few_outputs = d.ho * d.wo * sparse_ratio <= positions;
  if (few_outputs) {
    const bool in_place = grad_input.dtype == ACL_FLOAT && plan.uniform;
    plan.accumulate = in_place ? amp::Accumulate::in_place : amp::Accumulate::sparse;
  } else {
    plan.accumulate = amp::Accumulate::dense;
  }
  const int64_t unit_work = positions + d.ho * d.wo;
  if (channels_last) {
    plan.layout = amp::Layout::channels_last;
    // All channels when a sample's gradInput is one dense block (zeroed by one fill, every
    // cache line written by one unit), else a cache line of float32 sums or of 16-bit outputs.
    plan.lanes = d.c;
    if (!plan.uniform || plan.position_stride != d.c ||
        amp::backward_slot_bytes(plan) > kMaxLaneSlotBytes) {
      plan.lanes = std::min<int64_t>(d.c, grad_input.dtype == ACL_FLOAT ? 16 : 32);
    }
    if (amp::backward_slot_bytes(plan) > kMaxLaneSlotBytes) {
      plan.layout = amp::Layout::planes;
      plan.lanes = 1;
    }
  }
  plan.stream_planes = streamed && plan.accumulate == amp::Accumulate::dense &&
                       (plan.layout == amp::Layout::planes ||
                        (plan.layout == amp::Layout::channels_last && plan.lanes == d.c));
  const int64_t planes = numel(self) == 0 ? 0 : d.n * d.c;
  const bool windows_tile = planes > 0 && d.ho > 0 && d.wo > 0 && d.h % d.ho == 0 &&
                            d.w % d.wo == 0 && positions <= amp::kMaxTiledPositions;
  const bool pair_windows = plan.layout == amp::Layout::planes && d.h == 2 * d.ho &&
                            d.w == 2 * d.wo && isa != amp::KernelIsa::baseline &&
                            (d.wo == 1 || plan.grad_output.sw == 1);
  if (plan.layout == amp::Layout::planes) {
    plan.tiled = windows_tile && plan.accumulate != amp::Accumulate::in_place &&
                 (!plan.stream_planes || pair_windows) && plan.uniform && plan.position_stride == 1;
  } else if (windows_tile && dense_samples && plan.lanes == d.c) {
    const int64_t band_bytes = d.h / d.ho * d.w * d.c * dtype_bits(grad_input.dtype) / 8;
    if (!plan.stream_output) {
      plan.tiled = true;
    } else if (grad_input.dtype != ACL_FLOAT && band_bytes <= kMaxStreamedBandBytes) {
      plan.tiled = true;
      plan.band_bytes = band_bytes;
    }
  }
  plan.pairs = plan.tiled && pair_windows;
  if (plan.layout == amp::Layout::channels_last) {
    const int64_t blocks = (d.c + plan.lanes - 1) / plan.lanes;
    plan.split = amp::split_work(d.n * blocks, unit_work * plan.lanes,
                                 amp::backward_slot_bytes(plan), kChunkWork);
  } else {
    plan.split = amp::split_work(planes, unit_work, amp::backward_slot_bytes(plan), kChunkWork);
  }
  return plan;
}

}  // namespace
}  // namespace oa

extern "C" aclnnStatus aclnnAdaptiveMaxPool2dBackwardGetWorkspaceSize(
    const aclTensor* gradOutput, const aclTensor* self, const aclTensor* indices,
    aclTensor* gradInput, uint64_t* workspaceSize, aclOpExecutor** executor) {
  using namespace oa;
  OA_TRY(check_not_null(kOp, {{gradOutput, "gradOutput"},
                              {self, "self"},
                              {indices, "indices"},
                              {gradInput, "gradInput"},
                              {workspaceSize, "workspaceSize"},
                              {executor, "executor"}}));
  const Named grad{gradOutput, "gradOutput"};
  const Named x{self, "self"};
  const Named index{indices, "indices"};
  const Named out{gradInput, "gradInput"};
  OA_TRY(check_same_dtype(kOp, grad, x));
  OA_TRY(check_same_dtype(kOp, out, x));
  OA_TRY(check_dtype(kOp, x, kFloatDtypes));
  OA_TRY(check_dtype(kOp, index, ops::kIndexDtypes));
  OA_TRY(check_same_public_format(kOp, {grad, x, index, out}));
  OA_TRY(check_rank(kOp, grad, 3, 4));
  OA_TRY(check_same_rank(kOp, {grad, x, index, out}));
  OA_TRY(check_same_shape(kOp, index, grad));
  OA_TRY(check_same_shape(kOp, out, x));
  OA_TRY(check_leading_dims(*gradOutput, *self));
  OA_TRY(amp::check_plane_fits_int32(kOp, x, "an index must be able to name every position"));
  OA_TRY(check_in_device_memory(kOp, {grad, x, index, out}));
  // self's data is never read, so gradInput may share its memory.
  OA_TRY(check_output(kOp, out, {grad, index}, false));

  const bool stream = simd::streams_output(touched_bytes(*gradOutput, *indices, *gradInput));
  const amp::KernelIsa isa = amp::kernel_isa();
  amp::BackwardPlan plan = make_plan(*gradOutput, *self, *indices, *gradInput, stream, isa);
  std::vector<int32_t> window_first = window_starts(plan);
  const int64_t workspace = workspace_bytes(plan);
  auto run =
      std::make_unique<BackwardRun>(std::move(plan), std::move(window_first), self->dtype,
                                    indices->dtype, static_cast<int>(self->shape.size()), isa);
  return make_executor(kOp, std::move(run), static_cast<uint64_t>(workspace), workspaceSize,
                       executor);
}

extern "C" aclnnStatus aclnnAdaptiveMaxPool2dBackward(void* workspace, uint64_t workspaceSize,
                                                      aclOpExecutor* executor, aclrtStream stream) {
  return oa::launch(oa::kOp, workspace, workspaceSize, executor, stream);
}
