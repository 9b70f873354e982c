// When a product may read its BF16 operands as bfloat16, and the rows that packing copies for it.
//
// The CPU's bfloat16 dot products (AVX512-BF16, which oneDNN uses) treat subnormal inputs and
// results as zero. Everything else matches float32 arithmetic on the widened operands: each
// product of two bfloat16 values is exact in float32, and the sums are float32 sums. A bfloat16
// value v with |v| >= 2^-56 is an integer multiple of 2^-63 (it has 8 significant bits), so the
// product of two such values is a multiple of 2^-126, and so is every float32 sum of such
// products (rounded or not). A nonzero multiple of 2^-126 is never subnormal. So when every
// nonzero operand value has |v| >= 2^-56 (Inf and NaN included, zeros allowed) the flushing never
// acts, and the bfloat16 products give exactly what float32 operands would under the same summation
// order. Packing checks this for every row; when some value is smaller, the run packs again in
// float32 and uses the float32 products.
#pragma once

#include <cstdint>

#include "acl/acl_base.h"
#include "core/cube_math.h"
#include "core/gemm.h"
#include "core/isa.h"

namespace oa::conv {

// What packing one row of an operand found.
struct PackedRow {
  bool finite = true;  // no Inf or NaN (only looked at when asked for)
  bool wide = true;    // bfloat16: every value zero or of magnitude >= 2^-56 (float32: always)
};

// Packs n elements of a FLOAT, FLOAT16 or BF16 tensor (src + i * stride elements apart) into dst
// as `precision` says: float32 (widened exactly, then rounded as `rounding` says) or bfloat16 (a
// copy; the tensor is then BF16 and no rounding applies).
PackedRow pack_operand_row(Isa isa, const char* src, aclDataType dtype, int64_t stride, int64_t n,
                           CubeRounding rounding, Precision precision, void* dst,
                           bool check_finite);

// n zeros of `precision` at dst.
void zero_operand_row(Precision precision, void* dst, int64_t n);

// Copies n BF16 elements, src + i * stride elements apart, to dst. Returns whether each of them
// is zero or has |v| >= 2^-56 (see above; rows_simd.h scans for both).
bool copy_bf16_row(const char* src, int64_t stride, int64_t n, uint16_t* dst);

}  // namespace oa::conv
