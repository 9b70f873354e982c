// What the two adaptive max pooling operators share in phase 1: the kernels' view of a tensor,
// the plane-size rule, the choice of loop nest and the split of the work.
#pragma once

#include <cstdint>

#include "aclnn/aclnn_base.h"
#include "core/checks.h"
#include "kernels/adaptive_max_pool2d/pool_views.h"

namespace oa::amp {

// The most chunks split_work makes.
constexpr int64_t kMaxChunks = 256;

// The [N, C, H, W] view of a 3-D or 4-D tensor (3-D: N = 1), at its offset.
View view_of(const aclTensor& tensor);

// The input plane [H, W] of self (the last two dims) and the output plane [ho, wo].
Dims dims_of(const aclTensor& self, int64_t ho, int64_t wo);

// H * W of t (its last two dims) is at most 2^31 - 1, so that an INT32 index reaches every
// position; `reason` ends the message.
aclnnStatus check_plane_fits_int32(const char* op, Named t, const char* reason);

// Whether the loop nest across channels suits view v: its channel stride is 1 and its plane is not
// itself contiguous along its last non-trivial dim.
bool channels_innermost(const View& v, const Dims& dims);

// The split of `units` units of about `unit_work` elements each, each chunk needing `slot_bytes`
// of workspace: one chunk when there are fewer than `chunk_work` elements in all (below that,
// starting threads costs more than it saves), else a multiple of 8 chunks (as many as there are
// units at most) of about `chunk_work` elements or more, at most kMaxChunks of them, and a
// workspace of at most 8 MiB unless that leaves fewer than 8 chunks. A function of the problem
// only.
Split split_work(int64_t units, int64_t unit_work, int64_t slot_bytes, int64_t chunk_work);

}  // namespace oa::amp
