// The sliding-window product both the forward and gradInput are, for t < rows and b < batches:
//   out[t, b, :] = sum over j < taps of A_b[t + j, :] . W[j]   (+ bias)
// where A_b is batch b's block of a padded buffer (block_rows rows of c values; rows outside
// [data_begin, data_end) are zero padding) and W[j] is the c x n slice j of a (taps * c) x n
// matrix. The forward has A = the padded input, W = weight; gradInput has A = the padded self
// and W = the weight flipped along k and transposed.
//
// Folding the taps: the rows t = r, r + taps, r + 2 taps, ... of one residue class r lie exactly
// taps * c values apart in A_b, and each one's window of taps rows is taps * c contiguous values.
// So the class is one matrix of depth taps * c over A_b itself, and one GEMM per (class, batch,
// block of rows) computes the whole product: no unfolded copy, the same GEMM depth for any taps.
//
// Folding the batches: when a class has few rows per batch, a batch's block is made a multiple
// of taps rows long, so that the class's rows of all batches are taps * c values apart too and
// one GEMM spans several batches. Rows it computes past the end of a batch's output are dropped.
//
// Exactness: padding rows are zeros multiplied by W, which changes nothing while W is finite. An
// Inf or NaN in W would turn 0 * Inf into NaN where the formula has no term at all, so then the
// rows whose window reaches the padding ("border rows") are recomputed tap by tap over the taps
// inside the data only.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "core/gemm.h"
#include "core/isa.h"
#include "ops/conv/slots.h"
#include "ops/conv/tbc_view.h"

namespace oa::conv {

// The oneDNN products of a Toeplitz plan for one operand precision: one per task row count, and
// the tap product of the border rows (null when no row reaches the padding).
struct ToeplitzProducts {
  std::vector<std::shared_ptr<const Gemm>> tasks;
  std::shared_ptr<const Gemm> tap;
};

struct Toeplitz {
  int64_t rows = 0;
  int64_t batches = 0;
  int64_t taps = 0;
  int64_t c = 0;
  int64_t n = 0;
  int64_t block_rows = 0;  // rows of one batch's block of A (a multiple of taps when folded)
  bool folded = false;
  int64_t data_begin = 0;
  int64_t data_end = 0;
  bool bias = false;

  // Rows m0, m0 + 1, ... (as many as gemm's row count) of residue class r in batch b; folded, b is
  // 0 and row m is time r + taps * (m % (block_rows / taps)) of batch m / (block_rows / taps).
  // Each GEMM writes a dense tile (oneDNN's fast kernels take dense matrices only), whose rows
  // are then stored into the output, converted to its dtype.
  struct Task {
    int32_t gemm;
    int32_t r;
    int64_t b;
    int64_t m0;
  };
  std::vector<Task> tasks;
  int64_t tile_rows = 0;  // the most rows a tile holds
  // The border rows; the tap product recomputes one tap of one of them, (batches x c) . (c x n)
  // accumulating, from a dense copy of its input rows.
  std::vector<int64_t> border_rows;

  // The products for the operands' precision, and float32 ones for a run whose bfloat16 operands
  // hold values too small for the bfloat16 products (precision.h; empty when precision is f32).
  Precision precision = Precision::f32;
  ToeplitzProducts products;
  ToeplitzProducts f32_products;

  const ToeplitzProducts& products_for(Precision operands) const {
    return operands == precision ? products : f32_products;
  }
  // Rows of the buffer A: the batches' blocks, and when folded taps - 1 zero rows after them that
  // the last batch's dropped rows read.
  int64_t buffer_rows() const { return batches * block_rows + (folded ? taps - 1 : 0); }
};

// The operands of one run: A (the padded buffer) and W in `precision`, the bias (n floats, when
// the product has one), and the (rows, batches, n) output tensor.
struct ToeplitzOperands {
  Isa isa;  // of the output's conversions
  Precision precision;
  const char* a;
  const char* w;
  const float* bias;
  TbcView out;
};

bool run_toeplitz_task(const Toeplitz& p, const Toeplitz::Task& task, int slot,
                       const ToeplitzOperands& o, const SlotSpace& space);

// Recomputes border row border_rows[index] of every batch from the taps inside the data only.
bool run_toeplitz_border_row(const Toeplitz& p, int64_t index, int slot, const ToeplitzOperands& o,
                             const SlotSpace& space);

}  // namespace oa::conv
