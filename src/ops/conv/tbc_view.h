// What the ConvTbc kernels share: strided views of the operator's tensors and the sizes of the
// problem.
#pragma once

#include <cstdint>

#include "acl/acl_base.h"
#include "base/dtype.h"
#include "core/tensor.h"

namespace oa::conv {

// A tensor as the kernels see it: element (i0, i1, i2) of a rank-3 tensor (a rank-1 tensor is
// one with i0 = i1 = 0) lies at data + (i0 * stride[0] + i1 * stride[1] + i2 * stride[2]) *
// element_bytes. data already includes the tensor's view offset.
struct TbcView {
  char* data = nullptr;
  aclDataType dtype = ACL_FLOAT;
  int64_t element_bytes = 4;
  int64_t stride[3] = {0, 0, 0};

  char* at(int64_t i0, int64_t i1) const {
    return data + (i0 * stride[0] + i1 * stride[1]) * element_bytes;
  }
  // The element offset of (i0, i1, i2) from data.
  int64_t offset(int64_t i0, int64_t i1, int64_t i2) const {
    return i0 * stride[0] + i1 * stride[1] + i2 * stride[2];
  }
};

// The view of a checked rank-3 or rank-1 tensor.
inline TbcView view_of(const aclTensor& tensor) {
  TbcView v;
  v.dtype = tensor.dtype;
  v.element_bytes = dtype_bits(tensor.dtype) / 8;
  v.data = first_element(tensor);
  const size_t rank = tensor.shape.size();
  for (size_t i = 0; i < rank; ++i) {
    v.stride[3 - rank + i] = tensor.strides[i];
  }
  return v;
}

// The sizes of one ConvTbc problem: input (t, b, ci), weight (k, ci, co), output (tout, b, co),
// tout = t + 2 * pad - k + 1.
struct TbcDims {
  int64_t t = 0;
  int64_t b = 0;
  int64_t ci = 0;
  int64_t co = 0;
  int64_t k = 0;
  int64_t pad = 0;
  int64_t tout = 0;
};

}  // namespace oa::conv
