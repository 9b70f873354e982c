// aclnnConvTbc's run: output[t, b, :] = bias + sum over k of x[t + k - pad, b, :] . w[k].
// Parallel phases: pack (x into a padded batch-major float32 buffer, w and bias into float32,
// rounded as cubeMathType says), the Toeplitz GEMMs (each storing its tile of rows into the
// output, converted to the output's dtype), then the border rows when w has an Inf or NaN.
#pragma once

#include <cstdint>

#include "aclnn/aclnn_base.h"
#include "kernels/conv_tbc/slots.h"
#include "kernels/conv_tbc/toeplitz.h"
#include "kernels/conv_tbc/view.h"
#include "kernels/conv_tbc/work.h"

namespace oa::tbc {

struct ForwardPlan {
  Dims d;
  View x;     // (t, b, ci)
  View w;     // (k, ci, co)
  View bias;  // (co): element i at stride[2] * i
  View out;   // (tout, b, co)
  Rounding x_rounding = Rounding::none;
  Rounding w_rounding = Rounding::none;
  // t, ci or k is zero: the output is the bias in every row.
  bool bias_only = false;

  Toeplitz conv;
  Schedule schedule;  // of conv.tasks
  RowLoops pack;
  RowLoops finish;

  // Workspace byte offsets: the padded input (b blocks of t + 2 pad rows of ci floats), the
  // weight ((k ci) x co floats), the bias (co floats), and the slots' own spaces.
  int64_t x_offset = 0;
  int64_t w_offset = 0;
  int64_t bias_offset = 0;
  int64_t slots_offset = 0;
  SlotLayout slot_layout;
};

// The RowLoops ids of ForwardPlan::pack and ::finish.
enum ForwardLoop : int { kPackX, kPackW, kPackBias, kFillBias };

aclnnStatus run_forward(const ForwardPlan& plan, void* workspace);

}  // namespace oa::tbc
