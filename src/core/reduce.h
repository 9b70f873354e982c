// Deterministic sums for reductions. A reduction walks its input in the elementwise engine's fixed
// chunks; each chunk accumulates its terms in order into a double (an error bound of about
// n·2^-53·Σ|terms|, far below float32 pairwise summation's), and the chunk partials are combined in
// chunk order. The same bits come out for any thread count and either ISA.
#pragma once

#include <cstdint>

namespace oa {

// acc + Σ values[i], in order, in double.
double accumulate(const float* values, int64_t n, double acc);

// Σ partials[i] in order (the chunks of one reduction).
double combine_partials(const double* partials, int64_t count);

}  // namespace oa
