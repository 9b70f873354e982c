// Rows of elements between a tensor's dtype and the float32 the matrix products use.
#pragma once

#include <cstdint>

#include "acl/acl_base.h"
#include "kernels/conv_tbc/view.h"

// The row loops below are compiled for AVX-512 (x86-64-v4), AVX2 (x86-64-v3) and the baseline,
// chosen by the CPU at load time. They are elementwise (no reassociated sums), so every version
// gives the same bits.
#define OA_TBC_ROW_LOOP \
  __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))

namespace oa::tbc {

// float32 with 11 explicit mantissa bits (HF32), rounded to nearest-even from x. Values past the
// largest HF32 become +-Inf; NaN stays NaN.
float round_hf32(float x);

// dst[i] = the float32 value of the element at src + i * stride elements (FLOAT, FLOAT16 or
// BF16, widened exactly), then rounded as `rounding` says, for i < n.
void load_row(const char* src, aclDataType dtype, int64_t stride, int64_t n, Rounding rounding,
              float* dst);

// The element at dst + i * stride elements = src[i], rounded once to dtype (FLOAT, FLOAT16, BF16,
// HIFLOAT8 or FLOAT8_E4M3FN, with the core's conversions), for i < n.
void store_row(const float* src, int64_t n, aclDataType dtype, char* dst, int64_t stride);

// sums[i] += the float32 value of the element at src + i * stride elements (FLOAT, FLOAT16 or
// BF16), for i < n. The sums are float64: the adds are exact far beyond any float32 sum.
void add_row(const char* src, aclDataType dtype, int64_t stride, int64_t n, double* sums);

// Zero (all bits clear, which is +0 in every dtype here) into n elements, stride elements apart.
void zero_row(char* dst, int64_t n, int64_t stride, int64_t element_bytes);

// Whether no value of the row is an infinity or a NaN.
bool all_finite(const float* row, int64_t n);

}  // namespace oa::tbc
