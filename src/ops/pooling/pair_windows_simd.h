// The planes of a tiled backward plan with 2x2 windows (H = 2 Ho, W = 2 Wo) whose indices all lie
// in their own windows (BackwardPlan::pairs), written whole with SIMD: a vector of outputs of row i
// gives both gradInput rows 2i and 2i + 1 under their windows, each position taking its output
// where the index names it and +0 elsewhere, with no zeroing first and no store per output, with
// plain stores or (BackwardPlan::stream_output) streaming ones, not fenced. The bits are those of
// the other kernels: 0 + gradOutput, rounded into gradInput's dtype.
#pragma once

#include <cstdint>

#include "acl/acl_base.h"
#include "ops/pooling/backward_kernels.h"

namespace oa::pooling {

// Writes the gradInput planes (of dtype FLOAT, FLOAT16 or BF16) of units [begin, end) of a plan
// with `pairs` set; indices are their narrowed indices, row-major [units, Ho, Wo].
void write_pair_planes(const BackwardPlan& plan, int64_t begin, int64_t end,
                       const uint16_t* indices, aclDataType dtype);

// Whether write_pair_planes has vectors on the SIMD target Highway's dispatch picks now (not on
// the scalar target, OPENACLNN_CPU_ISA=scalar), which is what makes it pay.
bool pair_windows_vectorised();

}  // namespace oa::pooling
