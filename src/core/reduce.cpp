#include "core/reduce.h"

namespace oa {

double accumulate(const float* values, int64_t n, double acc) {
  for (int64_t i = 0; i < n; ++i) {
    acc += static_cast<double>(values[i]);
  }
  return acc;
}

double combine_partials(const double* partials, int64_t count) {
  double total = 0.0;
  for (int64_t i = 0; i < count; ++i) {
    total += partials[i];
  }
  return total;
}

}  // namespace oa
