// The fast implementation of aclnnAdaptiveMaxPool2dBackward: phase 1 picks the loop nest, where
// the float32 sums are formed and which stores write gradInput (backward_kernels.h), by the problem
// and the cache size alone; phase 2 checks every index (index_check.h) before anything is written,
// then runs the kernels on all threads. The same bits as the reference: every path adds in float32
// in row-major output order and rounds once.
#include <algorithm>
#include <array>
#include <memory>
#include <utility>
#include <vector>

#include "base/fill_simd.h"
#include "base/parallel.h"
#include "ops/pooling/backward_kernels.h"
#include "ops/pooling/bad_index.h"
#include "ops/pooling/impls.h"
#include "ops/pooling/index_check.h"
#include "ops/pooling/pair_windows_simd.h"
#include "ops/pooling/pool_plan.h"

namespace oa::pooling {
namespace {

// The largest float32 scratch per chunk for which the channels_last loop nest is used; beyond it
// the plane loop nest needs less.
constexpr int64_t kMaxLaneSlotBytes = int64_t{4} << 20;

// Elements touched per chunk at least, as in the forward. With 2^18, a launch as small as
// 64x32x32 to 5x5 (67k elements) ran on one thread; with both it ran 1.2-1.4x faster (AVX2 VM,
// float32 and bfloat16), and the larger cases, which already had many chunks, did not change
// beyond the run-to-run spread.
constexpr int64_t kChunkWork = int64_t{1} << 15;

// A plane with at least this many positions per output has few outputs: gradInput is zeroed and
// only the named positions are summed (in gradInput itself for float32, Accumulate::sparse
// otherwise), which costs less than rounding every position from a float32 copy. With more outputs
// the sums are formed in a float32 copy of the plane (Accumulate::dense), where the additions stay
// in the L1 cache.
constexpr int64_t kSparseRatio = 8;

// The same for a gradInput of contiguous planes written with streaming stores (it does not stay
// in cache: base/fill_simd.h), whose float32 sums fit in an L2 cache (kMaxStreamedPlaneSums):
// with dense sums each plane is written once, with streaming stores, where zeroing it and adding
// at the maxima reads back every line an output touches. In-process A/B on 64-256 MiB gradInputs
// against the sparse path, float32 / bfloat16: 64 positions an output 1.16-1.3x / 0.88-1.24x
// (planes of 112x112 to 512x512), 16 an output 1.5-2.3x / 1.3-1.4x
// (64x64 to 256x256); 334 an output (128x128 to 7x7) 0.7x / 0.7x. Planes of 1000x1001 and 2048x2048
// (4 and 16 MiB of sums) were 0.58-0.99x even at 64-70 an output. Channels-last samples that are
// dense blocks are treated as planes whose sums interleave the channels (float32 32x64x56x56 to
// 7x7, 802 KB of sums a sample: 1.67-1.76x; to 28x28 1.18x, bfloat16 1.24x).
constexpr int64_t kStreamedSparseRatio = 128;
constexpr int64_t kStreamedSparseRatio16 = 32;  // float16 and bfloat16
constexpr int64_t kMaxStreamedPlaneSums = int64_t{1} << 20;

// Channels-last samples that are dense blocks, with windows that tile them, are written a row of
// windows at a time when every index lies in its own window (BackwardPlan::tiled): the band of
// kh rows is zeroed and takes each output by a store, all in L1 or L2, where the sparse sums store
// channel by channel all over the sample. In-process A/B against the sums, bfloat16: 32x64x56x56 to
// 7x7 1.6-2.1x, to 14x14 2.7-4.2x, 8x64x64x64 to 16x16 2.3-3.1x, 64x64x56x56 to 7x7 (streamed)
// 2.8-3x; float32 stored plainly 0.9-1.2x (noise). Float32 launches that stream keep their streamed
// sums: bands built in the workspace and streamed out ran 0.6-0.7x those. A band is built in the
// workspace only while it stays in an L2 cache:
constexpr int64_t kMaxStreamedBandBytes = int64_t{256} << 10;

// Indices up to this size are checked on the calling thread: reading them takes about as long
// as waking the other threads (an OpenMP region costs about 4 microseconds on a 2-core VM).
constexpr int64_t kParallelCheckBytes = int64_t{64} << 10;

class BackwardRun final : public Plan {
 public:
  BackwardRun(const char* op, BackwardPlan plan, std::vector<int32_t> window_first,
              aclDataType dtype, aclDataType index_dtype, int rank)
      : op_(op),
        plan_(std::move(plan)),
        window_first_(std::move(window_first)),
        index_dtype_(index_dtype),
        rank_(rank),
        kernel_(plan_.tiled && plan_.layout == Layout::planes
                    ? tiled_backward_kernel(dtype)
                    : backward_kernel(dtype, index_dtype, plan_.layout)),
        check_(index_check(index_dtype, plan_.layout)),
        parallel_check_(plan_.dims.n * plan_.dims.c * plan_.dims.ho * plan_.dims.wo *
                            (index_dtype == ACL_INT64 ? 8 : 4) >=
                        kParallelCheckBytes) {
    plan_.window_first = window_first_.data();
  }

