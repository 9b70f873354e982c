// aclnnConvTbcBackward's run. Three parallel phases:
// - pack: self into a padded batch-major buffer (gradInput's Toeplitz operand), the weight flipped
//   along k and transposed, the rows of x and self that gradWeight reads (unless it reads the
//   tensors themselves), the edge buffers, each in its product's precision (float32 rounded as
//   cubeMathType says, or bfloat16 copies); and the partial sums of gradBias;
// - the GEMMs of gradWeight (each tap whole) and of gradInput (each storing its tile of rows into
//   gradInput, converted), dealt to slots together;
// - finish: gradInput's border rows when the weight has an Inf or NaN, then gradWeight's
//   conversion when the GEMMs did not write it themselves, and gradBias.
// gradBias sums self as given (widened, not rounded by cubeMathType: no product is involved), in
// float64 per piece of rows and then over the pieces in order.
#pragma once

#include <cstdint>

#include "aclnn/aclnn_base.h"
#include "kernels/conv_tbc/slots.h"
#include "kernels/conv_tbc/toeplitz.h"
#include "kernels/conv_tbc/view.h"
#include "kernels/conv_tbc/weight_grad.h"
#include "kernels/conv_tbc/work.h"

namespace oa::tbc {

struct BackwardPlan {
  Dims d;
  View g;            // self (tout, b, co)
  View x;            // input (t, b, ci)
  View w;            // weight (k, ci, co)
  View grad_input;   // (t, b, ci)
  View grad_weight;  // (k, ci, co)
  View grad_bias;    // (co)
  Rounding g_rounding = Rounding::none;
  Rounding x_rounding = Rounding::none;
  Rounding w_rounding = Rounding::none;
  // t, ci or k is zero: gradInput and gradWeight are zeros, gradBias is still the sum of self.
  bool zeros_only = false;
  bool direct_weight = false;  // the GEMMs write gradWeight itself (else a float32 buffer)
  // gradWeight reads input / self themselves in its products' own precision (else packed rows;
  // the float32 fallback of bfloat16 products always packs).
  bool x_in_place = false;
  bool g_in_place = false;

  Toeplitz input_grad;
  WeightGrad weight_grad;
  // GEMM items run on this many slots: gradWeight's taps k = 0 .. taps - 1 (the largest items,
  // claimed first), then input_grad.tasks.
  int slots = 1;
  // Packing in the products' precisions (with gradBias's partial sums), and all in float32 for a
  // run whose bfloat16 operands hold values too small for the bfloat16 products (precision.h;
  // empty when both products are float32).
  RowLoops pack;
  RowLoops f32_pack;
  RowLoops finish;
  int64_t bias_rows = 0;  // rows of self per partial sum of gradBias

  // Workspace byte offsets; operand buffers are sized for float32.
  int64_t g_pad_offset = 0;   // input_grad.buffer_rows() rows of co
  int64_t w_flip_offset = 0;  // (k co) x ci
  int64_t x_rows_offset = 0;  // t b rows of ci
  int64_t g_rows_offset = 0;  // tout b rows of co
  int64_t lead_offset = 0;    // edge buffers
  int64_t trail_offset = 0;
  int64_t grad_weight_offset = 0;  // k ci co float32 (when !direct_weight)
  int64_t bias_sums_offset = 0;    // float64 partial sums, co per piece
  int64_t bias_out_offset = 0;     // co float32
  int64_t slots_offset = 0;
  SlotLayout slot_layout;
};

// The RowLoops ids of BackwardPlan::pack, ::f32_pack and ::finish.
enum BackwardLoop : int {
  kPackSelf,
  kPackFlippedWeight,
  kPackInputRows,
  kPackSelfRows,
  kScanInputRows,
  kScanSelfRows,
  kPackLead,
  kPackTrail,
  kSumBias,
  kStoreGradWeight,
  kStoreGradBias,
  kZeroGradInput,
  kZeroGradWeight,
};

aclnnStatus run_backward(const BackwardPlan& plan, void* workspace);

}  // namespace oa::tbc
