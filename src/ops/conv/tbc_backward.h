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
#include "core/cube_math.h"
#include "core/isa.h"
#include "ops/conv/slots.h"
#include "ops/conv/tbc_view.h"
#include "ops/conv/toeplitz.h"
#include "ops/conv/weight_grad.h"
#include "ops/conv/work.h"

namespace oa::conv {

struct BackwardPlan {
  TbcDims d;
  TbcView g;            // self (tout, b, co)
  TbcView x;            // input (t, b, ci)
  TbcView w;            // weight (k, ci, co)
  TbcView grad_input;   // (t, b, ci)
  TbcView grad_weight;  // (k, ci, co)
  TbcView grad_bias;    // (co)
  Isa isa = Isa::simd;  // of the conversions (OPENACLNN_CPU_ISA at phase 1)
  CubeRounding g_rounding = CubeRounding::none;
  CubeRounding x_rounding = CubeRounding::none;
  CubeRounding w_rounding = CubeRounding::none;
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

}  // namespace oa::conv
