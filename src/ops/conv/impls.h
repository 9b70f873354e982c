// The implementations of the convolution family's operators, in the order their definitions list
// them: the fast one first, the plain reference last (core/op/definition.h).
#pragma once

#include "core/op/definition.h"

namespace oa::conv {

// aclnnConvTbc: the oneDNN Toeplitz products of tbc_forward.h.
Impl tbc_forward_onednn();
// aclnnConvTbc: SPEC section 11's formula in float64, any dtype and strides.
Impl tbc_forward_reference();

// aclnnConvTbcBackward: the oneDNN products of tbc_backward.h.
Impl tbc_backward_onednn();
// aclnnConvTbcBackward: SPEC section 8's formulas in float64, any dtype and strides.
Impl tbc_backward_reference();

// aclnnConvolution and aclnnConvDepthwise2d: oneDNN's convolution primitives (conv_onednn.cpp).
Impl conv_forward_onednn();
// aclnnConvolution and aclnnConvDepthwise2d: the sum over the taps in float64.
Impl conv_forward_reference();

// aclnnConvolutionBackward: oneDNN's convolution primitives (conv_onednn.cpp).
Impl conv_backward_onednn();
// aclnnConvolutionBackward: the sums over the taps in float64.
Impl conv_backward_reference();

}  // namespace oa::conv
