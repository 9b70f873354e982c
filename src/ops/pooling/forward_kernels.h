// The fast kernels of aclnnAdaptiveMaxPool2d (SPEC section 11): per output element, the maximum of
// its adaptive window and the index h * W + w of that maximum within the plane, scanning the window
// in row-major order where an element replaces the current maximum when it is greater or NaN.
#pragma once

#include <cstdint>
#include <vector>

#include "acl/acl_base.h"
#include "ops/pooling/pool_views.h"

namespace oa::pooling {

struct ForwardPlan {
  Dims dims;
  View self;
  View out;
  View indices;
  // The window of output row i is rows [row_begin[i], row_end[i]); of output column j, columns
  // [col_begin[j], col_end[j]).
  std::vector<int64_t> row_begin;
  std::vector<int64_t> row_end;
  std::vector<int64_t> col_begin;
  std::vector<int64_t> col_end;
  Layout layout = Layout::planes;
  // planes: a unit is one (n, c) plane; channels_last: one (n, output row) pair, all channels.
  Split split;
};

// Runs the units of one chunk; workspace is the whole workspace (the chunk uses its own slot).
using ForwardKernel = void (*)(const ForwardPlan& plan, int64_t chunk, void* workspace);

// The kernel for self's dtype (FLOAT, FLOAT16, BF16), the indices' dtype (INT32, INT64) and the
// layout, compiled for the SIMD target Highway's dispatch picks now (core/isa.h); null for any
// other dtype.
ForwardKernel forward_kernel(aclDataType dtype, aclDataType index_dtype, Layout layout);

// Workspace each chunk needs.
int64_t forward_slot_bytes(Layout layout, const Dims& dims);

}  // namespace oa::pooling
