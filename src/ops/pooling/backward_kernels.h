// The fast kernels of aclnnAdaptiveMaxPool2dBackward (SPEC section 7): per (n, c) plane,
// gradInput = 0, then gradInput[indices[i, j]] += gradOutput[i, j] for the outputs in row-major
// order, accumulated in float32 and rounded once to gradInput's dtype.
#pragma once

#include <cstdint>

#include "acl/acl_base.h"
#include "ops/pooling/pool_views.h"

namespace oa::pooling {

// Where a unit's sums are formed (each is float32, added in row-major output order, rounded once):
// - in_place: in gradInput itself, which is float32 with its positions at one uniform stride;
// - dense: in a float32 copy of the unit's gradInput in the chunk's workspace slot, then every
//   position is rounded into gradInput;
// - sparse: gradInput is zeroed, and only the positions the indices name are summed, in a float32
//   buffer on the stack when a unit's sums fit in 32 KiB (else in the chunk's workspace slot), and
//   rounded into gradInput (cheaper when outputs are few next to positions).
enum class Accumulate { in_place, dense, sparse };

// window_first covers at least this many outputs, so that the check of small planes runs long
// loops.
constexpr int64_t kMinWindowPeriod = 512;
// The most positions a tiled plane has: its indices are narrowed to uint16.
constexpr int64_t kMaxTiledPositions = int64_t{1} << 16;

struct BackwardPlan {
  Dims dims;
  View grad_output;
  View indices;
  View grad_input;
  Layout layout = Layout::planes;
  // Channels per unit of the channels_last layout (1 for planes).
  int64_t lanes = 1;
  Accumulate accumulate = Accumulate::dense;
  // Whether gradInput's positions p = h * W + w of a plane lie at p * position_stride.
  bool uniform = false;
  int64_t position_stride = 0;
  // Whether gradInput is one dense block of planes ([N, C, H, W] contiguous): a chunk of planes
  // is then zeroed by one fill (in_place and sparse), faster than one per plane.
  bool dense_planes = false;
  // Whether gradInput is written with streaming stores: the launch touches too many bytes for it
  // to stay in cache (base/fill_simd.h).
  bool stream_output = false;
  // Dense sums whose units are written whole with streaming stores: gradInput's planes (or, with
  // the channels_last layout, its samples, all channels a unit) are contiguous, too large together
  // to stay in cache, and each small enough for its sums to stay.
  bool stream_planes = false;
  // Tiled windows: the windows tile the plane (H % Ho == 0, W % Wo == 0, planes of at most
  // kMaxTiledPositions) and either
  // - planes: gradInput's planes are contiguous, with dense or sparse sums (not in_place), not
  //   streamed from the sums (stream_planes) unless the windows are 2x2 (pairs); or
  // - channels_last: gradInput's samples are dense blocks ([H, W, C] contiguous, lanes == C),
  //   except float32 written with streaming stores (its streamed sums measured faster).
  // The index check then
  // - (planes) writes the indices as uint16, row-major [N, C, Ho, Wo], into the workspace at
  //   narrowed_offset bytes, and the kernel reads those;
  // - writes one byte per chunk at own_offset bytes: 1 when every index of the chunk lies in its
  //   own window. Each position then takes at most one output, so the kernel stores each output
  //   where its index says instead of adding it: for planes into the float32 sums for float32, into
  //   the zeroed plane for 16-bit types; for channels_last into the zeroed band of gradInput that
  //   the row of windows covers (kh rows of the sample, contiguous), or with stream_output into
  //   that band built in the chunk's slot (band_bytes) and then streamed into gradInput.
  // A position p lies in the window whose first position is f exactly when o = p - f is below
  // window_rows_span = kh * W and o mod W below kw; window_first holds f for each output of a
  // plane, row-major [Ho, Wo], repeated for window_period outputs (whole planes, at least
  // kMinWindowPeriod outputs); inverse_width is 1 / W.
  bool tiled = false;
  int64_t band_bytes = 0;
  int64_t window_rows_span = 0;
  int32_t kw = 0;
  float inverse_width = 0;
  const int32_t* window_first = nullptr;
  int64_t window_period = 0;
  int64_t narrowed_offset = 0;
  int64_t own_offset = 0;
  // Pairs (pair_windows_simd.h): a tiled planes plan with 2x2 windows, SIMD kernels and
  // gradOutput's columns contiguous writes the planes of a chunk whose indices all lie in their own
  // windows whole, window row by window row, with streaming stores when stream_output. Such a plan
  // tiles even when its dense sums would be streamed (stream_planes): the chunks whose indices do
  // not all lie in their own windows take that path.
  bool pairs = false;
  // planes: a unit is one (n, c) plane; channels_last: `lanes` channels of one sample.
  Split split;
};

// Runs the units of one chunk; workspace is the whole workspace (the chunk uses its own slot).
// Every index must already be known to lie in [0, H * W).
using BackwardKernel = void (*)(const BackwardPlan& plan, int64_t chunk, void* workspace);

// For the dtype of gradInput (FLOAT, FLOAT16, BF16), of indices (INT32, INT64) and the layout,
// compiled for the SIMD target Highway's dispatch picks now (core/isa.h); null for any other
// dtype.
BackwardKernel backward_kernel(aclDataType dtype, aclDataType index_dtype, Layout layout);

// The kernel for a tiled plan: it reads the uint16 indices the check wrote into the workspace.
BackwardKernel tiled_backward_kernel(aclDataType dtype);

// Workspace each chunk needs (0 when its sums are formed in gradInput or on the stack).
int64_t backward_slot_bytes(const BackwardPlan& plan);

}  // namespace oa::pooling
