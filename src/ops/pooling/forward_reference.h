// The plain form of the adaptive max pooling forward: each window scanned in row-major order in
// float64 by the rule of forward.h, one (n, c) plane per unit (Layout::planes), INT64 indices.
// It serves DOUBLE, which the float32 kernels do not.
#pragma once

#include "acl/acl_base.h"
#include "kernels/adaptive_max_pool2d/forward.h"

namespace oa::amp {

// The kernel for self's dtype (FLOAT, FLOAT16, BF16, DOUBLE); null for any other.
ForwardKernel forward_reference(aclDataType dtype);

}  // namespace oa::amp
