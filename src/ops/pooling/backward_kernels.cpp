// Highway compiles this file once per SIMD target (foreach_target.h re-includes it), so the plain
// loops below get each target's instruction set; HWY_ONCE holds the dispatching entry points.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "ops/pooling/backward_kernels.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <algorithm>
#include <cstring>
#include <type_traits>

#include "base/fill_simd.h"
#include "core/convert_simd.h"
#include "core/isa.h"
#include "ops/pooling/backward_kernels.h"
#include "ops/pooling/kernel_select-inl.h"
#include "ops/pooling/pair_windows_simd.h"

HWY_BEFORE_NAMESPACE();
namespace oa::pooling {
namespace HWY_NAMESPACE {
namespace {

// Sparse sums that fit this many floats (32 KiB) are formed in a buffer on the stack of the thread
// running the chunk: it stays in L1 from one unit, chunk and launch to the next, where a slot per
// chunk in the workspace costs a cold cache line for every output (1.04-1.05x on bf16
// 8x256x64x64 to 1x1 and to 3x5).
constexpr int64_t kStackSums = 8192;

// The float32 sums a unit needs: dense sums hold a plane per lane; sparse sums one plane, since
// they are formed one channel at a time.
int64_t sum_floats(const BackwardPlan& plan) {
  const int64_t plane = plan.dims.h * plan.dims.w;
  return plan.accumulate == Accumulate::sparse ? plane : plane * plan.lanes;
}

bool sums_on_stack(const BackwardPlan& plan) {
  return plan.accumulate == Accumulate::sparse && sum_floats(plan) <= kStackSums;
}

// The float32 sums of a chunk: the stack buffer or the chunk's workspace slot.
float* sums(const BackwardPlan& plan, int64_t chunk, void* workspace, float* stack_sums) {
  if (sums_on_stack(plan)) {
    return stack_sums;
  }
  return reinterpret_cast<float*>(static_cast<char*>(workspace) + chunk * plan.split.slot_bytes);
}

// Where position p = h * W + w of a gradInput plane lies, in elements from the plane's start.
inline int64_t position(const BackwardPlan& plan, int64_t p) {
  if (plan.uniform) {
    return p * plan.position_stride;
  }
  const int64_t h = p / plan.dims.w;
  return h * plan.grad_input.sh + (p - h * plan.dims.w) * plan.grad_input.sw;
}

// Sets `count` runs of `lanes` elements of gradInput, run k at p + k * stride, to +0.
template <typename T>
void zero_runs(const BackwardPlan& plan, T* p, int64_t count, int64_t stride, int64_t lanes) {
  if (stride == lanes) {
    simd::fill_bytes(p, 0, count * lanes * static_cast<int64_t>(sizeof(T)), plan.stream_output);
    return;
  }
  for (int64_t k = 0; k < count; ++k) {
    T* run = p + k * stride;
    for (int64_t c = 0; c < lanes; ++c) {
      run[c] = T{};
    }
  }
}

// Sets a gradInput plane ([H, W] at strides sh, sw) to +0.
template <typename T>
void zero_plane(const BackwardPlan& plan, T* out) {
  const View& v = plan.grad_input;
  if (plan.uniform) {
    zero_runs(plan, out, plan.dims.h * plan.dims.w, plan.position_stride, 1);
    return;
  }
  for (int64_t h = 0; h < plan.dims.h; ++h) {
    zero_runs(plan, out + h * v.sh, plan.dims.w, v.sw, 1);
  }
}

// Calls f(index, grad) for the outputs of one plane in row-major order.
template <typename T, typename I, typename F>
void for_each_output(const BackwardPlan& plan, const I* indices, const T* grad_output, F f) {
  const View& iv = plan.indices;
  const View& gv = plan.grad_output;
  const int64_t wo = plan.dims.wo;
  if (iv.sw == 1 && gv.sw == 1 && (plan.dims.ho == 1 || (iv.sh == wo && gv.sh == wo))) {
    // Unrolled: the loop is a load of an index, an addition and a store per output, and one copy
    // of it ran 3-13 % faster or slower with nothing but its address changed (in-process A/B,
    // float32 64x64x32x32 to 16x16: four copies 1.10x against the faster address, 1.22x against
    // the slower; bfloat16 1.12-1.14x; sparse cases 0.98-1.15x; eight copies 0.95-0.97x of four).
#pragma GCC unroll 4
    for (int64_t k = 0; k < plan.dims.ho * wo; ++k) {
      f(static_cast<int64_t>(indices[k]), grad_output[k]);
    }
    return;
  }
  for (int64_t i = 0; i < plan.dims.ho; ++i) {
    const I* index_row = indices + i * iv.sh;
    const T* grad_row = grad_output + i * gv.sh;
    for (int64_t j = 0; j < plan.dims.wo; ++j) {
      f(static_cast<int64_t>(index_row[j * iv.sw]), grad_row[j * gv.sw]);
    }
  }
}

// The dtype of gradInput's elements of type T.
template <typename T>
constexpr aclDataType kDtype = std::is_same_v<T, float>  ? ACL_FLOAT
                               : std::is_same_v<T, Half> ? ACL_FLOAT16
                                                         : ACL_BF16;

// Rounds the float32 plane acc ([H, W], contiguous) into gradInput's plane and sets acc back to
// zero for the next plane, long before that plane adds into it (a load right after a wide or
// string store to the same line stalls, as memset-then-add would).
template <typename T>
void store_and_clear_plane(const BackwardPlan& plan, float* acc, T* out) {
  const View& v = plan.grad_input;
  const int64_t height = plan.dims.h;
  const int64_t width = plan.dims.w;
  if (plan.stream_planes) {
    simd::stream_and_clear(acc, height * width, kDtype<T>, out);
    return;
  }
  if (plan.uniform && plan.position_stride == 1) {
    for (int64_t k = 0; k < height * width; ++k) {
      out[k] = from_float<T>(acc[k]);
      acc[k] = 0.0f;
    }
    return;
  }
  for (int64_t h = 0; h < height; ++h) {
    T* row = out + h * v.sh;
    float* a = acc + h * width;
    for (int64_t w = 0; w < width; ++w) {
      row[w * v.sw] = from_float<T>(a[w]);
      a[w] = 0.0f;
    }
  }
}

// Whether 16-bit g is -0 or a NaN: the only values that from_float(0.0f + to_float(g)) changes
// (to +0 and to the canonical quiet NaN, base/float_convert.h); it gives any other g back as is.
template <typename T>
unsigned changed_by_sum(T g) {
  return static_cast<unsigned>(g.bits == 0x8000) |
         static_cast<unsigned>((g.bits & 0x7fff) > kInfinityBits<T>);
}

// Whether any gradient of a plane is changed by a sum, as above.
template <typename T>
bool any_changed_by_sum(const BackwardPlan& plan, const T* grad_output) {
  const Dims& d = plan.dims;
  const View& gv = plan.grad_output;
  unsigned changed = 0;
  if (gv.sw == 1 && (d.ho == 1 || gv.sh == d.wo)) {
    // One loop over the plane: rows of a few outputs would leave it unvectorised (0.6-0.7x on
    // bfloat16 28x28 to 14x14 and 8x8 to 4x4).
    for (int64_t k = 0; k < d.ho * d.wo; ++k) {
      changed |= changed_by_sum(grad_output[k]);
    }
    return changed != 0;
  }
  for (int64_t i = 0; i < d.ho; ++i) {
    for (int64_t j = 0; j < d.wo; ++j) {
      changed |= changed_by_sum(grad_output[i * gv.sh + j * gv.sw]);
    }
  }
  return changed != 0;
}

// A plane of a tiled plan whose indices all lie in their own windows: every position takes at most
// one output, whose float32 sum is 0 + gradOutput, so each output is stored, not added.
// - float32 (dense sums): into the sums, which are then written out as usual. Storing into
//   gradInput itself, zeroed first, measured 1.14-1.18x one hour and 0.72-0.83x the next on
//   float32 64x64x32x32 to 16x16, where this is 1.05-1.11x: probably because the plane's copy out
//   of the sums, a string copy, writes gradInput's lines without reading them first.
// - 16-bit: into gradInput's plane, zeroed first unless `zeroed`, without the float32 sums.
template <typename T, typename I>
void store_lone_outputs(const BackwardPlan& plan, const I* indices, const T* grad_output,
                        float* acc, T* out, bool zeroed) {
  if constexpr (std::is_same_v<T, float>) {
    for_each_output(plan, indices, grad_output, [&](int64_t p, T g) { acc[p] = g + 0.0f; });
    store_and_clear_plane(plan, acc, out);
  } else {
    if (!zeroed) {
      std::memset(static_cast<void*>(out), 0, plan.dims.h * plan.dims.w * sizeof(T));
    }
    if (any_changed_by_sum(plan, grad_output)) {
      for_each_output(plan, indices, grad_output,
                      [&](int64_t p, T g) { out[p] = from_float<T>(to_float(g) + 0.0f); });
    } else {
      // The bits as they are: no conversions, and no per-output test (0.9x with one).
      for_each_output(plan, indices, grad_output, [&](int64_t p, T g) { out[p] = g; });
    }
  }
}

// The pointers of one unit.
template <typename T, typename I>
struct UnitData {
  const I* indices;
  const T* grad_output;
  T* grad_input;
};

// A unit is one (n, c) plane.
template <typename T, typename I>
void backward_planes(const BackwardPlan& given, int64_t chunk, void* workspace) {
  // uint16 indices are those of a tiled plan, narrowed by the check into the workspace.
  constexpr bool kTiled = std::is_same_v<I, uint16_t>;
  BackwardPlan narrowed;
  if constexpr (kTiled) {
    narrowed = given;
    const Dims& d = narrowed.dims;
    narrowed.indices = {static_cast<char*>(workspace) + narrowed.narrowed_offset, d.c * d.ho * d.wo,
                        d.ho * d.wo, d.wo, 1};
  }
  const BackwardPlan& plan = kTiled ? narrowed : given;
  const bool own_windows =
      kTiled && static_cast<const uint8_t*>(workspace)[plan.own_offset + chunk] != 0;
  const Dims& d = plan.dims;
  alignas(64) float stack_sums[kStackSums];
  float* acc = sums(plan, chunk, workspace, stack_sums);
  auto unit_data = [&](int64_t unit) {
    const int64_t n = unit / d.c;
    const int64_t c = unit % d.c;
    const View& iv = plan.indices;
    const View& gv = plan.grad_output;
    const View& v = plan.grad_input;
    return UnitData<T, I>{static_cast<const I*>(iv.data) + n * iv.sn + c * iv.sc,
                          static_cast<const T*>(gv.data) + n * gv.sn + c * gv.sc,
                          static_cast<T*>(v.data) + n * v.sn + c * v.sc};
  };
  const Range range = chunk_range(plan.split, chunk);
  if (range.begin == range.end) {
    return;
  }
  if constexpr (kTiled) {
    if (own_windows && plan.pairs) {
      write_pair_planes(plan, range.begin, range.end, unit_data(range.begin).indices, kDtype<T>);
      if (plan.stream_output) {
        store_fence();
      }
      return;
    }
  }
  if (plan.accumulate == Accumulate::dense) {
    const int64_t acc_bytes = d.h * d.w * static_cast<int64_t>(sizeof(float));
    simd::fill_bytes(acc, 0, acc_bytes, false);
  }
  // Zeroed all at once when the chunk's planes are one block of memory, except sparse sums into a
  // cache-resident gradInput: zeroed plane by plane, each plane is still in L1 when its few sums
  // are stored (1.03-1.16x on 16-bit 32x64x56x56 to 7x7 and 8x256x64x64 to 1x1 and 3x5). A
  // streamed gradInput keeps the block fill (plane by plane was 0.92-0.97x on 128 MiB).
  const bool zeroed =
      plan.dense_planes && (plan.accumulate == Accumulate::in_place ||
                            (plan.accumulate == Accumulate::sparse && plan.stream_output));
  if (zeroed) {
    simd::fill_bytes(unit_data(range.begin).grad_input, 0,
                     (range.end - range.begin) * d.h * d.w * static_cast<int64_t>(sizeof(T)),
                     plan.stream_output);
  }
  for (int64_t unit = range.begin; unit < range.end; ++unit) {
    const UnitData<T, I> u = unit_data(unit);
    if constexpr (std::is_same_v<T, float>) {
      if (plan.accumulate == Accumulate::in_place) {
        // Otherwise each plane is zeroed one plane ahead, so that the additions never wait on the
        // zeroing stores.
        if (!zeroed && unit == range.begin) {
          zero_plane(plan, u.grad_input);
        }
        if (!zeroed && unit + 1 < range.end) {
          zero_plane(plan, unit_data(unit + 1).grad_input);
        }
        const int64_t stride = plan.position_stride;
        T* out = u.grad_input;
        for_each_output(plan, u.indices, u.grad_output,
                        [&](int64_t p, T g) { out[p * stride] += g; });
        continue;
      }
    }
    if (plan.accumulate == Accumulate::sparse) {
      if (!zeroed) {
        zero_plane(plan, u.grad_input);
      }
      if constexpr (kTiled) {
        if (own_windows) {
          store_lone_outputs(plan, u.indices, u.grad_output, acc, u.grad_input, true);
          continue;
        }
      }
      for_each_output(plan, u.indices, u.grad_output, [&](int64_t p, T) { acc[p] = 0.0f; });
      for_each_output(plan, u.indices, u.grad_output,
                      [&](int64_t p, T g) { acc[p] += to_float(g); });
      for_each_output(plan, u.indices, u.grad_output, [&](int64_t p, T) {
        u.grad_input[position(plan, p)] = from_float<T>(acc[p]);
      });
      continue;
    }
    if constexpr (kTiled) {
      if (own_windows) {
        store_lone_outputs(plan, u.indices, u.grad_output, acc, u.grad_input, false);
        continue;
      }
    }
    for_each_output(plan, u.indices, u.grad_output, [&](int64_t p, T g) { acc[p] += to_float(g); });
    store_and_clear_plane(plan, acc, u.grad_input);
  }
  if (plan.stream_planes) {
    store_fence();
  }
}

// Whether any gradient of the row i of a sample's outputs (all channels) is changed by a sum, as
// above; never for float32, whose sums are stored as 0 + g.
template <typename T>
bool any_changed_in_row(const BackwardPlan& plan, const T* grad_output, int64_t i) {
  if constexpr (std::is_same_v<T, float>) {
    return false;
  } else {
    const View& gv = plan.grad_output;
    unsigned changed = 0;
    for (int64_t j = 0; j < plan.dims.wo; ++j) {
      const T* grad = grad_output + i * gv.sh + j * gv.sw;
      for (int64_t c = 0; c < plan.dims.c; ++c) {
        changed |= changed_by_sum(grad[c * gv.sc]);
      }
    }
    return changed != 0;
  }
}

// A chunk of a tiled channels_last plan whose indices all lie in their own windows: a row of
// windows covers a band of kh rows of the sample, one contiguous block, which is zeroed and then
// takes each output of the row where its index says, as 0 + g. The band is built in gradInput
// itself, or with plan.band_bytes in the chunk's slot, streamed into gradInput after (the slot is
// cleared as it is streamed, ready for the next band).
template <typename T, typename I>
void store_lone_bands(const BackwardPlan& plan, int64_t chunk, void* workspace) {
  const Dims& d = plan.dims;
  const View& iv = plan.indices;
  const View& gv = plan.grad_output;
  const int64_t band = d.h / d.ho * d.w * d.c;
  const int64_t band_bytes = band * static_cast<int64_t>(sizeof(T));
  T* slot = nullptr;
  if (plan.band_bytes > 0) {
    slot = reinterpret_cast<T*>(static_cast<char*>(workspace) + chunk * plan.split.slot_bytes);
  }
  const Range range = chunk_range(plan.split, chunk);
  if (slot != nullptr && range.begin < range.end) {
    simd::fill_bytes(slot, 0, band_bytes, false);
  }
  for (int64_t n = range.begin; n < range.end; ++n) {
    const I* indices = static_cast<const I*>(iv.data) + n * iv.sn;
    const T* grad_output = static_cast<const T*>(gv.data) + n * gv.sn;
    T* sample = static_cast<T*>(plan.grad_input.data) + n * plan.grad_input.sn;
    for (int64_t i = 0; i < d.ho; ++i) {
      T* out = slot != nullptr ? slot : sample + i * band;
      if (slot == nullptr) {
        simd::fill_bytes(out, 0, band_bytes, false);
      }
      // Element (p, c) of the sample lies at p * C + c; the band starts at element i * band.
      auto store_row = [&](auto value) {
        for (int64_t j = 0; j < d.wo; ++j) {
          const I* index = indices + i * iv.sh + j * iv.sw;
          const T* grad = grad_output + i * gv.sh + j * gv.sw;
          for (int64_t c = 0; c < d.c; ++c) {
            out[static_cast<int64_t>(index[c * iv.sc]) * d.c + c - i * band] =
                value(grad[c * gv.sc]);
          }
        }
      };
      if (any_changed_in_row(plan, grad_output, i)) {
        store_row([](T g) { return from_float<T>(to_float(g) + 0.0f); });
      } else if constexpr (std::is_same_v<T, float>) {
        store_row([](float g) { return g + 0.0f; });
      } else {
        store_row([](T g) { return g; });
      }
      if (slot != nullptr) {
        simd::stream_bytes_and_clear(slot, band_bytes, sample + i * band);
      }
    }
  }
  if (slot != nullptr) {
    store_fence();
  }
}

// Calls f(index, grad, c) for the outputs of one unit of the channels_last layout: output
// positions in row-major order, and for each, channels c in [0, lanes).
template <typename T, typename I, typename F>
void for_each_lane_output(const BackwardPlan& plan, const I* indices, const T* grad_output,
                          int64_t lanes, F f) {
  const View& iv = plan.indices;
  const View& gv = plan.grad_output;
  for (int64_t i = 0; i < plan.dims.ho; ++i) {
    for (int64_t j = 0; j < plan.dims.wo; ++j) {
      const I* index = indices + i * iv.sh + j * iv.sw;
      const T* grad = grad_output + i * gv.sh + j * gv.sw;
      for (int64_t c = 0; c < lanes; ++c) {
        f(static_cast<int64_t>(index[c * iv.sc]), grad[c * gv.sc], c);
      }
    }
  }
}

// A unit is `lanes` channels [c0, c0 + lanes) of one sample; gradInput's channel stride is 1.
// Per channel the outputs are still added in row-major order.
template <typename T, typename I>
void backward_channels_last(const BackwardPlan& plan, int64_t chunk, void* workspace) {
  if (plan.tiled && static_cast<const uint8_t*>(workspace)[plan.own_offset + chunk] != 0) {
    store_lone_bands<T, I>(plan, chunk, workspace);
    return;
  }
  const Dims& d = plan.dims;
  const int64_t positions = d.h * d.w;
  const int64_t blocks = (d.c + plan.lanes - 1) / plan.lanes;
  const View& v = plan.grad_input;
  alignas(64) float stack_sums[kStackSums];
  float* acc = sums(plan, chunk, workspace, stack_sums);
  auto unit_data = [&](int64_t unit) {
    const int64_t n = unit / blocks;
    const int64_t c0 = unit % blocks * plan.lanes;
    const View& iv = plan.indices;
    const View& gv = plan.grad_output;
    return UnitData<T, I>{static_cast<const I*>(iv.data) + n * iv.sn + c0 * iv.sc,
                          static_cast<const T*>(gv.data) + n * gv.sn + c0 * gv.sc,
                          static_cast<T*>(v.data) + n * v.sn + c0};
  };
  auto lanes_of = [&](int64_t unit) {
    return std::min(plan.lanes, d.c - unit % blocks * plan.lanes);
  };
  auto zero_grad_input = [&](int64_t unit) {
    T* out = unit_data(unit).grad_input;
    const int64_t lanes = lanes_of(unit);
    if (plan.uniform) {
      zero_runs(plan, out, positions, plan.position_stride, lanes);
    } else {
      for (int64_t h = 0; h < d.h; ++h) {
        zero_runs(plan, out + h * v.sh, d.w, v.sw, lanes);
      }
    }
  };
  const Range range = chunk_range(plan.split, chunk);
  if (plan.accumulate == Accumulate::dense && range.begin < range.end) {
    const int64_t acc_bytes = positions * plan.lanes * static_cast<int64_t>(sizeof(float));
    simd::fill_bytes(acc, 0, acc_bytes, false);
  }
  for (int64_t unit = range.begin; unit < range.end; ++unit) {
    const UnitData<T, I> u = unit_data(unit);
    const int64_t lanes = lanes_of(unit);
    if constexpr (std::is_same_v<T, float>) {
      if (plan.accumulate == Accumulate::in_place) {
        // As for planes: each unit is zeroed one unit ahead.
        if (unit == range.begin) {
          zero_grad_input(unit);
        }
        if (unit + 1 < range.end) {
          zero_grad_input(unit + 1);
        }
        const int64_t stride = plan.position_stride;
        T* out = u.grad_input;
        for_each_lane_output(plan, u.indices, u.grad_output, lanes,
                             [&](int64_t p, T g, int64_t c) { out[p * stride + c] += g; });
        continue;
      }
    }
    if (plan.accumulate == Accumulate::sparse) {
      zero_grad_input(unit);
      // Channel by channel: the sums of a channel's plane are reused by the next channel, so they
      // stay in L1, where sums interleaved by channel touched a cold line for nearly every output
      // (1.1-1.35x on bf16 32x64x56x56 to 7x7 channels-last).
      for (int64_t c = 0; c < lanes; ++c) {
        const I* indices = u.indices + c * plan.indices.sc;
        const T* grad_output = u.grad_output + c * plan.grad_output.sc;
        T* out = u.grad_input + c;
        for_each_output(plan, indices, grad_output, [&](int64_t p, T) { acc[p] = 0.0f; });
        for_each_output(plan, indices, grad_output, [&](int64_t p, T g) { acc[p] += to_float(g); });
        for_each_output(plan, indices, grad_output,
                        [&](int64_t p, T) { out[position(plan, p)] = from_float<T>(acc[p]); });
      }
      continue;
    }
    for_each_lane_output(plan, u.indices, u.grad_output, lanes,
                         [&](int64_t p, T g, int64_t c) { acc[p * lanes + c] += to_float(g); });
    if (plan.stream_planes) {
      // The sample is one dense block laid out as the sums are.
      simd::stream_and_clear(acc, positions * lanes, kDtype<T>, u.grad_input);
      continue;
    }
    // Rounds every position into gradInput and clears the sums for the next unit.
    for (int64_t h = 0; h < d.h; ++h) {
      for (int64_t w = 0; w < d.w; ++w) {
        T* out = u.grad_input + h * v.sh + w * v.sw;
        float* a = acc + (h * d.w + w) * lanes;
        for (int64_t c = 0; c < lanes; ++c) {
          out[c] = from_float<T>(a[c]);
          a[c] = 0.0f;
        }
      }
    }
  }
  if (plan.stream_planes) {
    store_fence();
  }
}

// The kernel of one (dtype, index dtype, layout) instance, for KernelSelect.
template <typename T, typename I, Layout kLayout>
struct Body {
  static void run(const BackwardPlan& plan, int64_t chunk, void* workspace) {
    if constexpr (kLayout == Layout::planes) {
      backward_planes<T, I>(plan, chunk, workspace);
    } else {
      backward_channels_last<T, I>(plan, chunk, workspace);
    }
  }
};

}  // namespace

BackwardKernel SelectBackward(aclDataType dtype, aclDataType index_dtype, Layout layout) {
  return KernelSelect<Body, BackwardPlan>::select(dtype, index_dtype, layout);
}

BackwardKernel SelectTiledBackward(aclDataType dtype) {
  return KernelSelect<Body, BackwardPlan>::select_planes<uint16_t>(dtype);
}

int64_t BackwardSlotBytes(const BackwardPlan& plan) {
  int64_t sum_bytes = 0;
  if (plan.accumulate != Accumulate::in_place && !sums_on_stack(plan)) {
    sum_bytes = sum_floats(plan) * static_cast<int64_t>(sizeof(float));
  }
  return align64(std::max(sum_bytes, plan.band_bytes));
}

}  // namespace HWY_NAMESPACE
}  // namespace oa::pooling
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace oa::pooling {

HWY_EXPORT(SelectBackward);
HWY_EXPORT(SelectTiledBackward);

BackwardKernel backward_kernel(aclDataType dtype, aclDataType index_dtype, Layout layout) {
  return HWY_DYNAMIC_DISPATCH(SelectBackward)(dtype, index_dtype, layout);
}

BackwardKernel tiled_backward_kernel(aclDataType dtype) {
  return HWY_DYNAMIC_DISPATCH(SelectTiledBackward)(dtype);
}

// The same on every target.
int64_t backward_slot_bytes(const BackwardPlan& plan) {
  return HWY_STATIC_DISPATCH(BackwardSlotBytes)(plan);
}

}  // namespace oa::pooling
#endif
