#include "ops/conv/tbc_backward.h"

#include <algorithm>
#include <atomic>

#include "core/gemm.h"
#include "ops/conv/precision.h"
#include "ops/conv/rows.h"
#include "ops/conv/rows_simd.h"

namespace oa::conv {
namespace {

constexpr const char* kOp = "aclnnConvTbcBackward";

struct Buffers {
  char* g_pad;
  char* w_flip;
  char* x_rows;
  char* g_rows;
  char* lead;
  char* trail;
  float* grad_weight;
  double* bias_sums;
  float* bias_out;
  char* slots;
};

// The precisions of one run's operands: gradInput's (self and weight) and gradWeight's (input
// and self), and whether gradWeight reads input and self themselves.
struct Setting {
  Precision input;
  Precision weight;
  bool x_in_place;
  bool g_in_place;
};

Buffers buffers_of(const BackwardPlan& p, const Setting& s, char* ws) {
  return {ws + p.g_pad_offset,
          ws + p.w_flip_offset,
          s.x_in_place ? p.x.data : ws + p.x_rows_offset,
          s.g_in_place ? p.g.data : ws + p.g_rows_offset,
          ws + p.lead_offset,
          ws + p.trail_offset,
          p.direct_weight ? reinterpret_cast<float*>(p.grad_weight.data)
                          : reinterpret_cast<float*>(ws + p.grad_weight_offset),
          reinterpret_cast<double*>(ws + p.bias_sums_offset),
          reinterpret_cast<float*>(ws + p.bias_out_offset),
          ws + p.slots_offset};
}

// Flags that pack pieces clear; a flag's final value does not depend on the order.
struct Findings {
  std::atomic<bool> weight_finite{true};
  std::atomic<bool> edges_finite{true};
  std::atomic<bool> wide{true};

