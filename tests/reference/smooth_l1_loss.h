// An independent float64 reference for aclnnSmoothL1LossBackward and aclnnSmoothL1Loss (SPEC
// sections 9 and 11), written from the formulas alone: it shares no code with the library. It
// reads strided views of host copies of device buffers itself, broadcasts them (numpy rules),
// widens every element exactly to double and computes in double:
//   d = x - y
//   backward: (|d| < beta ? d / beta : sign(d), sign(0) = 0) * gradOutput * norm,
//             norm = 1 / numel(broadcast shape) for mean, else 1
//   forward:  |d| < beta ? 0.5 * d * d / beta : |d| - 0.5 * beta (so beta = 0 gives |d|),
//             summed in double for sum and mean (mean of nothing is NaN, sum of nothing is 0).
// It also rounds doubles to FLOAT, FLOAT16 and BF16 codes (once, nearest-even) and measures how
// many representable values apart two codes are, for the tests' tolerances.
#pragma once

#include <cstdint>
#include <vector>

#include "acl/acl_base.h"

namespace oa_ref {

using Dims = std::vector<int64_t>;

// A strided view of a host copy of a buffer: the element at index i lives at element
// offset + sum(i[d] * strides[d]) of bytes (strides in elements; zero or negative allowed).
struct HostView {
  Dims shape;
  Dims strides;
  int64_t offset = 0;
  aclDataType dtype = ACL_FLOAT;
  const unsigned char* bytes = nullptr;
};

// Bytes per element of FLOAT (4), FLOAT16 and BF16 (2).
int64_t element_size(aclDataType dtype);

// The exact value of a FLOAT, FLOAT16 or BF16 code.
double decode(aclDataType dtype, uint32_t code);

// value rounded once to dtype, to nearest with ties to even; overflow gives +-inf, NaN a quiet NaN.
uint32_t encode(aclDataType dtype, double value);

bool is_nan_code(aclDataType dtype, uint32_t code);

// How many representable values of dtype lie between two non-NaN codes (0 when equal; +0 and -0
// count as the same value; the largest finite value and infinity are 1 apart).
int64_t ulp_distance(aclDataType dtype, uint32_t a, uint32_t b);

// The code stored at element `linear` (row-major over view.shape) of the view.
uint32_t read_code(const HostView& view, int64_t linear);

// numpy broadcasting of the shapes (aligned at the last dim; dims of 1 stretch). False when two
// dims differ and neither is 1.
bool broadcast_shapes(const std::vector<Dims>& shapes, Dims* out);

int64_t element_count(const Dims& shape);

// The gradient for every element of the broadcast of the three views, row-major.
std::vector<double> smooth_l1_loss_backward(const HostView& grad_output, const HostView& self,
                                            const HostView& target, int64_t reduction, float beta);

// The loss term for every element of the broadcast of self and target, row-major.
std::vector<double> smooth_l1_loss_terms(const HostView& self, const HostView& target, float beta);

// The mean (reduction 1) or sum (reduction 2) of the loss terms.
double smooth_l1_loss_reduced(const HostView& self, const HostView& target, int64_t reduction,
                              float beta);

}  // namespace oa_ref
