// Bulk conversions between a tensor's storage type and float32, the compute type of every
// floating-point kernel (SPEC section 4). Widening is exact; narrowing rounds once to nearest-even;
// NaN stays NaN (canonical quiet NaN keeping the sign). The SIMD and scalar paths give the same
// bits.
#pragma once

#include <cstdint>

#include "acl/acl_base.h"
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

}  // namespace oa
