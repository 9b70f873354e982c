// The sum of an elementwise formula's results over the first dim of its inputs' broadcast
// (MseLossOut's mean and sum): out[j] = (sum over i of f(inputs at [i, j])) / divisor for j over
// the broadcast shape without its first dim (a 0-d broadcast is one row of one element), the
// divisor the first dim for the call's reduction 1 (mean), else 1. Each sum adds the float32
// results in double over i in order and is rounded once, so the two implementations give the same
// bits.
#pragma once

#include "core/elementwise_op.h"

namespace oa::loss {

// Parallel over fixed chunks of j; each row of a chunk computed by the formula's SIMD blocks.
Impl first_dim_sum_fast(const ElementwiseOp& op);

// Plain loops over j, then i.
Impl first_dim_sum_reference(const ElementwiseOp& op);

}  // namespace oa::loss
