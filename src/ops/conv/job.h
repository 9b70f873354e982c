// What a checked call of aclnnConvolution, aclnnConvDepthwise2d or aclnnConvolutionBackward
// computes, as the implementations see it: the plain convolution (geometry.h), up to three passes
// over it (each reading two tensors and writing one), and the bias gradient. Every view is read
// as (N, C, D, H, W): 1-D and 2-D tensors get leading spatial dims of size 1, a rank-1 bias is
// (1, C, 1, 1, 1).
#pragma once

#include <cstdint>
#include <vector>

#include "acl/acl_base.h"
#include "core/cube_math.h"
#include "core/isa.h"
#include "core/op/definition.h"
#include "ops/conv/geometry.h"

namespace oa::conv {

// bytes rounded up to a multiple of 64: the alignment of every region of the family's scratch.
inline int64_t aligned(int64_t bytes) { return (bytes + 63) / 64 * 64; }

struct View5 {
  char* data = nullptr;  // the view's first element
  aclDataType dtype = ACL_FLOAT;
  int64_t dims[5] = {1, 1, 1, 1, 1};
  int64_t strides[5] = {0, 0, 0, 0, 0};  // in elements

  int64_t numel() const { return dims[0] * dims[1] * dims[2] * dims[3] * dims[4]; }
  int64_t offset(int64_t i0, int64_t i1, int64_t i2, int64_t i3, int64_t i4) const {
    return i0 * strides[0] + i1 * strides[1] + i2 * strides[2] + i3 * strides[3] + i4 * strides[4];
  }
  // Row-major and contiguous (dims of size 1 aside).
  bool dense() const;
  // The trailing dims, none below `lowest`, whose elements lie evenly spaced (strides[4] apart) as
  // one run: returns the first of them, and their element count in *run.
  int trailing_run(int lowest, int64_t* run) const;
};

View5 view5(const aclTensor& tensor);

// The three products of a convolution y = conv(x, w):
//   forward           a = x,  b = w  -> y
//   backward_data     a = dy, b = w  -> dx
//   backward_weights  a = x,  b = dy -> dw
enum class Pass { forward, backward_data, backward_weights };

struct ConvStep {
  Pass pass = Pass::forward;
  View5 a;
  View5 b;
  View5 out;
  CubeRounding a_rounding = CubeRounding::none;
  CubeRounding b_rounding = CubeRounding::none;
  // out[n, c, ...] += bias[c] (the forward operators), bias rounded as bias_rounding says.
  bool has_bias = false;
  View5 bias;
  CubeRounding bias_rounding = CubeRounding::none;
};

struct ConvJob {
  ConvProblem problem;
  std::vector<ConvStep> steps;  // only those whose output has elements
  // grad_bias[c] = the sum of grad_output[n, c, ...] over n and the spatial dims.
  bool has_grad_bias = false;
  View5 grad_output;
  View5 grad_bias;
};

// How cubeMathType rounds a product's operand of dtype in this family (SPEC section 12):
// USE_FP16 rounds FLOAT and BF16 operands to float16 (CANN computes BF16 in FP16 there, with a
// warning); 4 (USE_FP32_ADD, a matmul option the checks admit) rounds nothing; the rest as
// core/cube_math.h.
CubeRounding operand_rounding(aclDataType dtype, int64_t cube_math_type);

// job.grad_bias = its sums, each over channel c of grad_output in row-major order in float64,
// rounded once (round_once.h). The reference's bias gradient.
void store_grad_bias(const ConvJob& job);

// The same sums, each in kGradBiasLanes float64 partial sums (element i of a run of evenly spaced
// elements into partial i mod kGradBiasLanes, the partials then added in order) so that the adds
// do not wait on each other: the oneDNN implementation's bias gradient. The same bits for any
// thread count and SIMD target.
constexpr int64_t kGradBiasLanes = 256;
void store_grad_bias_lanes(const ConvJob& job, Isa isa);

// aclnnConvolution and aclnnConvDepthwise2d: nothing when input, weight or output is empty.
ConvJob forward_job(const Call& call);
// aclnnConvolutionBackward: the gradients outputMask asks for.
ConvJob backward_job(const Call& call);

}  // namespace oa::conv
