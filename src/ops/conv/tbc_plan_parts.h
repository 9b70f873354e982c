// The pieces the oneDNN implementations of ConvTbc and its backward plan with (tbc_plan.cpp).
#pragma once

#include <cstdint>
#include <vector>

#include "aclnn/aclnn_base.h"
#include "core/tensor.h"
#include "ops/conv/tbc_view.h"
#include "ops/conv/toeplitz.h"
#include "ops/conv/weight_grad.h"

namespace oa::conv {

// About this many GEMM items per operator, so that up to 16 threads get balanced shares; fewer
// when the products are small (an item keeps at least kMinRows rows). A Toeplitz tile holds at
// most about kTileFloats floats (it stays in the core's cache until its rows are stored).
constexpr int64_t kTargetItems = 32;
constexpr int64_t kMinRows = 32;
constexpr int64_t kTileFloats = 65536;
// Residue classes with fewer rows per batch than this are folded across the batches: oneDNN's
// kernels work in blocks of several rows, and a short class wastes part of its last block.
constexpr int64_t kFoldBelowRows = 48;

// Whether a rank-3 tensor (d0, d1, d2) of `dtype` is, for every index of d0, a dense d1 x d2
// matrix; with dense_outer also the d0 matrices follow each other densely. (oneDNN's fast kernels
// take dense matrices only.)
bool dense(const aclTensor& tensor, aclDataType dtype, bool dense_outer);

// The precision of a product of operands of these dtypes: bfloat16 when both are BF16 and oneDNN
// multiplies bfloat16 on this CPU, else float32 (float32 sums of exact products either way:
// ops/conv/precision.h).
Precision precision_of(aclDataType a, aclDataType b);

// Byte offsets of the workspace's regions, each 64-byte aligned.
class Layout {
 public:
  int64_t add(int64_t bytes);
  int64_t total() const { return total_; }

 private:
  int64_t total_ = 0;
};

// Sets the blocks of the Toeplitz product's buffer (needed_rows per batch: the padded input) and
// whether its classes are folded across the batches.
void fold_toeplitz(Toeplitz* p, int64_t needed_rows);

// Cuts the Toeplitz product into tasks (phase 1, before the slot count is known): fills tasks
// (with the index of their row count in *row_counts), tile_rows and border_rows.
void split_toeplitz(Toeplitz* p, std::vector<int64_t>* row_counts);

// Plans the oneDNN products for `slots` slots, in the plan's precision and, when that is
// bfloat16, in float32 too; on failure returns 561000 with a message naming op.
aclnnStatus plan_toeplitz_gemms(const char* op, Toeplitz* p, const std::vector<int64_t>& row_counts,
                                int slots);
aclnnStatus plan_weight_grad_gemms(const char* op, WeightGrad* p, int slots);

// Slots for GEMM items of these costs (FLOPs): the thread count now, at most one per item and one
// per kFlopsPerSlot of work.
int plan_slots(const std::vector<double>& costs);

// Each slot's space: the largest scratchpad of the products, the Toeplitz product's tiles.
SlotLayout slot_layout_of(const Toeplitz& toeplitz, const WeightGrad* weight_grad);

}  // namespace oa::conv
