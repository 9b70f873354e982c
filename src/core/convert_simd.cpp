// Highway compiles this file once per SIMD target (foreach_target.h re-includes it); HWY_ONCE
// holds the dispatching entry points.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "core/convert_simd.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "base/float_convert.h"
#include "core/convert.h"
#include "core/convert_simd-inl.h"
#include "core/convert_simd.h"

HWY_BEFORE_NAMESPACE();
namespace oa::simd {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

void HalfToFloat(const uint16_t* src, int64_t n, float* dst) {
  const hn::ScalableTag<float> df;
  const auto lanes = static_cast<int64_t>(hn::Lanes(df));
  int64_t i = 0;
  for (; i + lanes <= n; i += lanes) {
    hn::StoreU(WidenHalf(df, src + i), df, dst + i);
  }
  for (; i < n; ++i) {
    dst[i] = oa::half_to_float(src[i]);
  }
}

void Bf16ToFloat(const uint16_t* src, int64_t n, float* dst) {
  const hn::ScalableTag<float> df;
  const auto lanes = static_cast<int64_t>(hn::Lanes(df));
  int64_t i = 0;
  for (; i + lanes <= n; i += lanes) {
    hn::StoreU(WidenBf16(df, src + i), df, dst + i);
  }
  for (; i < n; ++i) {
    dst[i] = oa::bf16_to_float(src[i]);
  }
}

void FloatToHalf(const float* src, int64_t n, uint16_t* dst) {
  const hn::ScalableTag<float> df;
  const auto lanes = static_cast<int64_t>(hn::Lanes(df));
  int64_t i = 0;
  for (; i + lanes <= n; i += lanes) {
    hn::StoreU(NarrowHalf(df, hn::LoadU(df, src + i)), Codes<decltype(df)>(), dst + i);
  }
  for (; i < n; ++i) {
    dst[i] = oa::float_to_half(src[i]);
  }
}

void FloatToBf16(const float* src, int64_t n, uint16_t* dst) {
  const hn::ScalableTag<float> df;
  const auto lanes = static_cast<int64_t>(hn::Lanes(df));
  int64_t i = 0;
#if HWY_TARGET != HWY_SCALAR
  for (; i + 2 * lanes <= n; i += 2 * lanes) {
    hn::StoreU(NarrowBf16Pair(df, hn::LoadU(df, src + i), hn::LoadU(df, src + i + lanes)),
               PairCodes<decltype(df)>(), dst + i);
  }
#endif
  for (; i + lanes <= n; i += lanes) {
    hn::StoreU(NarrowBf16(df, hn::LoadU(df, src + i)), Codes<decltype(df)>(), dst + i);
  }
  for (; i < n; ++i) {
    dst[i] = oa::float_to_bf16(src[i]);
  }
}

// src[0, n) narrowed to T (float, or the 16-bit codes of kDtype) into dst, and src zeroed: element
// by element up to the first boundary of a vector of ds, then stream(i) for elements [i, i + step)
// a vector of ds at a time, with streaming stores.
template <aclDataType kDtype, typename T, class DS, class StreamStep>
void StreamAs(float* src, int64_t n, T* dst, DS ds, const StreamStep& stream) {
  const hn::ScalableTag<float> df;
  const auto lanes = static_cast<int64_t>(hn::Lanes(df));
  const auto step = static_cast<int64_t>(hn::Lanes(ds));
  const auto one = [&](int64_t i) {
    store_float(kDtype, src[i], dst, i);
    src[i] = 0.0f;
  };
  const int64_t head = StreamHead(ds, dst, n);
  int64_t i = 0;
  for (; i < head; ++i) {
    one(i);
  }
  if (reinterpret_cast<uintptr_t>(dst + i) % (step * sizeof(T)) == 0) {
    for (; i + step <= n; i += step) {
      stream(i);
      for (int64_t k = 0; k < step; k += lanes) {
        hn::StoreU(hn::Zero(df), df, src + i + k);
      }
    }
  }
  for (; i < n; ++i) {
    one(i);
  }
}

void StreamAndClear(float* src, int64_t n, aclDataType dtype, void* dst) {
  const hn::ScalableTag<float> df;
  auto* codes = static_cast<uint16_t*>(dst);
#if HWY_TARGET != HWY_SCALAR
  // 16-bit codes are streamed a full vector at a time, narrowed from two float32 vectors: 128-bit
  // targets would stream a vector of half width whole, past its end.
  const PairCodes<decltype(df)> dp;
  const auto lanes = static_cast<int64_t>(hn::Lanes(df));
  switch (dtype) {
    case ACL_FLOAT16:
      StreamAs<ACL_FLOAT16>(src, n, codes, dp, [&](int64_t i) {
        const auto a = NarrowHalf(df, hn::LoadU(df, src + i));
        const auto b = NarrowHalf(df, hn::LoadU(df, src + i + lanes));
        hn::Stream(hn::Combine(dp, b, a), dp, codes + i);
      });
      return;
    case ACL_BF16:
      StreamAs<ACL_BF16>(src, n, codes, dp, [&](int64_t i) {
        const auto a = hn::LoadU(df, src + i);
        const auto b = hn::LoadU(df, src + i + lanes);
        hn::Stream(NarrowBf16Pair(df, a, b), dp, codes + i);
      });
      return;
    default:
      break;
  }
#else
  const Codes<decltype(df)> dc;
  switch (dtype) {
    case ACL_FLOAT16:
      StreamAs<ACL_FLOAT16>(src, n, codes, dc, [&](int64_t i) {
        hn::Stream(NarrowHalf(df, hn::LoadU(df, src + i)), dc, codes + i);
      });
      return;
    case ACL_BF16:
      StreamAs<ACL_BF16>(src, n, codes, dc, [&](int64_t i) {
        hn::Stream(NarrowBf16(df, hn::LoadU(df, src + i)), dc, codes + i);
      });
      return;
    default:
      break;
  }
#endif
  auto* out = static_cast<float*>(dst);
  StreamAs<ACL_FLOAT>(src, n, out, df,
                      [&](int64_t i) { hn::Stream(hn::LoadU(df, src + i), df, out + i); });
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
HWY_EXPORT(StreamAndClear);

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
void stream_and_clear(float* src, int64_t n, aclDataType dtype, void* dst) {
  HWY_DYNAMIC_DISPATCH(StreamAndClear)(src, n, dtype, dst);
}

}  // namespace oa::simd
#endif
