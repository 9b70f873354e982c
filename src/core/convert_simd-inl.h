// Per-vector float16/bfloat16 <-> float32 conversions for Highway kernels, included once per
// target (the usual Highway toggle guard). Bit-identical to the scalar conversions of
// float_convert.h: widening is exact, narrowing rounds to nearest-even and turns NaN into the
// canonical quiet NaN with its sign. Also where a streamed output's vector stores can begin.
#if defined(OA_CORE_CONVERT_SIMD_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef OA_CORE_CONVERT_SIMD_INL_H_
#undef OA_CORE_CONVERT_SIMD_INL_H_
#else
#define OA_CORE_CONVERT_SIMD_INL_H_
#endif

#include <hwy/cache_control.h>
#include <hwy/highway.h>

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "acl/acl_base.h"
#include "base/float_convert.h"

HWY_BEFORE_NAMESPACE();
namespace oa::simd {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// NaN lanes become the canonical quiet NaN with their sign.
template <class D, class V>
V CanonicalNan(D df, V v) {
  const hn::RebindToUnsigned<D> du;
  const auto sign = hn::And(hn::BitCast(du, v), hn::Set(du, 0x80000000u));
  const auto quiet = hn::BitCast(df, hn::Or(sign, hn::Set(du, 0x7FC00000u)));
  return hn::IfThenElse(hn::IsNaN(v), quiet, v);
}

// The storage codes of one float32 vector's lanes: 16-bit codes, half as wide.
template <class D>
using Codes = hn::Rebind<uint16_t, D>;

// Lanes(df) bfloat16 codes at src, widened.
template <class D>
hn::Vec<D> WidenBf16(D df, const uint16_t* src) {
  const hn::RebindToUnsigned<D> du32;
  return hn::BitCast(df, hn::ShiftLeft<16>(hn::PromoteTo(du32, hn::LoadU(Codes<D>(), src))));
}

// Whether this target converts float16 in hardware (F16C from AVX2 up, NEON, SVE). Highway's
// emulation on the others (SSE4, SSSE3, EMU128, SCALAR) neither rounds nor keeps infinities, NaNs
// and the sign of an underflow, so they convert lane by lane with float_convert.h.
#if (HWY_ARCH_X86 && HWY_TARGET >= HWY_SSE4) || HWY_TARGET == HWY_EMU128 || HWY_TARGET == HWY_SCALAR
constexpr bool kHalfInHardware = false;
#else
constexpr bool kHalfInHardware = true;
#endif

// Lanes(df) float16 codes at src, widened.
template <class D>
hn::Vec<D> WidenHalf(D df, const uint16_t* src) {
  if constexpr (kHalfInHardware) {
    const hn::Rebind<hwy::float16_t, D> dh;
    return hn::PromoteTo(df, hn::LoadU(dh, reinterpret_cast<const hwy::float16_t*>(src)));
  } else {
    alignas(HWY_MAX_BYTES) float lanes[HWY_MAX_BYTES / sizeof(float)];
    for (size_t i = 0; i < hn::Lanes(df); ++i) {
      lanes[i] = oa::half_to_float(src[i]);
    }
    return hn::Load(df, lanes);
  }
}

// The bits of v rounded to nearest even on their low 16, whose high 16 are then v's bfloat16
// code; NaN lanes become the canonical quiet NaN with their sign.
template <class D>
hn::Vec<hn::RebindToUnsigned<D>> RoundedBf16Bits(D, hn::Vec<D> v) {
  const hn::RebindToUnsigned<D> du32;
  const auto bits = hn::BitCast(du32, v);
  const auto odd = hn::And(hn::ShiftRight<16>(bits), hn::Set(du32, 1u));
  const auto rounded = hn::Add(bits, hn::Add(hn::Set(du32, 0x7FFFu), odd));
  const auto quiet = hn::Or(hn::And(bits, hn::Set(du32, 0x80000000u)), hn::Set(du32, 0x7FC00000u));
  return hn::IfThenElse(hn::RebindMask(du32, hn::IsNaN(v)), quiet, rounded);
}

// v narrowed to bfloat16 codes.
template <class D>
hn::Vec<Codes<D>> NarrowBf16(D df, hn::Vec<D> v) {
  const hn::RebindToSigned<D> di32;
  return hn::DemoteTo(Codes<D>(), hn::BitCast(di32, hn::ShiftRight<16>(RoundedBf16Bits(df, v))));
}

#if HWY_TARGET != HWY_SCALAR
// The 16-bit codes of two float32 vectors, a then b, in one full vector.
template <class D>
using PairCodes = hn::Repartition<uint16_t, D>;

// a and b narrowed to bfloat16 codes, a's lanes first: the high halves of their rounded bits,
// gathered by one shuffle, where narrowing each vector takes a shift, a pack and a permute (with a
// simpler NaN rule, in-process A/B on AVX-512: SmoothL1 backward, 16M bfloat16, 2 threads,
// 1.20-1.22x; float32 and float16 inputs into bfloat16 1.07-1.10x; streamed bfloat16 pooling
// planes 1.17x).
template <class D>
hn::Vec<PairCodes<D>> NarrowBf16Pair(D df, hn::Vec<D> a, hn::Vec<D> b) {
  const PairCodes<D> du16;
  return hn::ConcatOdd(du16, hn::BitCast(du16, RoundedBf16Bits(df, b)),
                       hn::BitCast(du16, RoundedBf16Bits(df, a)));
}
#endif

// v narrowed to float16 codes.
template <class D>
hn::Vec<Codes<D>> NarrowHalf(D df, hn::Vec<D> v) {
  if constexpr (kHalfInHardware) {
    const hn::Rebind<hwy::float16_t, D> dh;
    return hn::BitCast(Codes<D>(), hn::DemoteTo(dh, CanonicalNan(df, v)));
  } else {
    alignas(HWY_MAX_BYTES) float lanes[HWY_MAX_BYTES / sizeof(float)];
    alignas(HWY_MAX_BYTES) uint16_t codes[HWY_MAX_BYTES / sizeof(float)];
    hn::Store(v, df, lanes);
    for (size_t i = 0; i < hn::Lanes(df); ++i) {
      codes[i] = oa::float_to_half(lanes[i]);
    }
    return hn::Load(Codes<D>(), codes);
  }
}

// Lanes(df) elements of a FLOAT, FLOAT16 or BF16 array at base, from element i, widened.
template <class D>
hn::Vec<D> LoadAsFloat(D df, aclDataType dtype, const void* base, int64_t i) {
  switch (dtype) {
    case ACL_FLOAT16:
      return WidenHalf(df, static_cast<const uint16_t*>(base) + i);
    case ACL_BF16:
      return WidenBf16(df, static_cast<const uint16_t*>(base) + i);
    default:
      return hn::LoadU(df, static_cast<const float*>(base) + i);
  }
}

// v narrowed into Lanes(df) elements of a FLOAT, FLOAT16 or BF16 array at base, from element i.
template <class D>
void StoreFromFloat(D df, hn::Vec<D> v, aclDataType dtype, void* base, int64_t i) {
  switch (dtype) {
    case ACL_FLOAT16:
      hn::StoreU(NarrowHalf(df, v), Codes<D>(), static_cast<uint16_t*>(base) + i);
      return;
    case ACL_BF16:
      hn::StoreU(NarrowBf16(df, v), Codes<D>(), static_cast<uint16_t*>(base) + i);
      return;
    default:
      hn::StoreU(v, df, static_cast<float*>(base) + i);
      return;
  }
}

// a and b narrowed into 2 * Lanes(df) elements of a FLOAT, FLOAT16 or BF16 array at base, from
// element i, a's lanes first.
template <class D>
void StorePairFromFloat(D df, hn::Vec<D> a, hn::Vec<D> b, aclDataType dtype, void* base,
                        int64_t i) {
#if HWY_TARGET != HWY_SCALAR
  if (dtype == ACL_BF16) {
    hn::StoreU(NarrowBf16Pair(df, a, b), PairCodes<D>(), static_cast<uint16_t*>(base) + i);
    return;
  }
#endif
  StoreFromFloat(df, a, dtype, base, i);
  StoreFromFloat(df, b, dtype, base, i + static_cast<int64_t>(hn::Lanes(df)));
}

// f(std::integral_constant<aclDataType, kAll>{}), with kAll the dtype that dtype[0, count) all
// share, or ACL_DT_UNDEFINED when they differ (each is then read at run time): kernels specialise
// on the common case of one dtype.
template <class F>
decltype(auto) WithCommonDtype(const aclDataType* dtype, int count, const F& f) {
  bool one_dtype = true;
  for (int o = 1; o < count; ++o) {
    one_dtype = one_dtype && dtype[o] == dtype[0];
  }
  switch (one_dtype ? dtype[0] : ACL_DT_UNDEFINED) {
    case ACL_FLOAT:
      return f(std::integral_constant<aclDataType, ACL_FLOAT>{});
    case ACL_FLOAT16:
      return f(std::integral_constant<aclDataType, ACL_FLOAT16>{});
    case ACL_BF16:
      return f(std::integral_constant<aclDataType, ACL_BF16>{});
    default:
      return f(std::integral_constant<aclDataType, ACL_DT_UNDEFINED>{});
  }
}

// How far ahead of a loop over operands far larger than the caches its inputs are prefetched: the
// hardware prefetchers alone left the loads waiting (SmoothL1 backward, 16M elements, 2 threads,
// in-process A/B on an AVX-512 host; float32 at 1, 2, 4 and 8 KiB: 1.08-1.09x, 1.12x, 1.00-1.05x,
// 1.00x while the host was quiet, 0.98-1.02x at 2 KiB while it was busy; 16-bit at 2 KiB
// 1.03-1.13x). Data in cache gains nothing and pays the extra instructions (0.86x on 16K float32
// elements), so only such loops prefetch.
constexpr int64_t kPrefetchBytes = 2048;

// The same for kernels called on float32 blocks of 512 elements (the elementwise engine's block
// path: broadcast and strided strips), which stop between blocks: twice as far ahead keeps more
// loads in flight across the stops (SmoothL1 backward, float32, 16M elements, 2 threads, in-process
// A/B: target [4096, 1] 1.02-1.31x, median 1.18x; 0-d gradOutput 1.02-1.22x, median 1.14x). The
// register path, one loop over the whole strip, was 0.96-0.99x with it, so it keeps 2 KiB.
constexpr int64_t kBlockPrefetchBytes = 4096;

// Prefetches the cache line `distance` bytes past element i of an array of elements of `bytes` at
// base (a hint: it never faults, also past the array's end).
inline void PrefetchAhead(const void* base, int64_t i, int64_t bytes,
                          int64_t distance = kPrefetchBytes) {
  const uintptr_t at = reinterpret_cast<uintptr_t>(base) + static_cast<uintptr_t>(i * bytes) +
                       static_cast<uintptr_t>(distance);
  hwy::Prefetch(reinterpret_cast<const char*>(at));
}

// The elements of out to store normally before it is aligned to Lanes(df) elements of type T, for
// streaming (0 when out is not even aligned to T; the caller then checks before streaming).
template <class D, typename T>
int64_t StreamHead(D df, const T* out, int64_t n) {
  const auto bytes = static_cast<uintptr_t>(hn::Lanes(df) * sizeof(T));
  const auto misalignment = reinterpret_cast<uintptr_t>(out) % bytes;
  if (misalignment % sizeof(T) != 0) {
    return 0;
  }
  return std::min<int64_t>(n, static_cast<int64_t>((bytes - misalignment) % bytes / sizeof(T)));
}

}  // namespace HWY_NAMESPACE
}  // namespace oa::simd
HWY_AFTER_NAMESPACE();

#endif