  // Records what packing a row found; `finite` is the flag its Inf and NaN clear.
  void note(const PackedRow& facts, std::atomic<bool>* finite = nullptr) {
    if (!facts.finite && finite != nullptr) {
      finite->store(false, std::memory_order_relaxed);
    }
    if (!facts.wide) {
      wide.store(false, std::memory_order_relaxed);
    }
  }
};

bool is_edge_time(const WeightGrad& wg, int64_t time) {
  return time < wg.lead || time >= wg.trail_begin;
}

// Row `row` of a padded copy of x whose row j holds input time first_time + j (zeros outside).
PackedRow pack_padded_input(const BackwardPlan& p, Precision precision, int64_t first_time,
                            int64_t row, char* dst) {
  const int64_t time = first_time + row / p.d.b;
  if (time >= 0 && time < p.d.t) {
    return pack_operand_row(p.isa, p.x.at(time, row % p.d.b), p.x.dtype, p.x.stride[2], p.d.ci,
                            p.x_rounding, precision, dst, false);
  }
  zero_operand_row(precision, dst, p.d.ci);
  return {};
}

void pack_row(const BackwardPlan& p, const Buffers& buf, const Setting& s, int id, int64_t row,
              Findings* found) {
  const TbcDims& d = p.d;
  const WeightGrad& wg = p.weight_grad;
  const int64_t input_element = operand_bytes(s.input);
  const int64_t weight_element = operand_bytes(s.weight);
  switch (id) {
    case kPackSelf: {
      const int64_t block = p.input_grad.block_rows;
      const int64_t time = row % block + d.pad - d.k + 1;
      char* dst = buf.g_pad + row * d.co * input_element;
      if (row / block < d.b && time >= 0 && time < d.tout) {
        found->note(pack_operand_row(p.isa, p.g.at(time, row / block), p.g.dtype, p.g.stride[2],
                                     d.co, p.g_rounding, s.input, dst, false));
      } else {
        zero_operand_row(s.input, dst, d.co);
      }
      break;
    }
    case kPackFlippedWeight: {
      // Row (j, o) holds w[k - 1 - j, :, o]: the taps reversed, ci along the row.
      const char* src =
          p.w.at(d.k - 1 - row / d.co, 0) + (row % d.co) * p.w.stride[2] * p.w.element_bytes;
      found->note(pack_operand_row(p.isa, src, p.w.dtype, p.w.stride[1], d.ci, p.w_rounding,
                                   s.input, buf.w_flip + row * d.ci * input_element, true),
                  &found->weight_finite);
      break;
    }
    case kPackInputRows:
      found->note(pack_operand_row(p.isa, p.x.at(row / d.b, row % d.b), p.x.dtype, p.x.stride[2],
                                   d.ci, p.x_rounding, s.weight,
                                   buf.x_rows + row * d.ci * weight_element, false));
      break;
    case kPackSelfRows:
      found->note(
          pack_operand_row(p.isa, p.g.at(row / d.b, row % d.b), p.g.dtype, p.g.stride[2], d.co,
                           p.g_rounding, s.weight, buf.g_rows + row * d.co * weight_element,
                           is_edge_time(wg, row / d.b)),
          &found->edges_finite);
      break;
    case kScanInputRows: {
      // input read in place as bfloat16: values too small for the bfloat16 products?
      const auto* src = reinterpret_cast<const uint16_t*>(buf.x_rows) + row * d.ci;
      found->note({true, bf16_all_wide(src, d.ci)});
      break;
    }
    case kScanSelfRows: {
      // self read in place: Inf and NaN in the edge rows (gradWeight's exact edges), and, as
      // bfloat16, values too small for the bfloat16 products.
      const char* src = buf.g_rows + row * d.co * weight_element;
      const bool edge = is_edge_time(wg, row / d.b);
      PackedRow facts;
      if (s.weight == Precision::bf16) {
        const auto* values = reinterpret_cast<const uint16_t*>(src);
        facts.wide = bf16_all_wide(values, d.co);
        facts.finite = !edge || bf16_all_finite(values, d.co);
      } else {
        facts.finite = !edge || all_finite(reinterpret_cast<const float*>(src), d.co);
      }
      found->note(facts, &found->edges_finite);
      break;
    }
    case kPackLead:
      found->note(
          pack_padded_input(p, s.weight, -d.pad, row, buf.lead + row * d.ci * weight_element));
      break;
    case kPackTrail:
      found->note(pack_padded_input(p, s.weight, wg.trail_begin - d.pad, row,
                                    buf.trail + row * d.ci * weight_element));
      break;
    default:
      break;
  }
}

void pack_piece(const BackwardPlan& p, const Buffers& buf, const Setting& s,
                const RowLoops::Piece& piece, Findings* found) {
  if (piece.id == kSumBias) {
    double* sums = buf.bias_sums + (piece.begin / p.bias_rows) * p.d.co;
    std::fill(sums, sums + p.d.co, 0.0);
    for (int64_t row = piece.begin; row < piece.end; ++row) {
      add_row(p.isa, p.g.at(row / p.d.b, row % p.d.b), p.g.dtype, p.g.stride[2], p.d.co, sums);
    }
    return;
  }
  for (int64_t row = piece.begin; row < piece.end; ++row) {
    pack_row(p, buf, s, piece.id, row, found);
  }
}

void store_grad_bias(const BackwardPlan& p, const Buffers& buf) {
  const int64_t pieces = (p.d.tout * p.d.b + p.bias_rows - 1) / p.bias_rows;
  for (int64_t o = 0; o < p.d.co; ++o) {
    double total = 0;
    for (int64_t q = 0; q < pieces; ++q) {
      total += buf.bias_sums[q * p.d.co + o];
    }
    buf.bias_out[o] = static_cast<float>(total);
  }
  store_row(p.isa, buf.bias_out, p.d.co, p.grad_bias.dtype, p.grad_bias.data,
            p.grad_bias.stride[2]);
}

void finish_piece(const BackwardPlan& p, const Buffers& buf, const RowLoops::Piece& piece) {
  const TbcDims& d = p.d;
  const TbcView& gi = p.grad_input;
  const TbcView& gw = p.grad_weight;
  for (int64_t row = piece.begin; row < piece.end; ++row) {
    switch (piece.id) {
      case kStoreGradWeight:
        store_row(p.isa, buf.grad_weight + row * d.co, d.co, gw.dtype,
                  gw.at(row / d.ci, row % d.ci), gw.stride[2]);
        break;
      case kZeroGradInput:
        zero_row(gi.at(row / d.b, row % d.b), d.ci, gi.stride[2], gi.element_bytes);
        break;
      case kZeroGradWeight:
        zero_row(gw.at(row / d.ci, row % d.ci), d.co, gw.stride[2], gw.element_bytes);
        break;
      case kStoreGradBias:
        store_grad_bias(p, buf);
        break;
      default:
        break;
    }
  }
}

}  // namespace

aclnnStatus run_backward(const BackwardPlan& p, void* workspace) {
  char* ws = static_cast<char*>(workspace);
  const Toeplitz& ig = p.input_grad;
  const WeightGrad& wg = p.weight_grad;
  Setting setting{ig.precision, wg.precision, p.x_in_place, p.g_in_place};
  Buffers buf = buffers_of(p, setting, ws);
  Findings found;
  for_each_piece(p.pack,
                 [&](const RowLoops::Piece& piece) { pack_piece(p, buf, setting, piece, &found); });
  if (!found.wide.load()) {
    // Some operand is too small for the bfloat16 products: all in float32.
    setting = {Precision::f32, Precision::f32, false, false};
    buf = buffers_of(p, setting, ws);
    for_each_piece(p.f32_pack, [&](const RowLoops::Piece& piece) {
      pack_piece(p, buf, setting, piece, &found);
    });
  }

  std::atomic<bool> ok{true};
  if (!p.zeros_only) {
    const ToeplitzOperands input_operands{p.isa,      setting.input, buf.g_pad,
                                          buf.w_flip, nullptr,       p.grad_input};
    const WeightGradOperands weight_operands{setting.weight, buf.x_rows, buf.g_rows,
                                             buf.lead,       buf.trail,  buf.grad_weight};
    const bool exact_edges = !found.edges_finite.load();
    const int64_t items = wg.taps + static_cast<int64_t>(ig.tasks.size());
    for_each_item(p.slots, items, [&](int slot, int64_t item) {
      const SlotSpace space = slot_space(buf.slots, p.slot_layout, slot);
      const bool done =
          item < wg.taps
              ? run_weight_grad_task(wg, item, slot, weight_operands, exact_edges, space.onednn)
              : run_toeplitz_task(ig, ig.tasks[static_cast<size_t>(item - wg.taps)], slot,
                                  input_operands, space);
      if (!done) {
        ok.store(false, std::memory_order_relaxed);
      }
    });
    if (!found.weight_finite.load() && !ig.border_rows.empty()) {
      const auto rows = static_cast<int64_t>(ig.border_rows.size());
      for_each_item(p.slots, rows, [&](int slot, int64_t index) {
        if (!run_toeplitz_border_row(ig, index, slot, input_operands,
                                     slot_space(buf.slots, p.slot_layout, slot))) {
          ok.store(false, std::memory_order_relaxed);
        }
      });
    }
  }
  if (!ok.load()) {
    return gemm_failure(kOp);
  }
  for_each_piece(p.finish, [&](const RowLoops::Piece& piece) { finish_piece(p, buf, piece); });
  return ACLNN_SUCCESS;
}

}  // namespace oa::conv
