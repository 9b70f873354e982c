// Highway compiles this file once per SIMD target (foreach_target.h re-includes it), so the plain
// loops below get each target's instruction set; HWY_ONCE holds the dispatching entry point.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "ops/pooling/index_check.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <algorithm>

#include "ops/pooling/index_check.h"

HWY_BEFORE_NAMESPACE();
namespace oa::pooling {
namespace HWY_NAMESPACE {
namespace {

// As unsigned, a negative index is larger than any valid one, so one comparison checks both ends.
template <typename I>
uint64_t as_unsigned(I v) {
  return static_cast<uint64_t>(static_cast<int64_t>(v));
}

// Whether position p lies in the window whose first position is `first` (plan.tiled): its offset
// o = p - first is below kh * W, and o mod W below kw. o is clamped to kh * W <= H * W <= 2^16, and
// its row o div W comes from float arithmetic, exactly: o + 1/2 lies at least 1/(2W) from a
// multiple of W, while (o + 1/2) * fl(1/W), rounded, errs by at most (kh + 1) * 2^-23, which is
// less than 1/(2W) as (kh + 1) * W <= 2^17. Branch-free, so that the loops over indices vectorise,
// and on 32-bit lanes (twice as many as 64-bit ones, with native compares): the index p is taken
// modulo 2^32, which changes nothing for an index in [0, H * W), and an index outside it fails the
// range check, which stops the launch whatever this says.
template <typename I>
uint32_t in_window(const BackwardPlan& plan, I index, int32_t first) {
  const auto span = static_cast<uint32_t>(plan.window_rows_span);
  const auto p = static_cast<uint32_t>(index);
  const uint32_t offset = std::min(p - static_cast<uint32_t>(first), span);
  const auto o = static_cast<int32_t>(offset);
  const auto row = static_cast<int32_t>((static_cast<float>(o) + 0.5f) * plan.inverse_width);
  const int32_t column = o - row * static_cast<int32_t>(plan.dims.w);
  return static_cast<uint32_t>(offset < span) & static_cast<uint32_t>(column < plan.kw);
}

// For a tiled plan: also writes the chunk's indices as uint16 and whether all lie in their own
// windows into the workspace (BackwardPlan::tiled).
template <typename I>
bool check_tiled(const BackwardPlan& plan, int64_t chunk, void* workspace) {
  const Dims& d = plan.dims;
  const View& iv = plan.indices;
  const int64_t outputs = d.ho * d.wo;
  const Range range = chunk_range(plan.split, chunk);
  auto* narrowed =
      reinterpret_cast<uint16_t*>(static_cast<char*>(workspace) + plan.narrowed_offset) +
      range.begin * outputs;
  const int32_t* first = plan.window_first;
  uint64_t largest = 0;
  uint32_t own = 1;
  // One index, of the output whose window starts at `start`.
  auto take = [&](I index, int32_t start, uint16_t* out) {
    largest = std::max(largest, as_unsigned(index));
    own &= in_window(plan, index, start);
    *out = static_cast<uint16_t>(index);
  };
  // Runs of the outputs of whole planes, as many as window_first holds.
  auto check_run = [&](const I* indices, int64_t count, uint16_t* out) {
    for (int64_t k = 0; k < count; ++k) {
      take(indices[k], first[k], out + k);
    }
  };
  if (dense_block(iv, d.n, d.c, d.ho, d.wo)) {
    // The chunk's planes are one run of memory, checked window_period outputs at a time: runs of
    // one small plane each were 0.82-0.9x (float32 8x8 to 4x4, 12x12 to 6x6).
    const I* indices = static_cast<const I*>(iv.data) + range.begin * outputs;
    const int64_t total = (range.end - range.begin) * outputs;
    for (int64_t start = 0; start < total; start += plan.window_period) {
      check_run(indices + start, std::min(plan.window_period, total - start), narrowed + start);
    }
  } else {
    for (int64_t unit = range.begin; unit < range.end; ++unit) {
      const I* indices = static_cast<const I*>(iv.data) + unit / d.c * iv.sn + unit % d.c * iv.sc;
      uint16_t* out = narrowed + (unit - range.begin) * outputs;
      if (iv.sw == 1 && (d.ho == 1 || iv.sh == d.wo)) {
        check_run(indices, outputs, out);
        continue;
      }
      for (int64_t i = 0; i < d.ho; ++i) {
        for (int64_t j = 0; j < d.wo; ++j) {
          take(indices[i * iv.sh + j * iv.sw], first[i * d.wo + j], out + i * d.wo + j);
        }
      }
    }
  }
  static_cast<uint8_t*>(workspace)[plan.own_offset + chunk] = static_cast<uint8_t>(own);
  return largest < static_cast<uint64_t>(d.h * d.w);
}

// The units are the backward kernel's, so a chunk checks exactly what it will read.
template <typename I>
bool check_planes(const BackwardPlan& plan, int64_t chunk) {
  const Dims& d = plan.dims;
  const View& iv = plan.indices;
  const auto limit = static_cast<uint64_t>(d.h * d.w);
  uint64_t largest = 0;
  const Range range = chunk_range(plan.split, chunk);
  if (dense_block(iv, d.n, d.c, d.ho, d.wo)) {
    // The chunk's planes are one run of memory.
    const I* indices = static_cast<const I*>(iv.data) + range.begin * d.ho * d.wo;
    for (int64_t k = 0; k < (range.end - range.begin) * d.ho * d.wo; ++k) {
      largest = std::max(largest, as_unsigned(indices[k]));
    }
    return largest < limit;
  }
  for (int64_t unit = range.begin; unit < range.end; ++unit) {
    const I* indices = static_cast<const I*>(iv.data) + unit / d.c * iv.sn + unit % d.c * iv.sc;
    if (iv.sw == 1 && (d.ho == 1 || iv.sh == d.wo)) {
      for (int64_t k = 0; k < d.ho * d.wo; ++k) {
        largest = std::max(largest, as_unsigned(indices[k]));
      }
      continue;
    }
    for (int64_t i = 0; i < d.ho; ++i) {
      const I* row = indices + i * iv.sh;
      if (iv.sw == 1) {
        for (int64_t j = 0; j < d.wo; ++j) {
          largest = std::max(largest, as_unsigned(row[j]));
        }
      } else {
        for (int64_t j = 0; j < d.wo; ++j) {
          largest = std::max(largest, as_unsigned(row[j * iv.sw]));
        }
      }
    }
  }
  return largest < limit;
}

// kTiled: also writes whether all of the chunk's indices lie in their own windows into the
// workspace (BackwardPlan::tiled).
template <typename I, bool kTiled>
bool check_channels_last(const BackwardPlan& plan, int64_t chunk, void* workspace) {
  const Dims& d = plan.dims;
  const View& iv = plan.indices;
  const auto limit = static_cast<uint64_t>(d.h * d.w);
  const int64_t blocks = (d.c + plan.lanes - 1) / plan.lanes;
  uint64_t largest = 0;
  uint32_t own = 1;
  const Range range = chunk_range(plan.split, chunk);
  for (int64_t unit = range.begin; unit < range.end; ++unit) {
    const int64_t c0 = unit % blocks * plan.lanes;
    const int64_t lanes = std::min(plan.lanes, d.c - c0);
    const I* indices = static_cast<const I*>(iv.data) + unit / blocks * iv.sn + c0 * iv.sc;
    for (int64_t i = 0; i < d.ho; ++i) {
      for (int64_t j = 0; j < d.wo; ++j) {
        const I* index = indices + i * iv.sh + j * iv.sw;
        const int32_t first = kTiled ? plan.window_first[i * d.wo + j] : 0;
        auto take = [&](I value) {
          largest = std::max(largest, as_unsigned(value));
          if constexpr (kTiled) {
            own &= in_window(plan, value, first);
          }
        };
        if (iv.sc == 1) {
          for (int64_t c = 0; c < lanes; ++c) {
            take(index[c]);
          }
        } else {
          for (int64_t c = 0; c < lanes; ++c) {
            take(index[c * iv.sc]);
          }
        }
      }
    }
  }
  if constexpr (kTiled) {
    static_cast<uint8_t*>(workspace)[plan.own_offset + chunk] = static_cast<uint8_t>(own);
  }
  return largest < limit;
}

template <typename I, Layout kLayout>
bool check(const BackwardPlan& plan, int64_t chunk, void* workspace) {
  if constexpr (kLayout == Layout::planes) {
    if (plan.tiled) {
      return check_tiled<I>(plan, chunk, workspace);
    }
    return check_planes<I>(plan, chunk);
  } else {
    if (plan.tiled) {
      return check_channels_last<I, true>(plan, chunk, workspace);
    }
    return check_channels_last<I, false>(plan, chunk, workspace);
  }
}

// The check entry, flattened as the kernels are (kernel_select-inl.h).
template <typename I, Layout kLayout>
HWY_FLATTEN bool run_check(const BackwardPlan& plan, int64_t chunk, void* workspace) {
  return check<I, kLayout>(plan, chunk, workspace);
}

template <typename I>
IndexCheck for_layout(Layout layout) {
  return layout == Layout::planes ? run_check<I, Layout::planes>
                                  : run_check<I, Layout::channels_last>;
}

}  // namespace

IndexCheck SelectIndexCheck(aclDataType index_dtype, Layout layout) {
  switch (index_dtype) {
    case ACL_INT32:
      return for_layout<int32_t>(layout);
    case ACL_INT64:
      return for_layout<int64_t>(layout);
    default:
      return nullptr;
  }
}

}  // namespace HWY_NAMESPACE
}  // namespace oa::pooling
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace oa::pooling {

HWY_EXPORT(SelectIndexCheck);

IndexCheck index_check(aclDataType index_dtype, Layout layout) {
  return HWY_DYNAMIC_DISPATCH(SelectIndexCheck)(index_dtype, layout);
}

}  // namespace oa::pooling
#endif
