// The implementations of the pooling operators, in the order their definitions list them: the
// fast one first, the plain reference last (core/op/definition.h).
#pragma once

#include "core/op/definition.h"

namespace oa::pooling {

// aclnnAdaptiveMaxPool2d: the float32 kernels of forward_kernels.h (every dtype but DOUBLE).
Impl forward_simd();
// aclnnAdaptiveMaxPool2d: each window scanned in float64, any dtype and strides.
Impl forward_reference();

// aclnnAdaptiveMaxPool2dBackward: the kernels of backward_kernels.h.
Impl backward_simd();
// aclnnAdaptiveMaxPool2dBackward: plain float32 sums per plane, any dtype and strides.
Impl backward_reference();

}  // namespace oa::pooling
