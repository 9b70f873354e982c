#include "ops/conv/tbc_plan_parts.h"

#include <algorithm>
#include <string>

#include "base/dtype.h"
#include "base/parallel.h"
#include "core/executor.h"
#include "core/gemm.h"
#include "ops/conv/work.h"

namespace oa::conv {
namespace {

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

int64_t round_up(int64_t value, int64_t multiple) { return ceil_div(value, multiple) * multiple; }

// The index of `count` in *counts, appended when new.
int32_t variant_of(int64_t count, std::vector<int64_t>* counts) {
  auto found = std::find(counts->begin(), counts->end(), count);
  if (found == counts->end()) {
    counts->push_back(count);
    return static_cast<int32_t>(counts->size() - 1);
  }
  return static_cast<int32_t>(found - counts->begin());
}

}  // namespace

bool dense(const aclTensor& tensor, aclDataType dtype, bool dense_outer) {
  const Shape& s = tensor.shape;
  const Shape& st = tensor.strides;
  return tensor.dtype == dtype && (s[2] <= 1 || st[2] == 1) && (s[1] <= 1 || st[1] == s[2]) &&
         (s[0] <= 1 || (dense_outer ? st[0] == s[1] * s[2] : st[0] >= s[1] * s[2]));
}

Precision precision_of(aclDataType a, aclDataType b) {
  return a == ACL_BF16 && b == ACL_BF16 && Gemm::bf16_products() ? Precision::bf16 : Precision::f32;
}

void fold_toeplitz(Toeplitz* p, int64_t needed_rows) {
  p->block_rows = needed_rows;
  if (p->batches > 1 && ceil_div(p->rows, p->taps) < kFoldBelowRows) {
    p->folded = true;
    p->block_rows = round_up(needed_rows, p->taps);
  }
}

int64_t Layout::add(int64_t bytes) {
  const int64_t at = total_;
  total_ = round_up(total_ + bytes, 64);
  return at;
}

void split_toeplitz(Toeplitz* p, std::vector<int64_t>* row_counts) {
  const int64_t classes = std::min(p->taps, p->rows);
  // Folded, a class is one run of rows across all batches (see toeplitz.h).
  const int64_t runs = p->folded ? 1 : p->batches;
  const int64_t most_rows =
      p->folded ? p->batches * p->block_rows / p->taps : ceil_div(p->rows, p->taps);
  const int64_t blocks = std::clamp<int64_t>(ceil_div(kTargetItems, classes * runs), 1,
                                             std::max<int64_t>(1, most_rows / kMinRows));
  const int64_t tile_cap = std::max<int64_t>(kMinRows, kTileFloats / p->n);
  const int64_t block = std::min(ceil_div(most_rows, blocks), tile_cap);
  for (int64_t r = 0; r < classes; ++r) {
    const int64_t class_rows = p->folded ? most_rows : ceil_div(p->rows - r, p->taps);
    for (int64_t b = 0; b < runs; ++b) {
      for (int64_t m0 = 0; m0 < class_rows; m0 += block) {
        const int64_t rows = std::min(block, class_rows - m0);
        p->tile_rows = std::max(p->tile_rows, rows);
        const int32_t gemm = variant_of(rows, row_counts);
        p->tasks.push_back({gemm, static_cast<int32_t>(r), b, m0});
      }
    }
  }
  for (int64_t t = 0; t < p->rows; ++t) {
    if (t < p->data_begin || t + p->taps > p->data_end) {
      p->border_rows.push_back(t);
    }
  }
  if (!p->border_rows.empty()) {
    p->tile_rows = std::max(p->tile_rows, p->batches);
  }
}

namespace {

aclnnStatus plan_toeplitz_products(const char* op, const Toeplitz& p,
                                   const std::vector<int64_t>& row_counts, Precision precision,
                                   int slots, ToeplitzProducts* out) {
  GemmShape shape;
  shape.precision = precision;
  shape.n = p.n;
  shape.ldb = p.n;
  shape.ldc = p.n;
  for (int64_t rows : row_counts) {
    shape.m = rows;
    shape.k = p.taps * p.c;
    shape.a_row = shape.k;
    shape.bias = p.bias;
    out->tasks.emplace_back();
    OA_TRY(plan_gemm(op, shape, slots, &out->tasks.back()));
  }
  if (!p.border_rows.empty()) {
    shape.m = p.batches;
    shape.k = p.c;
    shape.a_row = p.c;
    shape.bias = false;
    shape.accumulate = true;
    OA_TRY(plan_gemm(op, shape, slots, &out->tap));
  }
  return ACLNN_SUCCESS;
}

aclnnStatus plan_weight_grad_products(const char* op, const WeightGrad& p, Precision precision,
                                      int slots, WeightGradProducts* out) {
  const bool middle = p.trail_begin > p.lead;
  const bool trail = p.tout > p.trail_begin;
  GemmShape shape;  // x rows transposed (ci x depth) . self rows (depth x co)
  shape.precision = precision;
  shape.m = p.ci;
  shape.n = p.co;
  shape.a_row = 1;
  shape.a_col = p.ci;
  shape.ldb = p.co;
  shape.ldc = p.co;
  if (middle) {
    shape.k = (p.trail_begin - p.lead) * p.batches;
    OA_TRY(plan_gemm(op, shape, slots, &out->middle));
  }
  if (p.lead > 0) {
    shape.k = p.lead * p.batches;
    shape.accumulate = middle;
    OA_TRY(plan_gemm(op, shape, slots, &out->lead));
  }
  if (trail) {
    shape.k = (p.tout - p.trail_begin) * p.batches;
    shape.accumulate = middle || p.lead > 0;
    OA_TRY(plan_gemm(op, shape, slots, &out->trail));
  }
  if (p.lead > 0 || trail) {
    shape.k = p.batches;
    shape.accumulate = true;
    OA_TRY(plan_gemm(op, shape, slots, &out->time));
  }
  return ACLNN_SUCCESS;
}

}  // namespace

aclnnStatus plan_toeplitz_gemms(const char* op, Toeplitz* p, const std::vector<int64_t>& row_counts,
                                int slots) {
  OA_TRY(plan_toeplitz_products(op, *p, row_counts, p->precision, slots, &p->products));
  if (p->precision != Precision::f32) {
    OA_TRY(plan_toeplitz_products(op, *p, row_counts, Precision::f32, slots, &p->f32_products));
  }
  return ACLNN_SUCCESS;
}

aclnnStatus plan_weight_grad_gemms(const char* op, WeightGrad* p, int slots) {
  OA_TRY(plan_weight_grad_products(op, *p, p->precision, slots, &p->products));
  if (p->precision != Precision::f32) {
    OA_TRY(plan_weight_grad_products(op, *p, Precision::f32, slots, &p->f32_products));
  }
  return ACLNN_SUCCESS;
}

int plan_slots(const std::vector<double>& costs) {
  double total = 0;
  for (double cost : costs) {
    total += cost;
  }
  const int64_t most =
      std::min(static_cast<int64_t>(costs.size()), static_cast<int64_t>(total / kFlopsPerSlot));
  if (most <= 1) {
    return 1;  // without asking for the thread count, which costs a system call
  }
  return static_cast<int>(std::clamp<int64_t>(num_threads(), 1, most));
}

SlotLayout slot_layout_of(const Toeplitz& toeplitz, const WeightGrad* weight_grad) {
  size_t most = 0;
  auto consider = [&most](const std::shared_ptr<const Gemm>& gemm) {
    if (gemm) {
      most = std::max(most, gemm->scratch_bytes());
    }
  };
  for (const ToeplitzProducts* v : {&toeplitz.products, &toeplitz.f32_products}) {
    for (const auto& gemm : v->tasks) {
      consider(gemm);
    }
    consider(v->tap);
  }
  if (weight_grad != nullptr) {
    for (const WeightGradProducts* v : {&weight_grad->products, &weight_grad->f32_products}) {
      consider(v->middle);
      consider(v->lead);
      consider(v->trail);
      consider(v->time);
    }
  }
  // The border rows' copy holds operands of either precision: sized for float32.
  SlotLayout layout;
  layout.tile_offset = round_up(static_cast<int64_t>(most), 64);
  layout.rows_offset = layout.tile_offset + round_up(toeplitz.tile_rows * toeplitz.n * 4, 64);
  const int64_t rows_floats = toeplitz.border_rows.empty() ? 0 : toeplitz.batches * toeplitz.c;
  layout.bytes = layout.rows_offset + round_up(rows_floats * 4, 64);
  return layout;
}

}  // namespace oa::conv
