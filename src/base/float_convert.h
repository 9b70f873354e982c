#pragma once

// Scalar conversions between float32 and the narrow floating types (SPEC section 4).
//
// Contracts:
// - Widening (x_to_float) is exact for every finite and infinite code.
// - Narrowing rounds once, from the float32 value, with the rounding named per function.
// - NaN always stays NaN. Narrowing produces a canonical quiet NaN as documented per function;
//   the payload is not kept.
// - The half/bf16 paths use bit manipulation (and one exact multiply), so they do not depend on
//   the FPU rounding mode or on flush-to-zero / denormals-are-zero settings.

#include <cstdint>
#include <cstring>

namespace oa {

namespace detail {

inline uint32_t float_bits(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  return bits;
}

inline float bits_float(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof(value));
  return value;
}

// Shifts `value` right by `shift` (1..31) with round-to-nearest-even on the dropped bits.
inline uint32_t shift_right_rne(uint32_t value, uint32_t shift) {
  const uint32_t half = 1u << (shift - 1);
  const uint32_t rest = value & ((half << 1) - 1);
  uint32_t q = value >> shift;
  if (rest > half || (rest == half && (q & 1u))) {
    ++q;
  }
  return q;
}

}  // namespace detail

// IEEE binary16 -> float32, exact. A NaN keeps its sign and payload and comes back quiet
// (the quiet bit is set), as the F16C instruction vcvtph2ps does.
inline float half_to_float(uint16_t bits) {
  const uint32_t sign = static_cast<uint32_t>(bits & 0x8000u) << 16;
  const uint32_t exp = (bits >> 10) & 0x1Fu;
  const uint32_t mant = bits & 0x3FFu;
  if (exp == 0x1F) {
    const uint32_t quiet = mant != 0 ? 0x00400000u : 0u;
    return detail::bits_float(sign | 0x7F800000u | quiet | (mant << 13));
  }
  if (exp != 0) {
    return detail::bits_float(sign | ((exp + 112u) << 23) | (mant << 13));
  }
  if (mant == 0) {
    return detail::bits_float(sign);
  }
  // Subnormal: mant * 2^-24. Both steps are exact and the result is a normal float, so neither
  // the rounding mode nor flush-to-zero can change it.
  return detail::bits_float(sign | detail::float_bits(static_cast<float>(mant) * 0x1p-24f));
}

// float32 -> IEEE binary16, round to nearest even. |x| >= 65520 (and Inf) -> +-Inf;
// NaN -> 0x7E00 | sign; subnormal halves are produced; +-0 and tiny values keep their sign.
inline uint16_t float_to_half(float value) {
  const uint32_t bits = detail::float_bits(value);
  const uint32_t sign = (bits >> 16) & 0x8000u;
  const uint32_t a = bits & 0x7FFFFFFFu;
  if (a > 0x7F800000u) {
    return static_cast<uint16_t>(sign | 0x7E00u);
  }
  if (a >= 0x477FF000u) {
    return static_cast<uint16_t>(sign | 0x7C00u);  // >= 65520 rounds to Inf
  }
  if (a >= 0x38800000u) {  // >= 2^-14: normal half
    const uint32_t r = a - (112u << 23) + 0xFFFu + ((a >> 13) & 1u);
    return static_cast<uint16_t>(sign | (r >> 13));
  }
  const uint32_t e = a >> 23;
  if (e < 102) {
    return static_cast<uint16_t>(sign);  // < 2^-25: below half the smallest subnormal
  }
  // Subnormal half: count units of 2^-24. A carry to 0x400 yields the smallest normal code.
  const uint32_t mant = (a & 0x7FFFFFu) | 0x800000u;
  return static_cast<uint16_t>(sign | detail::shift_right_rne(mant, 126u - e));
}

// bfloat16 -> float32, exact (the bits are the high half of the float).
inline float bf16_to_float(uint16_t bits) {
  return detail::bits_float(static_cast<uint32_t>(bits) << 16);
}

// float32 -> bfloat16, round to nearest even; values that round past the largest finite bf16
// become +-Inf; NaN -> 0x7FC0 | sign.
inline uint16_t float_to_bf16(float value) {
  const uint32_t bits = detail::float_bits(value);
  if ((bits & 0x7FFFFFFFu) > 0x7F800000u) {
    return static_cast<uint16_t>(((bits >> 16) & 0x8000u) | 0x7FC0u);
  }
  return static_cast<uint16_t>((bits + 0x7FFFu + ((bits >> 16) & 1u)) >> 16);
}

// FLOAT8_E4M3FN (1-4-3, bias 7, no infinities, NaN = 0x7F/0xFF, max 448) -> float32, exact.
float e4m3fn_to_float(uint8_t bits);

// float32 -> FLOAT8_E4M3FN: round to nearest even; finite values beyond +-448 and +-Inf
// saturate to +-448; NaN (either sign) -> 0x7F; +-0 and values that round to zero keep the sign.
uint8_t float_to_e4m3fn(float value);

// HiFloat8 -> float32, exact. 0x00 = 0, 0x80 = NaN, 0x6F/0xEF = +-Inf.
float hif8_to_float(uint8_t bits);

// float32 -> HiFloat8: round to the nearest representable value, ties away from zero.
// |x| >= 40960 -> +-Inf (40960 is the midpoint between 32768 and the 0x6F slot's 1.5 * 2^15);
// 32768 <= |x| < 40960 -> +-32768; |x| < 2^-23 -> 0x00 (there is no negative zero);
// 2^-23 <= |x| < 2^-22 -> +-2^-22; NaN -> 0x80.
uint8_t float_to_hif8(float value);

}  // namespace oa
