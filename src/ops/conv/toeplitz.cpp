#include "ops/conv/toeplitz.h"

#include <algorithm>
#include <cstring>

#include "ops/conv/rows.h"

namespace oa::conv {

bool run_toeplitz_task(const Toeplitz& p, const Toeplitz::Task& task, int slot,
                       const ToeplitzOperands& o, const SlotSpace& space) {
  const Gemm& gemm = *p.products_for(o.precision).tasks[static_cast<size_t>(task.gemm)];
  const int64_t first_row = task.r + p.taps * task.m0;
  const int64_t element = operand_bytes(o.precision);
  const char* a_rows = o.a + (task.b * p.block_rows + first_row) * p.c * element;
  if (!gemm.run(slot, a_rows, o.w, space.tile, o.bias, space.onednn)) {
    return false;
  }
  const int64_t per_batch = p.block_rows / p.taps;  // a folded class's rows per batch
  for (int64_t i = 0; i < gemm.shape().m; ++i) {
    int64_t m = task.m0 + i;
    int64_t b = task.b;
    if (p.folded) {
      b = m / per_batch;
      m %= per_batch;
    }
    const int64_t t = task.r + p.taps * m;
    if (t < p.rows) {
      store_row(o.isa, space.tile + i * p.n, p.n, o.out.dtype, o.out.at(t, b), o.out.stride[2]);
    }
  }
  return true;
}

bool run_toeplitz_border_row(const Toeplitz& p, int64_t index, int slot, const ToeplitzOperands& o,
                             const SlotSpace& space) {
  const int64_t t = p.border_rows[static_cast<size_t>(index)];
  for (int64_t b = 0; b < p.batches; ++b) {
    float* row = space.tile + b * p.n;
    if (p.bias) {
      std::copy(o.bias, o.bias + p.n, row);
    } else {
      std::fill(row, row + p.n, 0.0f);
    }
  }
  const Gemm& tap = *p.products_for(o.precision).tap;
  const int64_t element = operand_bytes(o.precision);
  const int64_t row_bytes = p.c * element;
  const int64_t first_tap = std::max<int64_t>(0, p.data_begin - t);
  const int64_t end_tap = std::min(p.taps, p.data_end - t);
  for (int64_t j = first_tap; j < end_tap; ++j) {
    for (int64_t b = 0; b < p.batches; ++b) {
      std::memcpy(space.rows + b * row_bytes, o.a + (b * p.block_rows + t + j) * row_bytes,
                  static_cast<size_t>(row_bytes));
    }
    if (!tap.run(slot, space.rows, o.w + j * p.c * p.n * element, space.tile, nullptr,
                 space.onednn)) {
      return false;
    }
  }
  for (int64_t b = 0; b < p.batches; ++b) {
    store_row(o.isa, space.tile + b * p.n, p.n, o.out.dtype, o.out.at(t, b), o.out.stride[2]);
  }
  return true;
}

}  // namespace oa::conv
