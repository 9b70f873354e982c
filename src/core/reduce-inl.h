// accumulate (core/reduce.h) fused with the computation of its values, for Highway kernels,
// included once per target (the usual Highway toggle guard): the values come a float32 vector at a
// time and are added in double to the same sixteen running sums in the same order, so the result
// has the same bits as computing the values into a buffer and calling accumulate on it.
#if defined(OA_CORE_REDUCE_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef OA_CORE_REDUCE_INL_H_
#undef OA_CORE_REDUCE_INL_H_
#else
#define OA_CORE_REDUCE_INL_H_
#endif

#include <hwy/highway.h>

#include <cstdint>

#include "core/reduce.h"

HWY_BEFORE_NAMESPACE();
namespace oa::simd {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// acc + Σ value(i) for i < n, as accumulate adds them: vector_value(i) gives values [i, i +
// Lanes(df)) as a float32 vector (i a multiple of Lanes(df)), scalar_value(i) value i alone.
template <class D, class VectorValue, class ScalarValue>
double AccumulateValues([[maybe_unused]] D df, int64_t n, double acc,
                        [[maybe_unused]] const VectorValue& vector_value,
                        const ScalarValue& scalar_value) {
  alignas(64) double lane[kAccumulateLanes] = {};
  int64_t i = 0;
#if HWY_TARGET != HWY_SCALAR
  // Each float32 vector's halves, widened, go to the running sums of their positions.
  const hn::Half<D> dh;
  const hn::Rebind<double, decltype(dh)> dd;
  constexpr int64_t kLanes = static_cast<int64_t>(hn::MaxLanes(D()));
  static_assert(kAccumulateLanes % kLanes == 0, "a vector's values must start at sum 0");
  constexpr int64_t kVectors = kAccumulateLanes / kLanes;
  hn::Vec<decltype(dd)> sums[2 * kVectors];
  for (auto& sum : sums) {
    sum = hn::Zero(dd);
  }
  for (; i + kAccumulateLanes <= n; i += kAccumulateLanes) {
    for (int64_t v = 0; v < kVectors; ++v) {
      const auto value = vector_value(i + v * kLanes);
      sums[2 * v] = hn::Add(sums[2 * v], hn::PromoteTo(dd, hn::LowerHalf(dh, value)));
      sums[2 * v + 1] = hn::Add(sums[2 * v + 1], hn::PromoteTo(dd, hn::UpperHalf(dh, value)));
    }
  }
  for (int64_t k = 0; k < 2 * kVectors; ++k) {
    hn::Store(sums[k], dd, lane + k * kLanes / 2);
  }
#endif
  for (; i < n; ++i) {
    lane[i % kAccumulateLanes] += static_cast<double>(scalar_value(i));
  }
  return combine_lanes(lane, acc);
}

}  // namespace HWY_NAMESPACE
}  // namespace oa::simd
HWY_AFTER_NAMESPACE();

#endif
