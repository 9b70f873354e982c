// Highway compiles this file once per SIMD target (foreach_target.h re-includes it); HWY_ONCE
// holds the dispatching entry point.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "core/cube_math.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "core/convert_simd-inl.h"
#include "core/cube_math.h"

HWY_BEFORE_NAMESPACE();
namespace oa::simd {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// round_hf32 lane by lane: the same integer operations on the bits.
void RoundHf32(float* row, int64_t n) {
  const hn::ScalableTag<float> df;
  const hn::RebindToUnsigned<decltype(df)> du;
  const auto lanes = static_cast<int64_t>(hn::Lanes(df));
  int64_t i = 0;
  for (; i + lanes <= n; i += lanes) {
    const auto v = hn::LoadU(df, row + i);
    const auto bits = hn::BitCast(du, v);
    const auto odd = hn::And(hn::ShiftRight<12>(bits), hn::Set(du, 1u));
    const auto rounded =
        hn::And(hn::Add(bits, hn::Add(hn::Set(du, 0x7FFu), odd)), hn::Set(du, ~0xFFFu));
    hn::StoreU(hn::IfThenElse(hn::IsNaN(v), v, hn::BitCast(df, rounded)), df, row + i);
  }
  for (; i < n; ++i) {
    row[i] = oa::round_hf32(row[i]);
  }
}

// round_fp16 through the core's per-vector binary16 conversions (bit-identical to the scalar ones).
void RoundFp16(float* row, int64_t n) {
  const hn::ScalableTag<float> df;
  const auto lanes = static_cast<int64_t>(hn::Lanes(df));
  alignas(HWY_MAX_BYTES) uint16_t codes[HWY_MAX_BYTES / sizeof(float)];
  int64_t i = 0;
  for (; i + lanes <= n; i += lanes) {
    hn::Store(NarrowHalf(df, hn::LoadU(df, row + i)), Codes<decltype(df)>(), codes);
    hn::StoreU(WidenHalf(df, codes), df, row + i);
  }
  for (; i < n; ++i) {
    row[i] = oa::round_fp16(row[i]);
  }
}

}  // namespace HWY_NAMESPACE
}  // namespace oa::simd
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace oa {
namespace simd {

HWY_EXPORT(RoundHf32);
HWY_EXPORT(RoundFp16);

}  // namespace simd

CubeRounding cube_rounding(aclDataType dtype, int64_t cube_math_type) {
  if (dtype != ACL_FLOAT) {
    return CubeRounding::none;
  }
  switch (cube_math_type) {
    case 1:
    case 3:
      return CubeRounding::hf32;
    case 2:
      return CubeRounding::fp16;
    default:
      return CubeRounding::none;
  }
}

void round_floats(CubeRounding rounding, float* row, int64_t n) {
  switch (rounding) {
    case CubeRounding::hf32:
      HWY_DYNAMIC_DISPATCH(simd::RoundHf32)(row, n);
      return;
    case CubeRounding::fp16:
      HWY_DYNAMIC_DISPATCH(simd::RoundFp16)(row, n);
      return;
    default:
      return;
  }
}

}  // namespace oa
#endif
