// Rows of elements between a tensor's dtype and the float32 the matrix products use: the core's
// conversions (core/convert.h, Highway-dispatched for contiguous rows) and cubeMathType's operand
// rounding (core/cube_math.h).
#pragma once

#include <cstdint>

#include "acl/acl_base.h"
#include "core/convert.h"
#include "core/cube_math.h"

namespace oa::conv {

// dst[i] = the float32 value of the element at src + i * stride elements (FLOAT, FLOAT16 or
// BF16, widened exactly), then rounded as `rounding` says, for i < n.
void load_row(Isa isa, const char* src, aclDataType dtype, int64_t stride, int64_t n,
              CubeRounding rounding, float* dst);

// Element i of an array at base = value, rounded once to dtype (FLOAT, FLOAT16, BF16, HIFLOAT8 or
// FLOAT8_E4M3FN, with the core's conversions).
inline void store_value(aclDataType dtype, float value, void* base, int64_t i) {
  switch (dtype) {
    case ACL_HIFLOAT8:
      static_cast<uint8_t*>(base)[i] = float_to_hif8(value);
      return;
    case ACL_FLOAT8_E4M3FN:
      static_cast<uint8_t*>(base)[i] = float_to_e4m3fn(value);
      return;
    default:
      store_float(dtype, value, base, i);
      return;
  }
}

// The element at dst + i * stride elements = src[i], rounded once to dtype (as store_value), for
// i < n.
void store_row(Isa isa, const float* src, int64_t n, aclDataType dtype, char* dst, int64_t stride);

// sums[i] += the float32 value of the element at src + i * stride elements (FLOAT, FLOAT16 or
// BF16), for i < n. The sums are float64: the adds are exact far beyond any float32 sum.
void add_row(Isa isa, const char* src, aclDataType dtype, int64_t stride, int64_t n, double* sums);

// Zero (all bits clear, which is +0 in every dtype here) into n elements, stride elements apart.
void zero_row(char* dst, int64_t n, int64_t stride, int64_t element_bytes);

}  // namespace oa::conv
