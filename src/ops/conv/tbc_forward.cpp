#include "ops/conv/tbc_forward.h"

#include <atomic>

#include "core/gemm.h"
#include "ops/conv/precision.h"
#include "ops/conv/rows.h"

namespace oa::conv {
namespace {

struct Buffers {
  char* x;
  char* w;
  float* bias;
  char* slots;
};

// Flags that pack pieces clear; a flag's final value does not depend on the order.
struct Findings {
  std::atomic<bool> weight_finite{true};
  std::atomic<bool> wide{true};
};

void pack_piece(const ForwardPlan& p, const Buffers& buf, Precision precision,
                const RowLoops::Piece& piece, Findings* found) {
  const TbcDims& d = p.d;
  const int64_t element = operand_bytes(precision);
  for (int64_t row = piece.begin; row < piece.end; ++row) {
    PackedRow facts;
    switch (piece.id) {
      case kPackX: {
        const int64_t block = p.conv.block_rows;
        const int64_t b = row / block;
        const int64_t time = row % block - d.pad;
        char* dst = buf.x + row * d.ci * element;
        if (b < d.b && time >= 0 && time < d.t) {
          facts = pack_operand_row(p.isa, p.x.at(time, b), p.x.dtype, p.x.stride[2], d.ci,
                                   p.x_rounding, precision, dst, false);
        } else {
          zero_operand_row(precision, dst, d.ci);
        }
        break;
      }
      case kPackW:
        facts = pack_operand_row(p.isa, p.w.at(row / d.ci, row % d.ci), p.w.dtype, p.w.stride[2],
                                 d.co, p.w_rounding, precision, buf.w + row * d.co * element, true);
        break;
      case kPackBias:
        load_row(p.isa, p.bias.data, p.bias.dtype, p.bias.stride[2], d.co, CubeRounding::none,
                 buf.bias);
        break;
      default:
        break;
    }
    if (!facts.finite) {
      found->weight_finite.store(false, std::memory_order_relaxed);
    }
    if (!facts.wide) {
      found->wide.store(false, std::memory_order_relaxed);
    }
  }
}

// The output of a problem without any product: the bias in every row.
void fill_bias_piece(const ForwardPlan& p, const Buffers& buf, const RowLoops::Piece& piece) {
  const TbcDims& d = p.d;
  for (int64_t row = piece.begin; row < piece.end; ++row) {
    store_row(p.isa, buf.bias, d.co, p.out.dtype, p.out.at(row / d.b, row % d.b), p.out.stride[2]);
  }
}

}  // namespace

aclnnStatus run_forward(const ForwardPlan& p, void* workspace) {
  char* ws = static_cast<char*>(workspace);
  const Buffers buf{ws + p.x_offset, ws + p.w_offset, reinterpret_cast<float*>(ws + p.bias_offset),
                    ws + p.slots_offset};
  const Toeplitz& conv = p.conv;
  Precision precision = conv.precision;
  Findings found;
  for_each_piece(
      p.pack, [&](const RowLoops::Piece& piece) { pack_piece(p, buf, precision, piece, &found); });
  if (!found.wide.load()) {
    precision = Precision::f32;  // some operand is too small for the bfloat16 products
    for_each_piece(p.f32_pack, [&](const RowLoops::Piece& piece) {
      pack_piece(p, buf, precision, piece, &found);
    });
  }

  std::atomic<bool> ok{true};
  if (!p.bias_only) {
    const ToeplitzOperands operands{p.isa, precision, buf.x, buf.w, buf.bias, p.out};
    const auto tasks = static_cast<int64_t>(conv.tasks.size());
    for_each_item(p.slots, tasks, [&](int slot, int64_t item) {
      if (!run_toeplitz_task(conv, conv.tasks[static_cast<size_t>(item)], slot, operands,
                             slot_space(buf.slots, p.slot_layout, slot))) {
        ok.store(false, std::memory_order_relaxed);
      }
    });
    if (!found.weight_finite.load() && !conv.border_rows.empty()) {
      const auto rows = static_cast<int64_t>(conv.border_rows.size());
      for_each_item(p.slots, rows, [&](int slot, int64_t index) {
        if (!run_toeplitz_border_row(conv, index, slot, operands,
                                     slot_space(buf.slots, p.slot_layout, slot))) {
          ok.store(false, std::memory_order_relaxed);
        }
      });
    }
  }
  if (!ok.load()) {
    return gemm_failure("aclnnConvTbc");
  }
  for_each_piece(p.finish, [&](const RowLoops::Piece& piece) { fill_bias_piece(p, buf, piece); });
  return ACLNN_SUCCESS;
}

}  // namespace oa::conv
