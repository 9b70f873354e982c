// The check aclnnAdaptiveMaxPool2dBackward makes before writing anything: every index lies in
// [0, H * W). A fast pass per chunk says whether all do; when one does not, a slow pass finds the
// first bad one for the message.
#pragma once

#include <cstdint>

#include "acl/acl_base.h"
#include "kernels/adaptive_max_pool2d/backward.h"

namespace oa::amp {

// Whether every index the backward kernel reads for chunk `chunk` lies in [0, H * W). For a tiled
// plan it also writes what BackwardPlan::tiled says into the workspace.
using IndexCheck = bool (*)(const BackwardPlan& plan, int64_t chunk, void* workspace);

// For the indices' dtype (INT32, INT64), the layout and the instruction set; null for any other
// dtype.
IndexCheck index_check(aclDataType index_dtype, Layout layout, KernelIsa isa);

// The first index outside [0, H * W) in the row-major order of indices' [N, C, Ho, Wo].
struct BadIndex {
  bool found = false;
  int64_t n = 0;
  int64_t c = 0;
  int64_t i = 0;
  int64_t j = 0;
  int64_t value = 0;
};
BadIndex find_bad_index(const BackwardPlan& plan, aclDataType index_dtype);

}  // namespace oa::amp
