// Bulk conversions between a tensor's storage type and float32, the compute type of every
// floating-point kernel (SPEC section 4). Widening is exact; narrowing rounds once to nearest-even;
// NaN stays NaN (canonical quiet NaN keeping the sign). The SIMD and scalar paths give the same
// bits.
#pragma once

#include <cstdint>

#include "acl/acl_base.h"
#include "base/float_convert.h"
#include "core/isa.h"

namespace oa {

// Whether load_floats/store_floats handle dtype (FLOAT, FLOAT16, BF16).
bool is_float_dtype(aclDataType dtype);

// dst[i] = float(src[i * stride]) for i < n; stride in elements (0 broadcasts one value).
void load_floats(Isa isa, aclDataType dtype, const void* src, int64_t stride, int64_t n,
                 float* dst);

// dst[i * stride] = dtype(src[i]) for i < n; stride in elements.
void store_floats(Isa isa, aclDataType dtype, const float* src, int64_t n, void* dst,
                  int64_t stride);

// Element i of a FLOAT, FLOAT16 or BF16 array at base, widened.
inline float load_float(aclDataType dtype, const void* base, int64_t i) {
  switch (dtype) {
    case ACL_FLOAT16:
      return half_to_float(static_cast<const uint16_t*>(base)[i]);
    case ACL_BF16:
      return bf16_to_float(static_cast<const uint16_t*>(base)[i]);
    default:
      return static_cast<const float*>(base)[i];
  }
}

// Element i of a FLOAT, FLOAT16 or BF16 array at base = value, narrowed.
inline void store_float(aclDataType dtype, float value, void* base, int64_t i) {
  switch (dtype) {
    case ACL_FLOAT16:
      static_cast<uint16_t*>(base)[i] = float_to_half(value);
      return;
    case ACL_BF16:
      static_cast<uint16_t*>(base)[i] = float_to_bf16(value);
      return;
    default:
      static_cast<float*>(base)[i] = value;
      return;
  }
}

}  // namespace oa
