#include "kernels/conv_tbc/forward.h"

#include <algorithm>
#include <atomic>

#include "kernels/conv_tbc/convert.h"
#include "kernels/conv_tbc/slots.h"

namespace oa::tbc {
namespace {

struct Buffers {
  float* x;
  float* w;
  float* bias;
  char* slots;
};

void pack_piece(const ForwardPlan& p, const Buffers& buf, const RowLoops::Piece& piece,
                std::atomic<bool>* w_finite) {
  const Dims& d = p.d;
  switch (piece.id) {
    case kPackX: {
      const int64_t block = p.conv.block_rows;
      for (int64_t row = piece.begin; row < piece.end; ++row) {
        const int64_t b = row / block;
        const int64_t time = row % block - d.pad;
        float* dst = buf.x + row * d.ci;
        if (time >= 0 && time < d.t) {
          load_row(p.x.at(time, b), p.x.dtype, p.x.stride[2], d.ci, p.x_rounding, dst);
        } else {
          std::fill(dst, dst + d.ci, 0.0f);
        }
      }
      break;
    }
    case kPackW:
      for (int64_t row = piece.begin; row < piece.end; ++row) {
        float* dst = buf.w + row * d.co;
        load_row(p.w.at(row / d.ci, row % d.ci), p.w.dtype, p.w.stride[2], d.co, p.w_rounding,
                 dst);
        if (!all_finite(dst, d.co)) {
          w_finite->store(false, std::memory_order_relaxed);
        }
      }
      break;
    case kPackBias:
      load_row(p.bias.data, p.bias.dtype, p.bias.stride[2], d.co, Rounding::none, buf.bias);
      break;
    default:
      break;
  }
}

// The output of a problem without any product: the bias in every row.
void fill_bias_piece(const ForwardPlan& p, const Buffers& buf, const RowLoops::Piece& piece) {
  const Dims& d = p.d;
  for (int64_t row = piece.begin; row < piece.end; ++row) {
    store_row(buf.bias, d.co, p.out.dtype, p.out.at(row / d.b, row % d.b), p.out.stride[2]);
  }
}

}  // namespace

aclnnStatus run_forward(const ForwardPlan& p, void* workspace) {
  char* ws = static_cast<char*>(workspace);
  const Buffers buf{reinterpret_cast<float*>(ws + p.x_offset),
                    reinterpret_cast<float*>(ws + p.w_offset),
                    reinterpret_cast<float*>(ws + p.bias_offset), ws + p.slots_offset};
  std::atomic<bool> w_finite{true};
  for_each_piece(p.pack, [&](const RowLoops::Piece& piece) { pack_piece(p, buf, piece, &w_finite); });

  const Toeplitz& conv = p.conv;
  std::atomic<bool> ok{true};
  if (!p.bias_only) {
    for_each_slot(p.schedule, [&](int slot, int64_t item) {
      if (!run_toeplitz_task(conv, conv.tasks[static_cast<size_t>(item)], slot, buf.x, buf.w,
                             buf.bias, p.out, slot_space(buf.slots, p.slot_layout, slot))) {
        ok.store(false, std::memory_order_relaxed);
      }
    });
    if (!w_finite.load() && !conv.border_rows.empty()) {
      const auto rows = static_cast<int64_t>(conv.border_rows.size());
      for_each_share(p.schedule.slots(), rows, [&](int slot, int64_t index) {
        if (!run_toeplitz_border_row(conv, index, slot, buf.x, buf.w, buf.bias, p.out,
                                     slot_space(buf.slots, p.slot_layout, slot))) {
          ok.store(false, std::memory_order_relaxed);
        }
      });
    }
  }
  if (!ok.load()) {
    return gemm_failure("aclnnConvTbc");
  }
  for_each_piece(p.finish,
                 [&](const RowLoops::Piece& piece) { fill_bias_piece(p, buf, piece); });
  return ACLNN_SUCCESS;
}

}  // namespace oa::tbc
