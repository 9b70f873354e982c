#include "core/elementwise.h"

#include <algorithm>
#include <cstdlib>
#include <vector>

#include "base/dtype.h"
#include "core/tensor.h"

namespace oa {
namespace {

// Fills operand from a view broadcast to `shape` (right-aligned; size-1 dims get stride 0).
ElementwiseOperand broadcast_operand(const aclTensor& tensor, const Shape& shape) {
  ElementwiseOperand operand;
  operand.dtype = tensor.dtype;
  operand.element_size = dtype_bits(tensor.dtype) / 8;
  operand.data = first_element(tensor);
  // An empty view's strides are not used either (the broadcast shape is empty too).
  const bool empty = numel(tensor) == 0;
  size_t lead = shape.size() - tensor.shape.size();
  for (size_t d = 0; d < tensor.shape.size(); ++d) {
    operand.strides[lead + d] = tensor.shape[d] == 1 || empty ? 0 : tensor.strides[d];
  }
  return operand;
}

}  // namespace

ElementwiseLoop plan_elementwise(const Shape& shape, const aclTensor* out,
                                 const std::vector<const aclTensor*>& inputs) {
  ElementwiseLoop loop;
  loop.numel = numel(shape);
  ElementwiseOperand full[kMaxOperands];
  if (out != nullptr) {
    full[0] = broadcast_operand(*out, shape);
  }
  loop.operand_count = 1;
  for (const aclTensor* input : inputs) {
    full[loop.operand_count++] = broadcast_operand(*input, shape);
  }

  // Keep the dims of size > 1, ordered by the leading operand's |stride|, largest first (stable,
  // so ties keep the logical order).
  const ElementwiseOperand& lead = full[out != nullptr ? 0 : 1];
  std::vector<int> dims;
  for (int d = 0; d < static_cast<int>(shape.size()); ++d) {
    if (shape[d] != 1) {
      dims.push_back(d);
    }
  }
  std::stable_sort(dims.begin(), dims.end(), [&](int a, int b) {
    return stride_magnitude(lead.strides[a]) > stride_magnitude(lead.strides[b]);
  });

  // Merge each dim into the previous one when every operand steps over it contiguously.
  int rank = 0;
  // A product that overflows (an empty view's strides are not bounded by any memory check) merges
  // nothing.
  for (int d : dims) {
    int64_t merged_size = 0;
    bool merge = rank > 0 && !__builtin_mul_overflow(loop.shape[rank - 1], shape[d], &merged_size);
    for (int o = 0; merge && o < loop.operand_count; ++o) {
      int64_t step = 0;
      merge = !__builtin_mul_overflow(full[o].strides[d], shape[d], &step) &&
              step == loop.operands[o].strides[rank - 1];
    }
    // A merge replaces (outer, inner) by one dim with the inner dim's strides.
    for (int o = 0; o < loop.operand_count; ++o) {
      loop.operands[o].strides[merge ? rank - 1 : rank] = full[o].strides[d];
    }
    if (merge) {
      loop.shape[rank - 1] = merged_size;
    } else {
      loop.shape[rank++] = shape[d];
    }
  }
  if (rank == 0) {  // every dim is 1: a single element
    loop.shape[0] = 1;
    rank = 1;
  }
  loop.rank = rank;
  for (int o = 1; o < loop.operand_count && rank >= 2; ++o) {
    const uint64_t rows = stride_magnitude(loop.operands[o].strides[rank - 2]);
    const uint64_t columns = stride_magnitude(loop.operands[o].strides[rank - 1]);
    loop.tiled = loop.tiled || (columns > 1 && rows < columns);
  }
  for (int o = 0; o < loop.operand_count; ++o) {
    loop.operands[o].data = full[o].data;
    loop.operands[o].dtype = full[o].dtype;
    loop.operands[o].element_size = full[o].element_size;
  }
  const aclDataType first = loop.operands[0].dtype;
  loop.one_16bit_dtype = first == ACL_FLOAT16 || first == ACL_BF16;
  for (int o = 1; o < loop.operand_count; ++o) {
    loop.one_16bit_dtype = loop.one_16bit_dtype && loop.operands[o].dtype == first;
  }
  return loop;
}

namespace {

// Columns ahead of the one being copied whose line stage_tile prefetches.
constexpr int64_t kStagePrefetch = 8;

template <typename T>
void stage_typed(const char* src, int64_t column_stride, int64_t rows, int64_t cols, int64_t ahead,
                 char* dst) {
  const T* in = reinterpret_cast<const T*>(src);
  T* out = reinterpret_cast<T*>(dst);
  for (int64_t c = 0; c < cols; ++c) {
    // The columns lie a page or more apart, where no hardware prefetcher follows: ask ahead.
    if (c + kStagePrefetch < ahead) {
      __builtin_prefetch(in + (c + kStagePrefetch) * column_stride);
    }
    const T* column = in + c * column_stride;
    for (int64_t r = 0; r < rows; ++r) {
      out[r * cols + c] = column[r];
    }
  }
}

}  // namespace

void stage_tile(const char* src, int64_t column_stride, int64_t size, int64_t rows, int64_t cols,
                int64_t ahead, char* dst) {
  switch (size) {
    case 1:
      stage_typed<uint8_t>(src, column_stride, rows, cols, ahead, dst);
      return;
    case 2:
      stage_typed<uint16_t>(src, column_stride, rows, cols, ahead, dst);
      return;
    default:
      stage_typed<uint32_t>(src, column_stride, rows, cols, ahead, dst);
      return;
  }
}

}  // namespace oa
