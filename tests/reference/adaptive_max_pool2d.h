// Float64 reference of adaptive 2-D max pooling (SPEC section 11) and of its gradient (SPEC
// section 7), written from the formulas with no shortcut. Tensors are row-major vectors of
// [planes, H, W] (input side) and [planes, Ho, Wo] (output side); planes = N * C.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

namespace oa_ref {

struct PoolShape {
  int64_t planes = 1;
  int64_t h = 1;
  int64_t w = 1;
  int64_t ho = 1;
  int64_t wo = 1;
};

// Window k of `out` windows over `in` positions: [floor(k * in / out), ceil((k + 1) * in / out)).
inline int64_t window_begin(int64_t k, int64_t in, int64_t out) { return k * in / out; }
inline int64_t window_end(int64_t k, int64_t in, int64_t out) {
  return ((k + 1) * in + out - 1) / out;
}

struct PoolResult {
  std::vector<double> values;
  std::vector<int64_t> indices;  // h * W + w within the plane
};

// Each window scanned in row-major order; an element replaces the current maximum when it is
// greater or NaN; the first element starts as the maximum.
inline PoolResult adaptive_max_pool2d(const std::vector<double>& x, const PoolShape& s) {
  PoolResult r;
  for (int64_t p = 0; p < s.planes; ++p) {
    for (int64_t i = 0; i < s.ho; ++i) {
      for (int64_t j = 0; j < s.wo; ++j) {
        bool first = true;
        double best = 0;
        int64_t best_index = 0;
        for (int64_t h = window_begin(i, s.h, s.ho); h < window_end(i, s.h, s.ho); ++h) {
          for (int64_t w = window_begin(j, s.w, s.wo); w < window_end(j, s.w, s.wo); ++w) {
            const double v = x[(p * s.h + h) * s.w + w];
            if (first || v > best || std::isnan(v)) {
              best = v;
              best_index = h * s.w + w;
              first = false;
            }
          }
        }
        r.values.push_back(best);
        r.indices.push_back(best_index);
      }
    }
  }
  return r;
}

// gradInput = 0, then gradInput[p, indices[p, i, j]] += gradOutput[p, i, j], in double.
inline std::vector<double> adaptive_max_pool2d_backward(const std::vector<double>& grad_output,
                                                        const std::vector<int64_t>& indices,
                                                        const PoolShape& s) {
  std::vector<double> grad_input(s.planes * s.h * s.w, 0.0);
  for (int64_t p = 0; p < s.planes; ++p) {
    for (int64_t o = 0; o < s.ho * s.wo; ++o) {
      const int64_t k = p * s.ho * s.wo + o;
      grad_input[p * s.h * s.w + indices[k]] += grad_output[k];
    }
  }
  return grad_input;
}

// Σ|terms| per gradInput element: the scale of the rounding error of any float32 summation order.
inline std::vector<double> adaptive_max_pool2d_backward_magnitude(
    const std::vector<double>& grad_output, const std::vector<int64_t>& indices,
    const PoolShape& s) {
  std::vector<double> magnitude(s.planes * s.h * s.w, 0.0);
  for (int64_t p = 0; p < s.planes; ++p) {
    for (int64_t o = 0; o < s.ho * s.wo; ++o) {
      const int64_t k = p * s.ho * s.wo + o;
      magnitude[p * s.h * s.w + indices[k]] += std::fabs(grad_output[k]);
    }
  }
  return magnitude;
}

// The order SPEC section 7 fixes: float32 accumulation in row-major output order per plane (the
// caller rounds the result once to the output dtype).
inline std::vector<float> adaptive_max_pool2d_backward_float32_order(
    const std::vector<double>& grad_output, const std::vector<int64_t>& indices,
    const PoolShape& s) {
  std::vector<float> grad_input(s.planes * s.h * s.w, 0.0f);
  for (int64_t p = 0; p < s.planes; ++p) {
    for (int64_t o = 0; o < s.ho * s.wo; ++o) {
      const int64_t k = p * s.ho * s.wo + o;
      grad_input[p * s.h * s.w + indices[k]] += static_cast<float>(grad_output[k]);
    }
  }
  return grad_input;
}

}  // namespace oa_ref
