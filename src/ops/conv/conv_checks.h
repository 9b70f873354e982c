// The checks of aclnnConvolution, aclnnConvDepthwise2d and aclnnConvolutionBackward beyond the
// core's rules (SPEC section 12), in the order CANN runs them, each with the violations that make
// it fail alone on one of the definitions' samples. Every message names the operator, the
// parameter, the rule and the values.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "core/op/definition.h"
#include "core/op/rules.h"

namespace oa::conv {

// The format a convolution tensor of `rank` has: NCL, NCHW or NCDHW.
aclFormat format_for_rank(size_t rank);

// A weight dim times groups, as the checks compare it with a channel count: exact, so that huge
// dims or a groups not yet checked cannot overflow (a product beyond int64 equals no dim).
inline __int128 times_groups(int64_t dim, int64_t groups) {
  return static_cast<__int128>(dim) * groups;
}

// --- building violations ---
// A violation that edits the call and then infers the outputs again (so that only the edited
// rule breaks).
Violation edit(std::string what, std::function<bool(const OpDef&, CallSpec*)> change,
               std::vector<std::string> message, int code = ACLNN_ERR_PARAM_INVALID);
// Shape of tensor `name` (present and with a dim `dim`), dim set to value(old).
Violation with_dim(std::string what, std::string name, int dim,
                   std::function<int64_t(int64_t)> value, std::vector<std::string> message);
// Integer array `name` (present and with at least one value) edited by change.
Violation with_ints(std::string what, std::string name,
                    std::function<void(std::vector<int64_t>*)> change,
                    std::vector<std::string> message);
// On a call whose transposed flag is `transposed`: outputPadding[0] set to value(the call).
Violation with_output_padding(std::string what, bool transposed,
                              std::function<int64_t(const OpDef&, const CallSpec&)> value,
                              std::vector<std::string> message);
// outputPadding[0] at the larger of stride[0] and dilation[0] (too large).
int64_t at_stride_and_dilation(const OpDef& def, const CallSpec& spec);
// Whether the call described by spec is transposed (false without a transposed parameter).
bool spec_transposed(const OpDef& def, const CallSpec& spec);
// Integer attribute `name` set to value.
Violation with_integer(std::string what, std::string name, int64_t value,
                       std::vector<std::string> message);

// --- aclnnConvolution ---
// outputPadding not null when transposed (161001).
Check output_padding_present();
// bias (when given): rank 1 with transposed ? weight dim 1 x groups : weight dim 0 elements.
Check conv_bias_shape();
// stride and dilation rank - 2 values; padding as geometry.h's padding_length_ok; outputPadding
// (transposed) rank - 2.
Check conv_array_lengths();
// input, weight and output in the format of their rank (NCL, NCHW, NCDHW).
Check conv_formats(rules::Names names);
// Every weight spatial dim > 0, stride > 0, dilation > 0, padding >= 0.
Check conv_values();
// Every spatial dim's extent (spatial_extent: the padded input and the dilated kernel, or the
// transposed output before padding) below 2^63, so that index arithmetic cannot overflow.
Check conv_extents(std::string input);
// Not transposed, input not empty: the padded input spans the dilated kernel in every dim.
Check conv_kernel_fits(std::string input);
// groups > 0.
Check conv_groups();
// The channel and group rules of both modes, and outputPadding (transposed).
Check conv_channels();
// output's shape is the inferred one; an empty input or weight gives an empty output.
Check conv_output_shape(std::string input, std::string output);
// cubeMathType 0..`max` (4 forward: USE_FP32_ADD is admitted; 3 backward).
Check conv_cube_math_type(int64_t max);

// --- aclnnConvDepthwise2d ---
// kernelSize has two values equal to weight's last two dims.
Check depthwise_kernel_size();
// stride, dilation and padding have two values each.
Check depthwise_array_lengths();
// weight dim 0 > 0, kernel dims > 0, stride > 0, dilation > 0, padding >= 0, the kernel fits
// (self not empty), weight dim 1 is 0 or 1, weight dim 0 a multiple of self's channels, bias
// weight dim 0 long.
Check depthwise_values();

// --- aclnnConvolutionBackward ---
// outputMask has 3 values, and each output it asks for is not null (161001).
Check backward_mask();
// Each of gradOutput, input, weight, gradInput, gradWeight: rank 3 ND or NCL, rank 4 NCHW, rank 5
// NCDHW; gradBias ND when not transposed.
Check backward_formats();
// stride >= 1, padding >= 0, dilation >= 1; outputPadding >= 0 and below stride or dilation
// (transposed), all 0 (not transposed); groups >= 1.
Check backward_values();
// gradOutput and weight have input's rank.
Check backward_ranks();
// gradOutput not empty when input and weight are not.
Check backward_grad_output_not_empty();
// gradInput input's shape, gradWeight weight's, gradBias (gradOutput dim 1).
Check backward_output_shapes();
// stride and dilation rank - 2 values, padding and outputPadding rank - 2 (or 4 for 2-D).
Check backward_array_lengths();
// The channels and groups of the convolution (transposed: gradOutput is its input).
Check backward_channels();
// gradOutput's spatial dims are the forward's output sizes for input's.
Check backward_spatial();
// With an empty input, weight or gradOutput: biasSizes (mask[2]) is [gradOutput dim 1]
// (transposed: [weight dim 1 x groups]); gradInput (mask[0]) needs an input with no batch or no
// channels.
Check backward_empty();

}  // namespace oa::conv
