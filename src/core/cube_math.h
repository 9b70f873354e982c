// cubeMathType: how CANN's cube unit (its matrix engine) rounds the operands of a product, emulated
// on the CPU by rounding each operand before it is multiplied (SPEC section 8). The products
// themselves are exact in float32 and are summed in float32 or better in every mode.
//   0 KEEP_DTYPE                 operands as they are
//   1 ALLOW_FP32_DOWN_PRECISION  FLOAT operands rounded to HF32
//   2 USE_FP16                   FLOAT operands rounded to IEEE binary16 (overflow -> +-Inf)
//   3 USE_HF32                   FLOAT operands rounded to HF32
// HF32 is float32 with 11 explicit mantissa bits (12 significant), rounded to nearest-even; values
// past the largest HF32 become +-Inf, NaN stays NaN. FLOAT16 and BF16 operands are used as they
// are (every one of their values is already an HF32 value, and the cube takes them natively).
// The scalar functions serve the references, round_floats the fast paths; both give the same bits.
#pragma once

#include <cstdint>
#include <cstring>

#include "acl/acl_base.h"
#include "base/float_convert.h"

namespace oa {

enum class CubeRounding : uint8_t { none, hf32, fp16 };

// The rounding cubeMathType (0..3) applies to an operand of dtype.
CubeRounding cube_rounding(aclDataType dtype, int64_t cube_math_type);

// x rounded to HF32 (see above).
inline float round_hf32(float x) {
  uint32_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  if ((bits & 0x7FFFFFFFu) > 0x7F800000u) {
    return x;
  }
  bits = (bits + 0x7FFu + ((bits >> 12) & 1u)) & ~0xFFFu;
  float rounded;
  std::memcpy(&rounded, &bits, sizeof rounded);
  return rounded;
}

// x rounded to IEEE binary16 and widened back (NaN becomes the canonical quiet NaN).
inline float round_fp16(float x) { return half_to_float(float_to_half(x)); }

inline float cube_round(CubeRounding rounding, float x) {
  switch (rounding) {
    case CubeRounding::hf32:
      return round_hf32(x);
    case CubeRounding::fp16:
      return round_fp16(x);
    default:
      return x;
  }
}

// row[i] = cube_round(rounding, row[i]) for i < n, in SIMD (Highway, dispatched at run time).
void round_floats(CubeRounding rounding, float* row, int64_t n);

}  // namespace oa
