// What the ConvTbc kernels share: strided views of the operator's tensors, the sizes of the
// problem, and how cubeMathType rounds a FLOAT operand before it is multiplied.
#pragma once

#include <cstdint>

#include "acl/acl_base.h"

namespace oa::tbc {

// A tensor as the kernels see it: element (i0, i1, i2) of a rank-3 tensor (a rank-1 tensor is
// one with i0 = i1 = 0) lies at data + (i0 * stride[0] + i1 * stride[1] + i2 * stride[2]) *
// element_bytes. data already includes the tensor's view offset.
struct View {
  char* data = nullptr;
  aclDataType dtype = ACL_FLOAT;
  int64_t element_bytes = 4;
  int64_t stride[3] = {0, 0, 0};

  char* at(int64_t i0, int64_t i1) const {
    return data + (i0 * stride[0] + i1 * stride[1]) * element_bytes;
  }
};

// The sizes of one ConvTbc problem: input (t, b, ci), weight (k, ci, co), output (tout, b, co),
// tout = t + 2 * pad - k + 1.
struct Dims {
  int64_t t = 0;
  int64_t b = 0;
  int64_t ci = 0;
  int64_t co = 0;
  int64_t k = 0;
  int64_t pad = 0;
  int64_t tout = 0;
};

// How an operand is rounded before multiplying (SPEC section 8, cubeMathType): hf32 keeps 11
// mantissa bits of a float32 (round to nearest-even), fp16 rounds to IEEE binary16 and back.
// Operands that are not FLOAT are never rounded (their values are already representable).
enum class Rounding : uint8_t { none, hf32, fp16 };

// The element type in which a product's GEMM reads both operands: float32, or bfloat16 when both
// tensors are BF16 (the CPU's bfloat16 dot products then run at twice the float32 rate; their
// products are exact and their sums float32 — see kernels/conv_tbc/precision.h for when they may
// be used). The result is float32 either way.
enum class Precision : uint8_t { f32, bf16 };

inline int64_t operand_bytes(Precision precision) { return precision == Precision::bf16 ? 2 : 4; }

}  // namespace oa::tbc
