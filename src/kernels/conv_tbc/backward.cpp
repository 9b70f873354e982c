#include "kernels/conv_tbc/backward.h"

#include <algorithm>
#include <atomic>

#include "kernels/conv_tbc/convert.h"
#include "kernels/conv_tbc/slots.h"

namespace oa::tbc {
namespace {

constexpr const char* kOp = "aclnnConvTbcBackward";

struct Buffers {
  float* g_pad;
  float* w_flip;
  float* x_rows;
  float* g_rows;
  float* lead;
  float* trail;
  float* grad_weight;
  double* bias_sums;
  float* bias_out;
  char* slots;
};

Buffers buffers_of(const BackwardPlan& p, char* ws) {
  auto at = [ws](int64_t offset) { return reinterpret_cast<float*>(ws + offset); };
  return {at(p.g_pad_offset),
          at(p.w_flip_offset),
          p.x_in_place ? reinterpret_cast<float*>(p.x.data) : at(p.x_rows_offset),
          p.g_in_place ? reinterpret_cast<float*>(p.g.data) : at(p.g_rows_offset),
          at(p.lead_offset),
          at(p.trail_offset),
          p.direct_weight ? reinterpret_cast<float*>(p.grad_weight.data)
                          : at(p.grad_weight_offset),
          reinterpret_cast<double*>(ws + p.bias_sums_offset),
          at(p.bias_out_offset),
          ws + p.slots_offset};
}

// Flags that pack pieces clear; a flag's final value does not depend on the order.
struct Findings {
  std::atomic<bool> weight_finite{true};
  std::atomic<bool> edges_finite{true};
};

bool is_edge_time(const WeightGrad& wg, int64_t time) {
  return time < wg.lead || time >= wg.trail_begin;
}

// Row `row` of a padded copy of x whose row j holds input time first_time + j (zeros outside).
void pack_padded_input(const BackwardPlan& p, int64_t first_time, int64_t row, float* dst) {
  const int64_t time = first_time + row / p.d.b;
  if (time >= 0 && time < p.d.t) {
    load_row(p.x.at(time, row % p.d.b), p.x.dtype, p.x.stride[2], p.d.ci, p.x_rounding, dst);
  } else {
    std::fill(dst, dst + p.d.ci, 0.0f);
  }
}

void pack_row(const BackwardPlan& p, const Buffers& buf, int id, int64_t row, Findings* found) {
  const Dims& d = p.d;
  const WeightGrad& wg = p.weight_grad;
  switch (id) {
    case kPackSelf: {
      const int64_t block = p.input_grad.block_rows;
      const int64_t time = row % block + d.pad - d.k + 1;
      float* dst = buf.g_pad + row * d.co;
      if (time >= 0 && time < d.tout) {
        load_row(p.g.at(time, row / block), p.g.dtype, p.g.stride[2], d.co, p.g_rounding, dst);
      } else {
        std::fill(dst, dst + d.co, 0.0f);
      }
      break;
    }
    case kPackFlippedWeight: {
      // Row (j, o) holds w[k - 1 - j, :, o]: the taps reversed, ci along the row.
      float* dst = buf.w_flip + row * d.ci;
      const char* src = p.w.at(d.k - 1 - row / d.co, 0) + (row % d.co) * p.w.stride[2] * 
                                                               p.w.element_bytes;
      load_row(src, p.w.dtype, p.w.stride[1], d.ci, p.w_rounding, dst);
      if (!all_finite(dst, d.ci)) {
        found->weight_finite.store(false, std::memory_order_relaxed);
      }
      break;
    }
    case kPackInputRows:
      load_row(p.x.at(row / d.b, row % d.b), p.x.dtype, p.x.stride[2], d.ci, p.x_rounding,
               buf.x_rows + row * d.ci);
      break;
    case kPackSelfRows: {
      float* dst = buf.g_rows + row * d.co;
      load_row(p.g.at(row / d.b, row % d.b), p.g.dtype, p.g.stride[2], d.co, p.g_rounding, dst);
      if (is_edge_time(wg, row / d.b) && !all_finite(dst, d.co)) {
        found->edges_finite.store(false, std::memory_order_relaxed);
      }
      break;
    }
    case kScanSelfEdges: {
      const int64_t lead_rows = wg.lead * d.b;
      const int64_t g_row = row < lead_rows ? row : row - lead_rows + wg.trail_begin * d.b;
      if (!all_finite(buf.g_rows + g_row * d.co, d.co)) {
        found->edges_finite.store(false, std::memory_order_relaxed);
      }
      break;
    }
    case kPackLead:
      pack_padded_input(p, -d.pad, row, buf.lead + row * d.ci);
      break;
    case kPackTrail:
      pack_padded_input(p, wg.trail_begin - d.pad, row, buf.trail + row * d.ci);
      break;
    default:
      break;
  }
}

void pack_piece(const BackwardPlan& p, const Buffers& buf, const RowLoops::Piece& piece,
                Findings* found) {
  if (piece.id == kSumBias) {
    double* sums = buf.bias_sums + (piece.begin / p.bias_rows) * p.d.co;
    std::fill(sums, sums + p.d.co, 0.0);
    for (int64_t row = piece.begin; row < piece.end; ++row) {
      add_row(p.g.at(row / p.d.b, row % p.d.b), p.g.dtype, p.g.stride[2], p.d.co, sums);
    }
    return;
  }
  for (int64_t row = piece.begin; row < piece.end; ++row) {
    pack_row(p, buf, piece.id, row, found);
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
  store_row(buf.bias_out, p.d.co, p.grad_bias.dtype, p.grad_bias.data, p.grad_bias.stride[2]);
}

void finish_piece(const BackwardPlan& p, const Buffers& buf, const RowLoops::Piece& piece) {
  const Dims& d = p.d;
  const View& gi = p.grad_input;
  const View& gw = p.grad_weight;
  for (int64_t row = piece.begin; row < piece.end; ++row) {
    switch (piece.id) {
      case kStoreGradWeight:
        store_row(buf.grad_weight + row * d.co, d.co, gw.dtype, gw.at(row / d.ci, row % d.ci),
                  gw.stride[2]);
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
  const Buffers buf = buffers_of(p, static_cast<char*>(workspace));
  Findings found;
  for_each_piece(p.pack, [&](const RowLoops::Piece& piece) { pack_piece(p, buf, piece, &found); });

  std::atomic<bool> ok{true};
  if (!p.zeros_only) {
    const Toeplitz& ig = p.input_grad;
    const WeightGrad& wg = p.weight_grad;
    const auto input_tasks = static_cast<int64_t>(ig.tasks.size());
    const WeightGradOperands operands{buf.x_rows, buf.g_rows, buf.lead, buf.trail,
                                      buf.grad_weight};
    const bool exact_edges = !found.edges_finite.load();
    for_each_slot(p.schedule, [&](int slot, int64_t item) {
      const SlotSpace space = slot_space(buf.slots, p.slot_layout, slot);
      const bool done =
          item < input_tasks
              ? run_toeplitz_task(ig, ig.tasks[static_cast<size_t>(item)], slot, buf.g_pad,
                                  buf.w_flip, nullptr, p.grad_input, space)
              : run_weight_grad_task(wg, item - input_tasks, slot, operands, exact_edges,
                                     space.onednn);
      if (!done) {
        ok.store(false, std::memory_order_relaxed);
      }
    });
    if (!found.weight_finite.load() && !ig.border_rows.empty()) {
      const auto rows = static_cast<int64_t>(ig.border_rows.size());
      for_each_share(p.schedule.slots(), rows, [&](int slot, int64_t index) {
        if (!run_toeplitz_border_row(ig, index, slot, buf.g_pad, buf.w_flip, nullptr, p.grad_input,
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

}  // namespace oa::tbc
