// Contiguous float16/bfloat16 <-> float32 conversions in SIMD (Highway, dispatched at run time).
// Bit-identical to the scalar conversions of float_convert.h.
#pragma once

#include <cstdint>

namespace oa::simd {

void half_to_float(const uint16_t* src, int64_t n, float* dst);
void bf16_to_float(const uint16_t* src, int64_t n, float* dst);
void float_to_half(const float* src, int64_t n, uint16_t* dst);
void float_to_bf16(const float* src, int64_t n, uint16_t* dst);

}  // namespace oa::simd