  aclnnStatus run(void* workspace) const override {
    const int64_t chunks = plan_.split.chunks;
    std::array<bool, kMaxChunks> in_range{};
    parallel_for(
        chunks, [&](int64_t chunk) { in_range[chunk] = check_(plan_, chunk, workspace); },
        parallel_check_);
    for (int64_t chunk = 0; chunk < chunks; ++chunk) {
      if (!in_range[chunk]) {
        return bad_index_error(op_, find_bad_index(plan_.indices, plan_.dims, index_dtype_), rank_,
                               plan_.dims);
      }
    }
    parallel_for(chunks, [&](int64_t chunk) { kernel_(plan_, chunk, workspace); });
    return ACLNN_SUCCESS;
  }

 private:
  const char* op_;
  BackwardPlan plan_;
  std::vector<int32_t> window_first_;  // BackwardPlan::window_first of a tiled plan
  aclDataType index_dtype_;
  int rank_;
  BackwardKernel kernel_;
  IndexCheck check_;
  bool parallel_check_;  // whether the indices are worth checking on all threads
};

// The positions of gradInput's plane at one uniform stride: p = h * W + w lies at p * stride.
bool uniform_positions(const View& v, const Dims& d, int64_t* stride) {
  *stride = d.w > 1 ? v.sw : (d.h > 1 ? v.sh : 1);
  return (d.w == 1 || v.sw == *stride) && (d.h == 1 || v.sh == d.w * *stride);
}

// For a tiled plan (BackwardPlan::tiled), sets what the windows are and where the check
// writes into the workspace, and returns the first position of each output's window; empty for a
// plan that is not tiled.
std::vector<int32_t> window_starts(BackwardPlan& plan) {
  if (!plan.tiled) {
    return {};
  }
  const Dims& d = plan.dims;
  const int64_t kh = d.h / d.ho;
  const int64_t kw = d.w / d.wo;
  plan.window_rows_span = kh * d.w;
  plan.kw = static_cast<int32_t>(kw);
  plan.inverse_width = 1.0f / static_cast<float>(d.w);
  const int64_t outputs = d.ho * d.wo;
  plan.window_period = (kMinWindowPeriod + outputs - 1) / outputs * outputs;
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
  if (plan.layout == Layout::planes) {
    plan.narrowed_offset = slots;
    plan.own_offset = slots + align64(d.n * d.c * d.ho * d.wo * int64_t{2});
  }
  return first;
}

// The bytes of workspace a plan needs.
int64_t workspace_bytes(const BackwardPlan& plan) {
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

// The plan of a launch that writes gradInput with streaming stores when stream_output; 2x2
// windows are written by pairs when `vector_pairs` (pair_windows_vectorised).
BackwardPlan make_plan(const aclTensor& grad_output, const aclTensor& self,
                       const aclTensor& indices, const aclTensor& grad_input, bool stream_output,
                       bool vector_pairs) {
  const Shape& g = grad_output.shape;
  BackwardPlan plan;
  Dims& d = plan.dims;
  d = dims_of(self, g[g.size() - 2], g[g.size() - 1]);
  plan.grad_output = view_of(grad_output);
  plan.indices = view_of(indices);
  plan.grad_input = view_of(grad_input);
  plan.uniform = uniform_positions(plan.grad_input, d, &plan.position_stride);
  const int64_t positions = d.h * d.w;
  plan.dense_planes = dense_block(plan.grad_input, d.n, d.c, d.h, d.w);
  plan.stream_output = stream_output;
  const bool channels_last = channels_innermost(plan.grad_input, d);
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
    plan.accumulate = in_place ? Accumulate::in_place : Accumulate::sparse;
  } else {
    plan.accumulate = Accumulate::dense;
  }
  const int64_t unit_work = positions + d.ho * d.wo;
  if (channels_last) {
    plan.layout = Layout::channels_last;
    // All channels when a sample's gradInput is one dense block (zeroed by one fill, every
    // cache line written by one unit), else a cache line of float32 sums or of 16-bit outputs.
    plan.lanes = d.c;
    if (!plan.uniform || plan.position_stride != d.c ||
        backward_slot_bytes(plan) > kMaxLaneSlotBytes) {
      plan.lanes = std::min<int64_t>(d.c, grad_input.dtype == ACL_FLOAT ? 16 : 32);
    }
    if (backward_slot_bytes(plan) > kMaxLaneSlotBytes) {
      plan.layout = Layout::planes;
      plan.lanes = 1;
    }
  }
  plan.stream_planes = streamed && plan.accumulate == Accumulate::dense &&
                       (plan.layout == Layout::planes ||
                        (plan.layout == Layout::channels_last && plan.lanes == d.c));
  const int64_t planes = numel(self) == 0 ? 0 : d.n * d.c;
  const bool windows_tile = planes > 0 && d.ho > 0 && d.wo > 0 && d.h % d.ho == 0 &&
                            d.w % d.wo == 0 && positions <= kMaxTiledPositions;
  const bool pair_windows = plan.layout == Layout::planes && d.h == 2 * d.ho && d.w == 2 * d.wo &&
                            vector_pairs && (d.wo == 1 || plan.grad_output.sw == 1);
  if (plan.layout == Layout::planes) {
    plan.tiled = windows_tile && plan.accumulate != Accumulate::in_place &&
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
  if (plan.layout == Layout::channels_last) {
    const int64_t blocks = (d.c + plan.lanes - 1) / plan.lanes;
    plan.split =
        split_work(d.n * blocks, unit_work * plan.lanes, backward_slot_bytes(plan), kChunkWork);
  } else {
    plan.split = split_work(planes, unit_work, backward_slot_bytes(plan), kChunkWork);
  }
  return plan;
}

}  // namespace

Impl backward_simd() {
  Impl impl;
  impl.name = "simd";
  impl.plan = [](const Call& call, Planned* planned) {
    const aclTensor& grad_output = *call.tensor("gradOutput");
    const aclTensor& self = *call.tensor("self");
    const aclTensor& indices = *call.tensor("indices");
    const aclTensor& grad_input = *call.tensor("gradInput");
    const bool stream = simd::streams_output(touched_bytes(grad_output, indices, grad_input));
    BackwardPlan plan =
        make_plan(grad_output, self, indices, grad_input, stream, pair_windows_vectorised());
    std::vector<int32_t> window_first = window_starts(plan);
    planned->workspace_bytes = static_cast<uint64_t>(workspace_bytes(plan));
    planned->plan = std::make_unique<BackwardRun>(
        call.op(), std::move(plan), std::move(window_first), self.dtype, indices.dtype,
        static_cast<int>(self.shape.size()));
    return ACLNN_SUCCESS;
  };
  return impl;
}

}  // namespace oa::pooling
