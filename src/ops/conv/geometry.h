// The geometry of aclnnConvolution, aclnnConvolutionBackward and aclnnConvDepthwise2d (SPEC
// section 12): the attributes read as per-dim numbers, the output size CANN infers, and the plain
// (non-transposed) convolution every pass of the three operators computes.
#pragma once

#include <cstdint>
#include <vector>

#include "core/op/definition.h"

namespace oa::conv {

// The attributes of one call, per spatial dim (at most 3).
struct ConvAttrs {
  int spatial = 0;  // the tensors' rank - 2
  int64_t stride[3] = {1, 1, 1};
  int64_t dilation[3] = {1, 1, 1};
  int64_t pad_l[3] = {0, 0, 0};  // before the first element
  int64_t pad_r[3] = {0, 0, 0};  // after the last
  int64_t output_padding[3] = {0, 0, 0};
  bool transposed = false;
};

// Whether `length` padding values suit a convolution of `spatial` dims: one per dim, or (1-D not
// transposed, 2-D either way) two per dim: 1-D [left, right], 2-D [top, bottom, left, right].
bool padding_length_ok(int spatial, bool transposed, size_t length);

// The attributes from arrays whose lengths the checks admitted (output_padding is read only when
// transposed).
ConvAttrs make_attrs(int spatial, const std::vector<int64_t>& stride,
                     const std::vector<int64_t>& padding, const std::vector<int64_t>& dilation,
                     bool transposed, const std::vector<int64_t>& output_padding);

// The attributes of a checked call of one of the three operators.
ConvAttrs conv_attrs(const Call& call);

// The output size of spatial dim `dim` for an input size and a kernel size, with C++'s truncating
// division as CANN has it: (in + pad_l + pad_r - dilation (k - 1) - 1) / stride + 1, or
// transposed (in - 1) stride - pad_l - pad_r + dilation (k - 1) + output_padding + 1. Sizes past
// 2^62 in magnitude come back as INT64_MIN (never a valid size).
int64_t output_size(const ConvAttrs& a, int dim, int64_t in, int64_t k);

// The largest index extent the kernels compute in spatial dim `dim`, exactly: the padded input
// in + pad_l + pad_r or the dilated kernel dilation (k - 1) + 1, whichever is larger, or
// transposed, the unpadded output (in - 1) stride + dilation (k - 1) + output_padding + 1. Their
// int64_t index arithmetic is exact when it is below 2^63.
__int128 spatial_extent(const ConvAttrs& a, int dim, int64_t in, int64_t k);

// The integer array parameter `name` of a call (null when absent).
const std::vector<int64_t>* array_values(const Call& call, const char* name);

// A plain convolution y = conv(x, w): x (n, cx, x...), w (cy, cx / groups, k...),
// y (n, cy, y...), y[d] = (x[d] + pad_l[d] + pad_r[d] - dilation[d] (k[d] - 1) - 1) / stride[d] +
// 1. Missing spatial dims (1-D, 2-D) are leading dims of size 1. The forward of a transposed
// convolution is this convolution's data gradient, with x the transposed output.
struct ConvProblem {
  int spatial = 0;
  int64_t n = 0;
  int64_t cx = 0;
  int64_t cy = 0;
  int64_t groups = 1;
  int64_t x[3] = {1, 1, 1};
  int64_t y[3] = {1, 1, 1};
  int64_t k[3] = {1, 1, 1};
  int64_t stride[3] = {1, 1, 1};
  int64_t dilation[3] = {1, 1, 1};
  int64_t pad_l[3] = {0, 0, 0};

  int64_t x_numel() const { return n * cx * x[0] * x[1] * x[2]; }
  int64_t y_numel() const { return n * cy * y[0] * y[1] * y[2]; }
  int64_t w_numel() const { return cy * (groups == 0 ? 0 : cx / groups) * k[0] * k[1] * k[2]; }
  bool k_is_one() const { return k[0] == 1 && k[1] == 1 && k[2] == 1; }
  // Multiply-adds times 2 of one pass (each pass has the same count).
  double flops() const {
    return 2.0 * static_cast<double>(y_numel()) *
           static_cast<double>(groups == 0 ? 0 : cx / groups) *
           static_cast<double>(k[0] * k[1] * k[2]);
  }
  // The padding after the last element that makes the sizes consistent (oneDNN's padding_r):
  // (y - 1) stride + dilation (k - 1) + 1 - x - pad_l. Below the call's own right padding when
  // the transposed outputPadding adds elements no tap reaches.
  int64_t pad_r(int d) const {
    return (y[d] - 1) * stride[d] + dilation[d] * (k[d] - 1) + 1 - x[d] - pad_l[d];
  }
};

// The problem with x of shape xs, w of shape ws and y of shape ys (rank 3 to 5, channels second).
ConvProblem make_problem(const ConvAttrs& a, int64_t groups, const Shape& xs, const Shape& ws,
                         const Shape& ys);

}  // namespace oa::conv
