#include "kernels/conv_tbc/toeplitz.h"

#include <algorithm>

#include "kernels/conv_tbc/convert.h"

namespace oa::tbc {

bool run_toeplitz_task(const Toeplitz& p, const Toeplitz::Task& task, int slot, const float* a,
                       const float* w, const float* bias, const View& out, const SlotSpace& space) {
  const Gemm& gemm = *p.gemms[static_cast<size_t>(task.gemm)];
  const int64_t first_row = task.r + p.taps * task.m0;
  const float* a_rows = a + (task.b * p.block_rows + first_row) * p.c;
  if (!gemm.run(slot, a_rows, w, space.tile, bias, space.onednn)) {
    return false;
  }
  const int64_t rows = gemm.shape().m;
  for (int64_t i = 0; i < rows; ++i) {
    store_row(space.tile + i * p.n, p.n, out.dtype, out.at(first_row + i * p.taps, task.b),
              out.stride[2]);
  }
  return true;
}

bool run_toeplitz_border_row(const Toeplitz& p, int64_t index, int slot, const float* a,
                             const float* w, const float* bias, const View& out,
                             const SlotSpace& space) {
  const int64_t t = p.border_rows[static_cast<size_t>(index)];
  for (int64_t b = 0; b < p.batches; ++b) {
    float* row = space.tile + b * p.n;
    if (p.bias) {
      std::copy(bias, bias + p.n, row);
    } else {
      std::fill(row, row + p.n, 0.0f);
    }
  }
  const int64_t first_tap = std::max<int64_t>(0, p.data_begin - t);
  const int64_t end_tap = std::min(p.taps, p.data_end - t);
  for (int64_t j = first_tap; j < end_tap; ++j) {
    for (int64_t b = 0; b < p.batches; ++b) {
      const float* row = a + (b * p.block_rows + t + j) * p.c;
      std::copy(row, row + p.c, space.rows + b * p.c);
    }
    if (!p.tap->run(slot, space.rows, w + j * p.c * p.n, space.tile, nullptr, space.onednn)) {
      return false;
    }
  }
  for (int64_t b = 0; b < p.batches; ++b) {
    store_row(space.tile + b * p.n, p.n, out.dtype, out.at(t, b), out.stride[2]);
  }
  return true;
}

}  // namespace oa::tbc
