// What the definitions of aclnnConvolution, aclnnConvDepthwise2d and aclnnConvolutionBackward
// share to describe their calls: the geometry parameters, the cubeMathType parameter, and the
// shape a convolution's output takes (for infer and the samples).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/op/build.h"
#include "core/op/definition.h"
#include "ops/conv/geometry.h"

namespace oa::conv {

// The geometry of a sample call.
struct Geometry {
  std::vector<int64_t> stride;
  std::vector<int64_t> padding;
  std::vector<int64_t> dilation;
  bool transposed = false;
  std::vector<int64_t> output_padding;
  int64_t groups = 1;
};

// cubeMathType 0..max: 4 (USE_FP32_ADD) is admitted by the forward operators only.
Param conv_cube_math_type_param(int64_t max);

// The geometry arrays: stride, padding, dilation.
Param stride_param();
Param padding_param(std::string rule);
Param dilation_param();

// The attributes of a call described by spec (arrays present, lengths as the checks want; false
// when not).
bool spec_attrs(const OpDef& def, const CallSpec& spec, int spatial, bool two_sided_1d,
                ConvAttrs* attrs);

// The output shape of a convolution of x (rank 3..5) with w: (N, Cout, spatial sizes), Cout =
// transposed ? w dim 1 x groups : w dim 0. False when a size is negative.
bool conv_output(const ConvAttrs& a, int64_t groups, const Shape& x, const Shape& w, Shape* out);

// Sets output's shape (and, when it has none yet, dtype and format from `like`).
void set_output(ArgSpec* output, const Shape& shape, const TensorSpec& like);

}  // namespace oa::conv
