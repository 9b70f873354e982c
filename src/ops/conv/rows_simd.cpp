// Highway compiles this file once per SIMD target (foreach_target.h re-includes it); HWY_ONCE
// holds the dispatching entry points.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "ops/conv/rows_simd.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <cstring>

#include "ops/conv/rows_simd.h"

HWY_BEFORE_NAMESPACE();
namespace oa::conv {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// The biased exponent of 2^-56: a nonzero bfloat16 value with a smaller exponent field is too
// small for the bfloat16 products.
constexpr int16_t kSmallestExponent = 127 - 56;

void AddFloats(const float* values, int64_t n, double* sums) {
  const hn::ScalableTag<double> dd;
  const hn::Rebind<float, decltype(dd)> df;
  const auto lanes = static_cast<int64_t>(hn::Lanes(dd));
  int64_t i = 0;
  for (; i + lanes <= n; i += lanes) {
    hn::StoreU(hn::Add(hn::LoadU(dd, sums + i), hn::PromoteTo(dd, hn::LoadU(df, values + i))), dd,
               sums + i);
  }
  for (; i < n; ++i) {
    sums[i] += static_cast<double>(values[i]);
  }
}

// Whether some element of row[0, n) hits: vector_hit(d, v) marks the lanes of a vector of T that
// do (as a vector of all-ones lanes), scalar_hit(x) says it for one element. No early exit: rows
// are short and the scan is one pass either way.
template <typename T, class VectorHit, class ScalarHit>
bool AnyHit(const T* row, int64_t n, const VectorHit& vector_hit, const ScalarHit& scalar_hit) {
  const hn::ScalableTag<T> d;
  const auto lanes = static_cast<int64_t>(hn::Lanes(d));
  auto any = hn::Zero(d);
  int64_t i = 0;
  for (; i + lanes <= n; i += lanes) {
    any = hn::Or(any, vector_hit(d, hn::LoadU(d, row + i)));
  }
  bool found = !hn::AllFalse(d, hn::MaskFromVec(any));
  for (; i < n; ++i) {
    found = found || scalar_hit(row[i]);
  }
  return found;
}

bool AllFinite(const float* row, int64_t n) {
  constexpr uint32_t kExponent = 0x7F800000u;
  const auto vector_hit = [](auto d, auto v) {
    const hn::RebindToUnsigned<decltype(d)> du;
    const auto e = hn::Set(du, kExponent);
    return hn::BitCast(d, hn::VecFromMask(du, hn::Eq(hn::And(hn::BitCast(du, v), e), e)));
  };
  const auto scalar_hit = [](float x) {
    uint32_t bits;
    std::memcpy(&bits, &x, sizeof bits);
    return (bits & kExponent) == kExponent;
  };
  return !AnyHit(row, n, vector_hit, scalar_hit);
}

bool Bf16AllFinite(const uint16_t* row, int64_t n) {
  constexpr uint16_t kExponent = 0x7F80u;
  const auto vector_hit = [](auto d, auto v) {
    const auto e = hn::Set(d, kExponent);
    return hn::VecFromMask(d, hn::Eq(hn::And(v, e), e));
  };
  const auto scalar_hit = [](uint16_t x) { return (x & kExponent) == kExponent; };
  return !AnyHit(row, n, vector_hit, scalar_hit);
}

// A magnitude m (the bits without the sign, 0..0x7FFF, so also a nonnegative int16) is too small
// when 0 < m < kSmallestExponent << 7.
bool Bf16AllWide(const uint16_t* row, int64_t n) {
  constexpr int16_t kLimit = kSmallestExponent << 7;
  const auto vector_hit = [](auto d, auto v) {
    const hn::RebindToSigned<decltype(d)> di;
    const auto m = hn::BitCast(di, hn::And(v, hn::Set(d, uint16_t{0x7FFF})));
    const auto small = hn::And(hn::VecFromMask(di, hn::Gt(m, hn::Zero(di))),
                               hn::VecFromMask(di, hn::Lt(m, hn::Set(di, kLimit))));
    return hn::BitCast(d, small);
  };
  const auto scalar_hit = [](uint16_t x) {
    const int m = x & 0x7FFF;
    return m > 0 && m < kLimit;
  };
  return !AnyHit(row, n, vector_hit, scalar_hit);
}

}  // namespace HWY_NAMESPACE
}  // namespace oa::conv
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace oa::conv {

HWY_EXPORT(AddFloats);
HWY_EXPORT(AllFinite);
HWY_EXPORT(Bf16AllFinite);
HWY_EXPORT(Bf16AllWide);

void add_floats(const float* values, int64_t n, double* sums) {
  HWY_DYNAMIC_DISPATCH(AddFloats)(values, n, sums);
}
bool all_finite(const float* row, int64_t n) { return HWY_DYNAMIC_DISPATCH(AllFinite)(row, n); }
bool bf16_all_finite(const uint16_t* row, int64_t n) {
  return HWY_DYNAMIC_DISPATCH(Bf16AllFinite)(row, n);
}
bool bf16_all_wide(const uint16_t* row, int64_t n) {
  return HWY_DYNAMIC_DISPATCH(Bf16AllWide)(row, n);
}

}  // namespace oa::conv
#endif
