// Contiguous float16/bfloat16 <-> float32 conversions in SIMD (Highway, dispatched at run time).
// Bit-identical to the scalar conversions of float_convert.h.
#pragma once

#include <cstdint>

#include "acl/acl_base.h"

namespace oa::simd {

void half_to_float(const uint16_t* src, int64_t n, float* dst);
void bf16_to_float(const uint16_t* src, int64_t n, float* dst);
void float_to_half(const float* src, int64_t n, uint16_t* dst);
void float_to_bf16(const float* src, int64_t n, uint16_t* dst);

// Rounds src[0, n) to dtype (FLOAT, FLOAT16 or BF16) into dst, with streaming stores where dst is
// aligned to a vector, and sets src to zero. The streaming stores are not fenced (store_fence in
// core/isa.h does that).
void stream_and_clear(float* src, int64_t n, aclDataType dtype, void* dst);

}  // namespace oa::simd
