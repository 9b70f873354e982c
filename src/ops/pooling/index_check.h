// The check aclnnAdaptiveMaxPool2dBackward makes before writing anything: every index lies in
// [0, H * W). A fast pass per chunk says whether all do; when one does not, the slow pass of
// bad_index.h finds the first bad one for the message.
#pragma once

#include <cstdint>

#include "acl/acl_base.h"
#include "ops/pooling/backward_kernels.h"

namespace oa::pooling {

// Whether every index the backward kernel reads for chunk `chunk` lies in [0, H * W). For a tiled
// plan it also writes what BackwardPlan::tiled says into the workspace.
using IndexCheck = bool (*)(const BackwardPlan& plan, int64_t chunk, void* workspace);

// For the indices' dtype (INT32, INT64) and the layout, compiled for the SIMD target Highway's
// dispatch picks now (core/isa.h); null for any other dtype.
IndexCheck index_check(aclDataType index_dtype, Layout layout);

}  // namespace oa::pooling
