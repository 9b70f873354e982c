// aclnnConvTbc's run: output[t, b, :] = bias + sum over k of x[t + k - pad, b, :] . w[k].
// Parallel phases: pack (x into a padded batch-major buffer, w into a (k ci) x co matrix, both in
// the product's precision: float32 rounded as cubeMathType says, or bfloat16 copies; the bias
// into float32), the Toeplitz GEMMs (each storing its tile of rows into the output, converted to
// the output's dtype), then the border rows when w has an Inf or NaN.
#pragma once

#include <cstdint>

#include "aclnn/aclnn_base.h"
#include "core/cube_math.h"
#include "core/isa.h"
#include "ops/conv/slots.h"
#include "ops/conv/tbc_view.h"
#include "ops/conv/toeplitz.h"
#include "ops/conv/work.h"

namespace oa::conv {

struct ForwardPlan {
  TbcDims d;
  TbcView x;            // (t, b, ci)
  TbcView w;            // (k, ci, co)
  TbcView bias;         // (co): element i at stride[2] * i
  TbcView out;          // (tout, b, co)
  Isa isa = Isa::simd;  // of the conversions (OPENACLNN_CPU_ISA at phase 1)
  CubeRounding x_rounding = CubeRounding::none;
  CubeRounding w_rounding = CubeRounding::none;
  // t, ci or k is zero: the output is the bias in every row.
  bool bias_only = false;

  Toeplitz conv;
  int slots = 1;  // GEMM items (conv.tasks) run on this many slots
  // Packing in conv.precision, and in float32 for a run whose bfloat16 operands hold values too
  // small for the bfloat16 products (see precision.h; empty when conv.precision is f32).
  RowLoops pack;
  RowLoops f32_pack;
  RowLoops finish;

  // Workspace byte offsets: the padded input (conv.buffer_rows() rows of ci values), the weight
  // ((k ci) x co values), each sized for float32; the bias (co floats); the slots' own spaces.
  int64_t x_offset = 0;
  int64_t w_offset = 0;
  int64_t bias_offset = 0;
  int64_t slots_offset = 0;
  SlotLayout slot_layout;
};

// The RowLoops ids of ForwardPlan::pack, ::f32_pack and ::finish.
enum ForwardLoop : int { kPackX, kPackW, kPackBias, kFillBias };

aclnnStatus run_forward(const ForwardPlan& plan, void* workspace);

}  // namespace oa::conv
