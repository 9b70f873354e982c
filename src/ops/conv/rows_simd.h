// The ConvTbc kernels' own row loops, in SIMD (Highway, dispatched at run time): elementwise, so
// every target gives the same results.
#pragma once

#include <cstdint>

namespace oa::conv {

// sums[i] += values[i] (widened exactly to float64), for i < n.
void add_floats(const float* values, int64_t n, double* sums);

// Whether no value of the row is an infinity or a NaN.
bool all_finite(const float* row, int64_t n);

// Whether no value of a bfloat16 row is an infinity or a NaN.
bool bf16_all_finite(const uint16_t* row, int64_t n);

// Whether every value of a bfloat16 row is zero or has |v| >= 2^-56 (precision.h says why).
bool bf16_all_wide(const uint16_t* row, int64_t n);

}  // namespace oa::conv
