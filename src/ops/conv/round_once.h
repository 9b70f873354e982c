// Storing a float64 result into an output of any dtype the convolutions write, rounded once: for
// FLOAT the nearest float32; for the narrower types (FLOAT16, BF16, HIFLOAT8, FLOAT8_E4M3FN) the
// core's conversion of the result rounded to float32 *to odd* (toward zero, the last bit set when
// inexact). Float32 keeps at least 13 more bits than any of them, and rounding to odd first keeps
// both whether the result lies exactly halfway and which side it lies on, so the core's rounding
// of that float32 is the rounding of the float64 result itself (under each type's own rule:
// nearest-even, ties away from zero for HIFLOAT8, saturation for FLOAT8_E4M3FN).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

#include "acl/acl_base.h"
#include "ops/conv/rows.h"

namespace oa::conv {

// value rounded to float32 to odd (NaN and infinities as they are; beyond the largest float32,
// the largest float32, which every narrower type rounds or saturates as it would value).
inline float round_to_odd(double value) {
  const auto nearest = static_cast<float>(value);
  if (!std::isfinite(value) || static_cast<double>(nearest) == value) {
    return nearest;
  }
  const float toward_zero = std::fabs(static_cast<double>(nearest)) > std::fabs(value)
                                ? std::nextafter(nearest, 0.0f)
                                : nearest;
  uint32_t bits;
  std::memcpy(&bits, &toward_zero, sizeof bits);
  bits |= 1u;
  float odd;
  std::memcpy(&odd, &bits, sizeof odd);
  return odd;
}

// Element i of an array of dtype at base = value, rounded once.
inline void store_result(aclDataType dtype, double value, void* base, int64_t i) {
  store_value(dtype, dtype == ACL_FLOAT ? static_cast<float>(value) : round_to_odd(value), base, i);
}

}  // namespace oa::conv
