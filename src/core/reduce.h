// Deterministic sums for reductions. A reduction walks its input in the elementwise engine's fixed
// chunks; each chunk accumulates its terms into a double in a fixed order (an error bound of about
// n·2^-53·Σ|terms|, far below float32 pairwise summation's), and the chunk partials are combined in
// chunk order. The same bits come out for any thread count and either ISA.
#pragma once

#include <cstdint>

namespace oa {

// The running sums of accumulate: value i goes to sum i % kAccumulateLanes.
constexpr int64_t kAccumulateLanes = 16;

// acc + Σ values[i] in double: sixteen running sums, value i into sum i % 16, added pairwise
// (combine_lanes), then to acc. One running sum, each addition waiting on the last, ran the
// SmoothL1Loss mean of 16M float32 elements 2.3x slower, and eight sums 1.15-1.18x slower than
// sixteen. core/reduce-inl.h adds values computed in SIMD registers the same way.
double accumulate(const float* values, int64_t n, double acc);

// acc + the kAccumulateLanes running sums added pairwise: sums 2k and 2k + 1 into k, halving
// until one is left (the sums are overwritten).
double combine_lanes(double* lane, double acc);

// Σ partials[i] in order (the chunks of one reduction).
double combine_partials(const double* partials, int64_t count);

}  // namespace oa
