// Highway compiles this file once per SIMD target (foreach_target.h re-includes it); HWY_ONCE
// holds the dispatching entry point.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "ops/pooling/pair_windows_simd.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <cstdint>
#include <type_traits>

#include "ops/pooling/pair_windows_simd.h"

HWY_BEFORE_NAMESPACE();
namespace oa::pooling {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// The storage of gradInput's elements of type T (pool_views.h): float, or the bits of a 16-bit
// type.
template <typename T>
using Storage = std::conditional_t<std::is_same_v<T, float>, float, uint16_t>;

// 0 + g rounded into T, as the other kernels store an output alone in its window.
template <typename T>
Storage<T> SumOf(Storage<T> g) {
  if constexpr (std::is_same_v<T, float>) {
    return g + 0.0f;
  } else {
    return from_float<T>(to_float(T{g}) + 0.0f).bits;
  }
}

// The same for the bits of 16-bit gradients in 32-bit lanes: -0 becomes +0 and a NaN the canonical
// quiet NaN of its sign (base/float_convert.h); any other value stays as it is.
template <typename T, class D>
hn::Vec<D> SumOf16(D d, hn::Vec<D> g) {
  const auto sign = hn::Set(d, 0x8000u);
  const auto nan = hn::Gt(hn::AndNot(sign, g), hn::Set(d, uint32_t{kInfinityBits<T>}));
  const auto canonical = hn::Or(hn::And(g, sign), hn::Set(d, uint32_t{kQuietNanBits<T>}));
  return hn::IfThenZeroElse(hn::Eq(g, sign), hn::IfThenElse(nan, canonical, g));
}

// Output j of row i: the four positions of its window, in rows `top` and `top + W`.
template <typename T>
void PairScalar(const uint16_t* index_row, const Storage<T>* grad_row, int64_t i, int64_t j,
                int64_t width, Storage<T>* top) {
  const int64_t offset = index_row[j] - (2 * i * width + 2 * j);
  const Storage<T> value = SumOf<T>(grad_row[j]);
  const Storage<T> zero{};
  top[2 * j] = offset == 0 ? value : zero;
  top[2 * j + 1] = offset == 1 ? value : zero;
  top[width + 2 * j] = offset == width ? value : zero;
  top[width + 2 * j + 1] = offset == width + 1 ? value : zero;
}

// Stores v at p, with a streaming store when kStream and p is aligned to the vector (not the last
// vector of a row that overlaps the one before, nor rows that do not start on a vector boundary).
template <bool kStream, class D>
void StorePair(hn::Vec<D> v, D d, hn::TFromD<D>* p) {
  if constexpr (kStream) {
    if (reinterpret_cast<uintptr_t>(p) % (hn::Lanes(d) * sizeof(hn::TFromD<D>)) == 0) {
      hn::Stream(v, d, p);
      return;
    }
  }
  hn::StoreU(v, d, p);
}

// The lanes of float32 planes: 64-bit lanes, each a pair of positions of a window row (the left one
// in its low half), and 32-bit ones for the outputs.
using D64 = hn::ScalableTag<uint64_t>;
using D64Half = hn::Rebind<uint32_t, D64>;
// The lanes of 16-bit planes: 32-bit lanes, each a pair of positions.
using D32 = hn::ScalableTag<uint32_t>;

// Stores the pairs of both window rows of a vector of outputs: `value` holds each output's bits in
// the low half of its lane and `offset` where its index lies in its window (0 or 1 in the top row,
// W or W + 1 in the bottom one, W even): the output goes to the half that offset's column names,
// in the row it names, and +0 to the other three positions.
template <bool kStream, class D>
void StoreWindowRows(D d, hn::Vec<D> value, hn::Vec<D> offset, int64_t width, hn::TFromD<D>* top,
                     hn::TFromD<D>* bottom) {
  // log2 of the bits of half a lane.
  constexpr int kHalfShift = sizeof(hn::TFromD<D>) == 8 ? 5 : 4;
  const auto column = hn::And(offset, hn::Set(d, 1));
  const auto pair = hn::Shl(value, hn::ShiftLeft<kHalfShift>(column));
  const auto in_top = hn::Lt(offset, hn::Set(d, static_cast<hn::TFromD<D>>(width)));
  StorePair<kStream>(hn::IfThenElseZero(in_top, pair), d, top);
  StorePair<kStream>(hn::IfThenZeroElse(in_top, pair), d, bottom);
}

// Outputs [j, j + Lanes(D64)) of row i of a float32 plane; twice_lane holds 2k in lane k.
template <bool kStream>
void PairVector(const uint16_t* index_row, const float* grad_row, int64_t i, int64_t j,
                int64_t width, hn::Vec<D64Half> twice_lane, float* top) {
  const D64 d64;
  const D64Half d32;
  const hn::Rebind<uint16_t, D64> d16;
  const hn::Rebind<float, D64> df;
  const auto first =
      hn::Add(hn::Set(d32, static_cast<uint32_t>(2 * i * width + 2 * j)), twice_lane);
  const auto offset = hn::Sub(hn::PromoteTo(d32, hn::LoadU(d16, index_row + j)), first);
  const auto value = hn::BitCast(d32, hn::Add(hn::LoadU(df, grad_row + j), hn::Zero(df)));
  StoreWindowRows<kStream>(d64, hn::PromoteTo(d64, value), hn::PromoteTo(d64, offset), width,
                           reinterpret_cast<uint64_t*>(top + 2 * j),
                           reinterpret_cast<uint64_t*>(top + width + 2 * j));
}

// The same for 16-bit planes, outputs [j, j + Lanes(D32)).
template <typename T, bool kStream>
void PairVector(const uint16_t* index_row, const uint16_t* grad_row, int64_t i, int64_t j,
                int64_t width, hn::Vec<D32> twice_lane, uint16_t* top) {
  const D32 d32;
  const hn::Rebind<uint16_t, D32> d16;
  const auto first =
      hn::Add(hn::Set(d32, static_cast<uint32_t>(2 * i * width + 2 * j)), twice_lane);
  const auto offset = hn::Sub(hn::PromoteTo(d32, hn::LoadU(d16, index_row + j)), first);
  const auto value = SumOf16<T>(d32, hn::PromoteTo(d32, hn::LoadU(d16, grad_row + j)));
  StoreWindowRows<kStream>(d32, value, offset, width, reinterpret_cast<uint32_t*>(top + 2 * j),
                           reinterpret_cast<uint32_t*>(top + width + 2 * j));
}

// The 32-bit lanes of T's outputs.
template <typename T>
using OutputLanes = std::conditional_t<std::is_same_v<T, float>, D64Half, D32>;

template <typename T, bool kStream>
void PairPlanes(const BackwardPlan& plan, int64_t begin, int64_t end, const uint16_t* indices) {
  const Dims& d = plan.dims;
  const View& gv = plan.grad_output;
  const View& v = plan.grad_input;
  const OutputLanes<T> d32;
  const auto lanes = static_cast<int64_t>(hn::Lanes(d32));
  // Iota stores its lanes one by one, and a vector load of them waits for the stores to retire.
  const auto twice_lane = hn::Add(hn::Iota(d32, 0), hn::Iota(d32, 0));
  for (int64_t unit = begin; unit < end; ++unit) {
    const auto* grad =
        static_cast<const Storage<T>*>(gv.data) + unit / d.c * gv.sn + unit % d.c * gv.sc;
    auto* out = static_cast<Storage<T>*>(v.data) + unit / d.c * v.sn + unit % d.c * v.sc;
    const uint16_t* plane_indices = indices + (unit - begin) * d.ho * d.wo;
    for (int64_t i = 0; i < d.ho; ++i) {
      const uint16_t* index_row = plane_indices + i * d.wo;
      const Storage<T>* grad_row = grad + i * gv.sh;
      Storage<T>* top = out + 2 * i * d.w;
      if (d.wo < lanes) {
        for (int64_t j = 0; j < d.wo; ++j) {
          PairScalar<T>(index_row, grad_row, i, j, d.w, top);
        }
        continue;
      }
      // Vectors of outputs; the last one ends at the row's end, overlapping the one before (whose
      // positions it writes again, with the same values).
      for (int64_t j = 0; j < d.wo; j += lanes) {
        const int64_t at = j + lanes <= d.wo ? j : d.wo - lanes;
        if constexpr (std::is_same_v<T, float>) {
          PairVector<kStream>(index_row, grad_row, i, at, d.w, twice_lane, top);
        } else {
          PairVector<T, kStream>(index_row, grad_row, i, at, d.w, twice_lane, top);
        }
      }
    }
  }
}

// Streaming stores when the launch streams its output (BackwardPlan::stream_output).
template <typename T>
void PairPlanesOf(const BackwardPlan& plan, int64_t begin, int64_t end, const uint16_t* indices) {
  if (plan.stream_output) {
    PairPlanes<T, true>(plan, begin, end, indices);
  } else {
    PairPlanes<T, false>(plan, begin, end, indices);
  }
}

void PairFloat(const BackwardPlan& plan, int64_t begin, int64_t end, const uint16_t* indices) {
  PairPlanesOf<float>(plan, begin, end, indices);
}
void PairHalf(const BackwardPlan& plan, int64_t begin, int64_t end, const uint16_t* indices) {
  PairPlanesOf<Half>(plan, begin, end, indices);
}
void PairBf16(const BackwardPlan& plan, int64_t begin, int64_t end, const uint16_t* indices) {
  PairPlanesOf<Bf16>(plan, begin, end, indices);
}

bool PairsVectorised() { return HWY_TARGET != HWY_SCALAR && HWY_TARGET != HWY_EMU128; }

}  // namespace HWY_NAMESPACE
}  // namespace oa::pooling
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace oa::pooling {

HWY_EXPORT(PairFloat);
HWY_EXPORT(PairHalf);
HWY_EXPORT(PairBf16);
HWY_EXPORT(PairsVectorised);

void write_pair_planes(const BackwardPlan& plan, int64_t begin, int64_t end,
                       const uint16_t* indices, aclDataType dtype) {
  if (dtype == ACL_FLOAT) {
    HWY_DYNAMIC_DISPATCH(PairFloat)(plan, begin, end, indices);
  } else if (dtype == ACL_FLOAT16) {
    HWY_DYNAMIC_DISPATCH(PairHalf)(plan, begin, end, indices);
  } else {
    HWY_DYNAMIC_DISPATCH(PairBf16)(plan, begin, end, indices);
  }
}

bool pair_windows_vectorised() { return HWY_DYNAMIC_DISPATCH(PairsVectorised)(); }

}  // namespace oa::pooling
#endif
