// gradWeight: for each tap k,
//   gw[k] (ci x co) = sum over t < tout, b < batches of x[t + k - pad, b, :]^T . g[t, b, :]
// with x zero outside [0, t_in). Rows are (time, batch) pairs in TBC order, so the rows of x and g
// for a range of times are one uniformly strided matrix each.
//
// The times split into three ranges. The middle [lead, trail_begin) reads x only inside its data
// for every k: one GEMM per k over all of it, straight from x. The lead [0, lead) and the trail
// [trail_begin, tout) reach the padding: each is one GEMM per k over a small padded copy of the
// rows of x it reads (the edge buffers). Zeros times g change nothing while g is finite there;
// when the edge rows of g hold an Inf or NaN, the edges are summed time by time over the times
// whose x row is data only, so that 0 * Inf never enters a sum the formula does not have.
#pragma once

#include <cstdint>
#include <memory>

#include "core/gemm.h"

namespace oa::conv {

// The oneDNN products of gradWeight for one operand precision.
struct WeightGradProducts {
  std::shared_ptr<const Gemm> middle;  // depth (trail_begin - lead) * batches; null when empty
  std::shared_ptr<const Gemm> lead;    // depth lead * batches
  std::shared_ptr<const Gemm> trail;   // depth (tout - trail_begin) * batches
  std::shared_ptr<const Gemm> time;    // depth batches, accumulating: one time of the exact edges
};

struct WeightGrad {
  int64_t taps = 0;
  int64_t batches = 0;
  int64_t ci = 0;
  int64_t co = 0;
  int64_t pad = 0;
  int64_t t_in = 0;
  int64_t tout = 0;
  int64_t lead = 0;         // times [0, lead) read padding
  int64_t trail_begin = 0;  // times [trail_begin, tout) read padding
  // x and g as dense (time, batch) rows of ci and co values; the edge buffers hold the padded
  // rows [0, lead + taps - 1) and [trail_begin, tout + taps - 1) of x the same way; gw[k] is the
  // dense float32 ci x co matrix at gw + k * gw_k. (Dense: oneDNN's fast kernels take dense
  // matrices only.) One task per tap k computes the whole of gw[k].
  int64_t gw_k = 0;

  // As in Toeplitz: the products for the operands' precision, and float32 ones.
  Precision precision = Precision::f32;
  WeightGradProducts products;
  WeightGradProducts f32_products;

  const WeightGradProducts& products_for(Precision operands) const {
    return operands == precision ? products : f32_products;
  }
};

// The operands of one run, in `precision`, and the float32 output.
struct WeightGradOperands {
  Precision precision;
  const char* x;
  const char* g;
  const char* lead_x;
  const char* trail_x;
  float* gw;
};

// gw[k]; exact_edges selects the time-by-time edges (g has a non-finite value there).
bool run_weight_grad_task(const WeightGrad& p, int64_t k, int slot, const WeightGradOperands& o,
                          bool exact_edges, void* scratch);

}  // namespace oa::conv
