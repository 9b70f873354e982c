// Highway compiles this file once per SIMD target (foreach_target.h re-includes it); HWY_ONCE
// holds the dispatching entry points.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "core/convert_simd.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "core/convert_simd.h"
#include "core/float_convert.h"

HWY_BEFORE_NAMESPACE();
namespace oa::simd {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

void HalfToFloat(const uint16_t* src, int64_t n, float* dst) {
  const hn::ScalableTag<float> df;
  const hn::Rebind<hwy::float16_t, decltype(df)> dh;
  const auto lanes = static_cast<int64_t>(hn::Lanes(df));
  const auto* in = reinterpret_cast<const hwy::float16_t*>(src);
  int64_t i = 0;
  for (; i + lanes <= n; i += lanes) {
    hn::StoreU(hn::PromoteTo(df, hn::LoadU(dh, in + i)), df, dst + i);
  }
  for (; i < n; ++i) {
    dst[i] = oa::half_to_float(src[i]);
  }
}

void Bf16ToFloat(const uint16_t* src, int64_t n, float* dst) {
  const hn::ScalableTag<float> df;
  const hn::RebindToUnsigned<decltype(df)> du32;
  const hn::Rebind<uint16_t, decltype(df)> du16;
  const auto lanes = static_cast<int64_t>(hn::Lanes(df));
  int64_t i = 0;
  for (; i + lanes <= n; i += lanes) {
    const auto wide = hn::ShiftLeft<16>(hn::PromoteTo(du32, hn::LoadU(du16, src + i)));
    hn::StoreU(hn::BitCast(df, wide), df, dst + i);
  }
  for (; i < n; ++i) {
    dst[i] = oa::bf16_to_float(src[i]);
  }
}

// NaN lanes become the canonical quiet NaN with their sign, as the scalar conversions produce.
template <class D, class V>
V canonical_nan(D df, V v) {
  const hn::RebindToUnsigned<D> du;
  const auto sign = hn::And(hn::BitCast(du, v), hn::Set(du, 0x80000000u));
  const auto quiet = hn::BitCast(df, hn::Or(sign, hn::Set(du, 0x7FC00000u)));
  return hn::IfThenElse(hn::IsNaN(v), quiet, v);
}

void FloatToHalf(const float* src, int64_t n, uint16_t* dst) {
  const hn::ScalableTag<float> df;
  const hn::Rebind<hwy::float16_t, decltype(df)> dh;
  const auto lanes = static_cast<int64_t>(hn::Lanes(df));
  auto* out = reinterpret_cast<hwy::float16_t*>(dst);
  int64_t i = 0;
  for (; i + lanes <= n; i += lanes) {
    hn::StoreU(hn::DemoteTo(dh, canonical_nan(df, hn::LoadU(df, src + i))), dh, out + i);
  }
  for (; i < n; ++i) {
    dst[i] = oa::float_to_half(src[i]);
  }
}

void FloatToBf16(const float* src, int64_t n, uint16_t* dst) {
  const hn::ScalableTag<float> df;
  const hn::RebindToUnsigned<decltype(df)> du32;
  const hn::RebindToSigned<decltype(df)> di32;
  const hn::Rebind<uint16_t, decltype(df)> du16;
  const auto lanes = static_cast<int64_t>(hn::Lanes(df));
  int64_t i = 0;
  for (; i + lanes <= n; i += lanes) {
    const auto v = canonical_nan(df, hn::LoadU(df, src + i));
    const auto bits = hn::BitCast(du32, v);
    // Round to nearest even on the 16 dropped bits; NaN lanes are exact already.
    const auto odd = hn::And(hn::ShiftRight<16>(bits), hn::Set(du32, 1u));
    const auto rounded = hn::Add(bits, hn::Add(hn::Set(du32, 0x7FFFu), odd));
    const auto top = hn::IfThenElse(hn::RebindMask(du32, hn::IsNaN(v)), bits, rounded);
    const auto halves = hn::BitCast(di32, hn::ShiftRight<16>(top));
    hn::StoreU(hn::DemoteTo(du16, halves), du16, dst + i);
  }
  for (; i < n; ++i) {
    dst[i] = oa::float_to_bf16(src[i]);
  }
}

}  // namespace HWY_NAMESPACE
}  // namespace oa::simd
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace oa::simd {

HWY_EXPORT(HalfToFloat);
HWY_EXPORT(Bf16ToFloat);
HWY_EXPORT(FloatToHalf);
HWY_EXPORT(FloatToBf16);

void half_to_float(const uint16_t* src, int64_t n, float* dst) {
  HWY_DYNAMIC_DISPATCH(HalfToFloat)(src, n, dst);
}
void bf16_to_float(const uint16_t* src, int64_t n, float* dst) {
  HWY_DYNAMIC_DISPATCH(Bf16ToFloat)(src, n, dst);
}
void float_to_half(const float* src, int64_t n, uint16_t* dst) {
  HWY_DYNAMIC_DISPATCH(FloatToHalf)(src, n, dst);
}
void float_to_bf16(const float* src, int64_t n, uint16_t* dst) {
  HWY_DYNAMIC_DISPATCH(FloatToBf16)(src, n, dst);
}

}  // namespace oa::simd
#endif
