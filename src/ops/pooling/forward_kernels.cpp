// Highway compiles this file once per SIMD target (foreach_target.h re-includes it), so the plain
// loops below get each target's instruction set; HWY_ONCE holds the dispatching entry points.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "ops/pooling/forward_kernels.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <algorithm>
#include <limits>

#include "ops/pooling/forward_kernels.h"
#include "ops/pooling/kernel_select-inl.h"

HWY_BEFORE_NAMESPACE();
namespace oa::pooling {
namespace HWY_NAMESPACE {
namespace {

// The channels the channels_last kernel scans together window by window (scan_windows).
constexpr int64_t kLanes = 64;
// It scans an output row's windows together, a row of self at a time (scan_rows), when every
// window has at least this many rows,
constexpr int64_t kRowOrderRows = 8;
// and then all channels together while the results of the row's windows take at most this many
// bytes, so that self's rows are read straight through, else kLanes at a time.
constexpr int64_t kMaxRowBestBytes = int64_t{32} << 10;

bool rows_together(const Dims& d) { return d.h / d.ho >= kRowOrderRows; }

int64_t channel_block(const Dims& d) {
  const int64_t all_bytes = d.wo * d.c * static_cast<int64_t>(sizeof(float) + sizeof(int64_t));
  return all_bytes <= kMaxRowBestBytes ? d.c : kLanes;
}

// The row-major scan rule as a merge of the results of two disjoint parts of one window, each a
// (value, index) pair: a NaN beats a number and the later of two NaNs wins; otherwise the greater
// value wins and, of equal values, the earlier index. Merging in any order gives the scan's
// result, because the index orders the elements as the scan does.
// Written with bitwise operators so that it compiles to selects, not to branches that random
// data mispredicts; `greater` and `equal` are false when either value is NaN.
inline bool replaces(float v, int64_t v_index, float best, int64_t best_index) {
  const bool greater = v > best;
  const bool equal = v == best;
  const bool v_nan = v != v;
  const bool best_nan = best != best;
  return greater | (equal & (v_index < best_index)) |
         (v_nan & (!best_nan | (v_index > best_index)));
}

// The scan rule down columns [w_begin, w_end) of rows [h0, h1): col_max[w] and col_row[w] become
// each column's result. Starting from -inf with the first row keeps the first row for an all -inf
// column, as the scan does.
template <typename T, bool kUnitStride>
void column_range(const T* x, int64_t sh, int64_t sw, int64_t w_begin, int64_t w_end, int64_t h0,
                  int64_t h1, float* __restrict col_max, int64_t* __restrict col_row) {
  const int64_t step = kUnitStride ? 1 : sw;
  for (int64_t w = w_begin; w < w_end; ++w) {
    col_max[w] = -std::numeric_limits<float>::infinity();
    col_row[w] = h0;
  }
  for (int64_t h = h0; h < h1; ++h) {
    const T* __restrict row = x + h * sh;
    for (int64_t w = w_begin; w < w_end; ++w) {
      const float v = to_float(row[w * step]);
      const bool take = (v > col_max[w]) | (v != v);
      col_max[w] = take ? v : col_max[w];
      col_row[w] = take ? h : col_row[w];
    }
  }
}

// All W columns. With a contiguous row, a whole number of 16-column blocks and then the block
// ending at W, so that no column is left to a scalar remainder loop (columns are independent, so
// computing some twice is harmless).
template <typename T>
void column_max(const T* x, int64_t sh, int64_t sw, int64_t width, int64_t h0, int64_t h1,
                float* col_max, int64_t* col_row) {
  constexpr int64_t kBlock = 16;
  if (sw != 1) {
    column_range<T, false>(x, sh, sw, 0, width, h0, h1, col_max, col_row);
    return;
  }
  if (width < kBlock) {
    column_range<T, true>(x, sh, 1, 0, width, h0, h1, col_max, col_row);
    return;
  }
  column_range<T, true>(x, sh, 1, 0, width / kBlock * kBlock, h0, h1, col_max, col_row);
  if (width % kBlock != 0) {
    column_range<T, true>(x, sh, 1, width - kBlock, width, h0, h1, col_max, col_row);
  }
}

// Windows at least this many columns wide are merged in two passes (merge_columns).
constexpr int64_t kTwoPassColumns = 6;

// The scan rule over the column results of columns [w0, w1), merging them one by one.
inline void merge_in_order(const float* col_max, const int64_t* col_row, int64_t width, int64_t w0,
                           int64_t w1, float* value, int64_t* index) {
  float best = col_max[w0];
  int64_t best_index = col_row[w0] * width + w0;
  for (int64_t w = w0 + 1; w < w1; ++w) {
    const int64_t at = col_row[w] * width + w;
    const bool take = replaces(col_max[w], at, best, best_index);
    // Selected with masks: compilers turn a float select into a branch, which random data
    // mispredicts.
    const uint32_t mask = 0u - static_cast<uint32_t>(take);
    best = detail::bits_float((detail::float_bits(col_max[w]) & mask) |
                              (detail::float_bits(best) & ~mask));
    best_index = take ? at : best_index;
  }
  *value = best;
  *index = best_index;
}

// The same rule when no column result is NaN: the greatest value and, of the columns holding an
// equal one (+0 and -0 included), the smallest index. Two short branch-free passes; false, with
// nothing set, when there is a NaN.
inline bool merge_two_pass(const float* col_max, const int64_t* col_row, int64_t width, int64_t w0,
                           int64_t w1, float* value, int64_t* index) {
  float greatest = col_max[w0];
  bool nan = false;
  for (int64_t w = w0; w < w1; ++w) {
    const float v = col_max[w];
    greatest = v > greatest ? v : greatest;
    nan |= v != v;
  }
  if (nan) {
    return false;
  }
  int64_t best_w = w0;
  int64_t best_index = std::numeric_limits<int64_t>::max();
  for (int64_t w = w0; w < w1; ++w) {
    const int64_t at = col_row[w] * width + w;
    const bool take = (col_max[w] == greatest) & (at < best_index);
    best_index = take ? at : best_index;
    best_w = take ? w : best_w;
  }
  *value = col_max[best_w];
  *index = best_index;
  return true;
}

// The outputs of one output row: each merges the column results of its window's columns, in two
// passes from kTwoPassColumns columns on (GCC vectorises them: 1.1-1.3x with 6-8 columns, but
// 0.8-0.9x with 4-5 and 0.54x with 2, where the vector set-up outweighs the loop), else one by
// one. Plain arguments (not the plan) so that the stores cannot alias what the loop reads.
template <typename T, typename I>
void merge_columns(const float* __restrict col_max, const int64_t* __restrict col_row,
                   int64_t width, const int64_t* __restrict col_begin,
                   const int64_t* __restrict col_end, int64_t wo, T* __restrict out,
                   int64_t out_step, I* __restrict indices, int64_t index_step) {
  for (int64_t j = 0; j < wo; ++j) {
    const int64_t w0 = col_begin[j];
    const int64_t w1 = col_end[j];
    float best = 0.0f;
    int64_t best_index = 0;
    if (w1 - w0 < kTwoPassColumns ||
        !merge_two_pass(col_max, col_row, width, w0, w1, &best, &best_index)) {
      merge_in_order(col_max, col_row, width, w0, w1, &best, &best_index);
    }
    out[j * out_step] = from_float<T>(best);
    indices[j * index_step] = static_cast<I>(best_index);
  }
}

// A unit is one plane. For each output row, the window rows are reduced per column (vectorised
// along W), then each output merges the column results of its window's columns.
template <typename T, typename I>
void forward_planes(const ForwardPlan& plan, int64_t chunk, void* workspace) {
  const Dims& d = plan.dims;
  char* slot = static_cast<char*>(workspace) + chunk * plan.split.slot_bytes;
  auto* col_max = reinterpret_cast<float*>(slot);
  auto* col_row = reinterpret_cast<int64_t*>(slot + align64(d.w * sizeof(float)));
  const Range range = chunk_range(plan.split, chunk);
  for (int64_t unit = range.begin; unit < range.end; ++unit) {
    const int64_t n = unit / d.c;
    const int64_t c = unit % d.c;
    const T* x = static_cast<const T*>(plan.self.data) + n * plan.self.sn + c * plan.self.sc;
    T* out = static_cast<T*>(plan.out.data) + n * plan.out.sn + c * plan.out.sc;
    I* indices = static_cast<I*>(plan.indices.data) + n * plan.indices.sn + c * plan.indices.sc;
    for (int64_t i = 0; i < d.ho; ++i) {
      const int64_t h0 = plan.row_begin[i];
      const int64_t h1 = plan.row_end[i];
      // Output rows with the same window rows (when Ho > H) share the column results.
      if (i == 0 || h0 != plan.row_begin[i - 1] || h1 != plan.row_end[i - 1]) {
        column_max<T>(x, plan.self.sh, plan.self.sw, d.w, h0, h1, col_max, col_row);
      }
      merge_columns(col_max, col_row, d.w, plan.col_begin.data(), plan.col_end.data(), d.wo,
                    out + i * plan.out.sh, plan.out.sw, indices + i * plan.indices.sh,
                    plan.indices.sw);
    }
  }
}

// The scan rule over one row of a window, at `position` for its first element px[0, lanes), for
// `lanes` channels: best and best_index hold each channel's result so far.
template <typename T, typename P>
inline void scan_row(const T* px, int64_t sw, int64_t count, int64_t lanes, P position,
                     float* __restrict best, P* __restrict best_index) {
  for (int64_t w = 0; w < count; ++w, ++position) {
    const T* at = px + w * sw;
    for (int64_t c = 0; c < lanes; ++c) {
      const float v = to_float(at[c]);
      const bool take = (v > best[c]) | (v != v);
      best[c] = take ? v : best[c];
      best_index[c] = take ? position : best_index[c];
    }
  }
}

// Rounds `lanes` channels' results into output j of a row (at out and indices).
template <typename T, typename I, typename P>
void store_results(const ForwardPlan& plan, const float* __restrict best,
                   const P* __restrict best_index, int64_t lanes, T* __restrict out,
                   I* __restrict indices) {
  if (plan.out.sc == 1 && plan.indices.sc == 1) {
    // Channels-last outputs: one vectorised loop (the strided one below took about half of the
    // kernel's time with 2x2 windows).
    for (int64_t c = 0; c < lanes; ++c) {
      out[c] = from_float<T>(best[c]);
      indices[c] = static_cast<I>(best_index[c]);
    }
    return;
  }
  for (int64_t c = 0; c < lanes; ++c) {
    out[c * plan.out.sc] = from_float<T>(best[c]);
    indices[c * plan.indices.sc] = static_cast<I>(best_index[c]);
  }
}

// The pointers of one unit of the channels_last kernel: one (n, output row) pair.
template <typename T, typename I>
struct RowData {
  int64_t h0;
  int64_t h1;
  const T* x;  // sample n of self
  T* out;      // output row
  I* indices;  // its indices
};

template <typename T, typename I>
RowData<T, I> row_data(const ForwardPlan& plan, int64_t unit) {
  const int64_t n = unit / plan.dims.ho;
  const int64_t i = unit % plan.dims.ho;
  return {plan.row_begin[i], plan.row_end[i],
          static_cast<const T*>(plan.self.data) + n * plan.self.sn,
          static_cast<T*>(plan.out.data) + n * plan.out.sn + i * plan.out.sh,
          static_cast<I*>(plan.indices.data) + n * plan.indices.sn + i * plan.indices.sh};
}

// Short windows, one at a time, kLanes channels at a time, the results on the stack.
template <typename T, typename I, typename P>
void scan_windows(const ForwardPlan& plan, int64_t chunk) {
  const Dims& d = plan.dims;
  float best[kLanes];
  P best_index[kLanes];
  const Range range = chunk_range(plan.split, chunk);
  for (int64_t unit = range.begin; unit < range.end; ++unit) {
    const RowData<T, I> r = row_data<T, I>(plan, unit);
    for (int64_t j = 0; j < d.wo; ++j) {
      const int64_t w0 = plan.col_begin[j];
      for (int64_t c0 = 0; c0 < d.c; c0 += kLanes) {
        const int64_t lanes = std::min(kLanes, d.c - c0);
        std::fill(best, best + lanes, -std::numeric_limits<float>::infinity());
        std::fill(best_index, best_index + lanes, static_cast<P>(r.h0 * d.w + w0));
        for (int64_t h = r.h0; h < r.h1; ++h) {
          scan_row(r.x + h * plan.self.sh + w0 * plan.self.sw + c0, plan.self.sw,
                   plan.col_end[j] - w0, lanes, static_cast<P>(h * d.w + w0), best, best_index);
        }
        store_results(plan, best, best_index, lanes, r.out + j * plan.out.sw + c0 * plan.out.sc,
                      r.indices + j * plan.indices.sw + c0 * plan.indices.sc);
      }
    }
  }
}

// Tall windows: all windows of the output row together, a row of self at a time, so that the
// reads run along self's rows; channel_block channels at a time, the results of the row's windows
// in the chunk's workspace slot (forward_slot_bytes). The update is scan_row's, written out here:
// through scan_row, GCC made this loop wait on its loads of self, 0.48-0.63x on 256 channels
// (8x256x64x64 to 1x1 and 3x5, in-process A/B).
template <typename T, typename I, typename P>
void scan_rows(const ForwardPlan& plan, int64_t chunk, void* workspace) {
  const Dims& d = plan.dims;
  char* slot = static_cast<char*>(workspace) + chunk * plan.split.slot_bytes;
  const int64_t block = channel_block(d);
  auto* best = reinterpret_cast<float*>(slot);
  auto* best_index = reinterpret_cast<P*>(slot + align64(d.wo * block * sizeof(float)));
  const Range range = chunk_range(plan.split, chunk);
  for (int64_t unit = range.begin; unit < range.end; ++unit) {
    const RowData<T, I> r = row_data<T, I>(plan, unit);
    for (int64_t c0 = 0; c0 < d.c; c0 += block) {
      const int64_t lanes = std::min(block, d.c - c0);
      for (int64_t j = 0; j < d.wo; ++j) {
        std::fill(best + j * block, best + j * block + lanes,
                  -std::numeric_limits<float>::infinity());
        std::fill(best_index + j * block, best_index + j * block + lanes,
                  static_cast<P>(r.h0 * d.w + plan.col_begin[j]));
      }
      for (int64_t h = r.h0; h < r.h1; ++h) {
        for (int64_t j = 0; j < d.wo; ++j) {
          float* __restrict b = best + j * block;
          P* __restrict b_index = best_index + j * block;
          for (int64_t w = plan.col_begin[j]; w < plan.col_end[j]; ++w) {
            const T* px = r.x + h * plan.self.sh + w * plan.self.sw + c0;
            const auto position = static_cast<P>(h * d.w + w);
            for (int64_t c = 0; c < lanes; ++c) {
              const float v = to_float(px[c]);
              const bool take = (v > b[c]) | (v != v);
              b[c] = take ? v : b[c];
              b_index[c] = take ? position : b_index[c];
            }
          }
        }
      }
      for (int64_t j = 0; j < d.wo; ++j) {
        store_results(plan, best + j * block, best_index + j * block, lanes,
                      r.out + j * plan.out.sw + c0 * plan.out.sc,
                      r.indices + j * plan.indices.sw + c0 * plan.indices.sc);
      }
    }
  }
}

// A unit is one (n, output row) pair. Each window is scanned in row-major order exactly as the
// rule says (self's channel stride is 1). Windows of at least kRowOrderRows rows are scanned
// together a row of self at a time: window by window, the reads jumped to the next row every few
// positions and waited on memory (in-process A/B, float32 / bfloat16: 32x64x56x56 to 7x7
// 1.19-1.35x / 1.24-1.28x, to 5x5 1.22x / 1.70x; 8x256x64x64 to 3x5 1.74-2.0x / 1.9-2.15x), while
// windows of 2-4 rows ran 0.78-0.98x that way. Positions are of type P: int32_t where the plane
// has at most 2^31 - 1, so that the selects of positions are as wide as those of values (1.2-1.6x
// against int64_t on AVX2, float32 and bfloat16).
template <typename T, typename I, typename P>
void scan_channels_last(const ForwardPlan& plan, int64_t chunk, void* workspace) {
  if (rows_together(plan.dims)) {
    scan_rows<T, I, P>(plan, chunk, workspace);
  } else {
    scan_windows<T, I, P>(plan, chunk);
  }
}

template <typename T, typename I>
void forward_channels_last(const ForwardPlan& plan, int64_t chunk, void* workspace) {
  if (plan.dims.h * plan.dims.w <= std::numeric_limits<int32_t>::max()) {
    scan_channels_last<T, I, int32_t>(plan, chunk, workspace);
  } else {
    scan_channels_last<T, I, int64_t>(plan, chunk, workspace);
  }
}

// The kernel of one (dtype, index dtype, layout) instance, for KernelSelect.
template <typename T, typename I, Layout kLayout>
struct Body {
  static void run(const ForwardPlan& plan, int64_t chunk, void* workspace) {
    if constexpr (kLayout == Layout::planes) {
      forward_planes<T, I>(plan, chunk, workspace);
    } else {
      forward_channels_last<T, I>(plan, chunk, workspace);
    }
  }
};

}  // namespace

ForwardKernel SelectForward(aclDataType dtype, aclDataType index_dtype, Layout layout) {
  return KernelSelect<Body, ForwardPlan>::select(dtype, index_dtype, layout);
}

int64_t ForwardSlotBytes(Layout layout, const Dims& dims) {
  if (layout == Layout::channels_last) {
    if (dims.ho == 0 || !rows_together(dims)) {
      return 0;
    }
    const int64_t block = channel_block(dims);
    return align64(dims.wo * block * static_cast<int64_t>(sizeof(float))) +
           align64(dims.wo * block * static_cast<int64_t>(sizeof(int64_t)));
  }
  return align64(dims.w * static_cast<int64_t>(sizeof(float))) +
         align64(dims.w * static_cast<int64_t>(sizeof(int64_t)));
}

}  // namespace HWY_NAMESPACE
}  // namespace oa::pooling
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace oa::pooling {

HWY_EXPORT(SelectForward);

ForwardKernel forward_kernel(aclDataType dtype, aclDataType index_dtype, Layout layout) {
  return HWY_DYNAMIC_DISPATCH(SelectForward)(dtype, index_dtype, layout);
}

// The same on every target.
int64_t forward_slot_bytes(Layout layout, const Dims& dims) {
  return HWY_STATIC_DISPATCH(ForwardSlotBytes)(layout, dims);
}

}  // namespace oa::pooling
#endif
