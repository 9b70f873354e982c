// What the adaptive max pooling implementations share in phase 1: the kernels' view of a tensor,
// the choice of loop nest and the split of the work.
#pragma once

#include <cstdint>

#include "core/tensor.h"
#include "ops/pooling/pool_views.h"

namespace oa::pooling {

// The most chunks split_work makes.
constexpr int64_t kMaxChunks = 256;

// The [N, C, H, W] view of a 3-D or 4-D tensor (3-D: N = 1), at its offset.
View view_of(const aclTensor& tensor);

// The input plane [H, W] of self (the last two dims) and the output plane [ho, wo].
Dims dims_of(const aclTensor& self, int64_t ho, int64_t wo);

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

}  // namespace oa::pooling
