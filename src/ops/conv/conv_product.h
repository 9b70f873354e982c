// ConvPrimitive's form for a kernel of size 1 without padding, in one group (conv_primitive.h):
// per sample, the forward pass y = w . x, the data pass dx = w^T . dy and the weight pass
// dw += dy . x^T are each one matrix product over the caller's row-major tensors (channels by
// spatial elements). Where the stride skips elements of x, the forward and weight passes read a
// subsampled copy of x and the data pass scatters its product into zeros.
#pragma once

#include <cstdint>
#include <memory>

#include "core/gemm.h"
#include "ops/conv/conv_primitive.h"

namespace oa::conv {

struct ConvPrimitive::Product {
  std::shared_ptr<const Gemm> gemm;
  std::shared_ptr<const Gemm> accumulating;  // the weight pass's samples after the first
  Pass pass = Pass::forward;
  int64_t n = 0;  // samples
  int64_t cx = 0;
  int64_t cy = 0;
  int64_t x[3] = {1, 1, 1};
  int64_t y[3] = {1, 1, 1};
  int64_t stride[3] = {1, 1, 1};
  int64_t bytes = 4;  // of an operand element
  // x is not y element for element: the product's side of x is subsampled (forward, weight
  // pass) or scattered (data pass) through the scratch at `staged_offset`.
  bool strided = false;
  int64_t staged_offset = 0;
};

}  // namespace oa::conv
