// An elementwise formula over the broadcast of its inputs whose output is smaller than that
// broadcast (KlDivBackward for a broadcast self: the gradient with respect to self sums over the
// dims self was broadcast along). Each output element is the sum of the formula's results at the
// broadcast positions that map to it, added in double in row-major order, rounded once.
#pragma once

#include "core/elementwise_op.h"

namespace oa::loss {

// A plain-loop implementation (the reference's), any strides; its workspace holds one double per
// output element. The output's shape must broadcast to the inputs' broadcast shape.
Impl sum_to_output_reference(const ElementwiseOp& op);

}  // namespace oa::loss
