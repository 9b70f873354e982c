// float64 reference of aclnnConvTbc and aclnnConvTbcBackward, written from the formulas of SPEC
// sections 8 and 11. Arrays are dense and row-major: x (T, B, Cin), w (K, Cin, Cout), bias (Cout),
// g = self of the backward (Tout, B, Cout). A term whose x or g index falls outside its tensor is
// absent (not a zero that multiplies), so an Inf or NaN only reaches the outputs whose formula has
// it. Each result comes with its magnitude, the sum of the absolute values of its terms (bias
// included), which bounds the rounding error of any float32 evaluation.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

namespace oa_ref {

struct TbcSizes {
  int64_t t = 0;
  int64_t b = 0;
  int64_t ci = 0;
  int64_t co = 0;
  int64_t k = 0;
  int64_t pad = 0;
  int64_t tout() const { return t + 2 * pad - k + 1; }
};

struct Sums {
  std::vector<double> value;
  std::vector<double> magnitude;

  explicit Sums(int64_t count)
      : value(static_cast<size_t>(count), 0.0), magnitude(static_cast<size_t>(count), 0.0) {}
  void add(int64_t i, double term) {
    value[static_cast<size_t>(i)] += term;
    magnitude[static_cast<size_t>(i)] += std::fabs(term);
  }
};

// output[t, b, o] = bias[o] + sum over k, i with 0 <= t + k - pad < T of x[t + k - pad, b, i] *
// w[k, i, o].
inline Sums conv_tbc(const TbcSizes& s, const std::vector<double>& x, const std::vector<double>& w,
                     const std::vector<double>& bias) {
  Sums out(s.tout() * s.b * s.co);
  for (int64_t t = 0; t < s.tout(); ++t) {
    for (int64_t b = 0; b < s.b; ++b) {
      for (int64_t o = 0; o < s.co; ++o) {
        const int64_t at = (t * s.b + b) * s.co + o;
        out.add(at, bias[static_cast<size_t>(o)]);
        for (int64_t k = 0; k < s.k; ++k) {
          const int64_t row = t + k - s.pad;
          if (row < 0 || row >= s.t) {
            continue;
          }
          for (int64_t i = 0; i < s.ci; ++i) {
            out.add(at, x[static_cast<size_t>((row * s.b + b) * s.ci + i)] *
                            w[static_cast<size_t>((k * s.ci + i) * s.co + o)]);
          }
        }
      }
    }
  }
  return out;
}

// gradInput[r, b, i] = sum over k, o with 0 <= r + pad - k < Tout of g[r + pad - k, b, o] *
// w[k, i, o].
inline Sums conv_tbc_grad_input(const TbcSizes& s, const std::vector<double>& g,
                                const std::vector<double>& w) {
  Sums out(s.t * s.b * s.ci);
  for (int64_t r = 0; r < s.t; ++r) {
    for (int64_t b = 0; b < s.b; ++b) {
      for (int64_t i = 0; i < s.ci; ++i) {
        const int64_t at = (r * s.b + b) * s.ci + i;
        for (int64_t k = 0; k < s.k; ++k) {
          const int64_t time = r + s.pad - k;
          if (time < 0 || time >= s.tout()) {
            continue;
          }
          for (int64_t o = 0; o < s.co; ++o) {
            out.add(at, g[static_cast<size_t>((time * s.b + b) * s.co + o)] *
                            w[static_cast<size_t>((k * s.ci + i) * s.co + o)]);
          }
        }
      }
    }
  }
  return out;
}

// gradWeight[k, i, o] = sum over b, t with 0 <= t + k - pad < T of x[t + k - pad, b, i] *
// g[t, b, o].
inline Sums conv_tbc_grad_weight(const TbcSizes& s, const std::vector<double>& x,
                                 const std::vector<double>& g) {
  Sums out(s.k * s.ci * s.co);
  for (int64_t k = 0; k < s.k; ++k) {
    for (int64_t i = 0; i < s.ci; ++i) {
      for (int64_t o = 0; o < s.co; ++o) {
        const int64_t at = (k * s.ci + i) * s.co + o;
        for (int64_t b = 0; b < s.b; ++b) {
          for (int64_t t = 0; t < s.tout(); ++t) {
            const int64_t row = t + k - s.pad;
            if (row < 0 || row >= s.t) {
              continue;
            }
            out.add(at, x[static_cast<size_t>((row * s.b + b) * s.ci + i)] *
                            g[static_cast<size_t>((t * s.b + b) * s.co + o)]);
          }
        }
      }
    }
  }
  return out;
}

// gradBias[o] = sum over t, b of g[t, b, o].
inline Sums conv_tbc_grad_bias(const TbcSizes& s, const std::vector<double>& g) {
  Sums out(s.co);
  for (int64_t t = 0; t < s.tout(); ++t) {
    for (int64_t b = 0; b < s.b; ++b) {
      for (int64_t o = 0; o < s.co; ++o) {
        out.add(o, g[static_cast<size_t>((t * s.b + b) * s.co + o)]);
      }
    }
  }
  return out;
}

// The number of terms of each output (bias counts as one for the forward), for error bounds.
inline int64_t conv_tbc_terms(const TbcSizes& s) { return s.k * s.ci + 1; }
inline int64_t grad_input_terms(const TbcSizes& s) { return s.k * s.co; }
inline int64_t grad_weight_terms(const TbcSizes& s) { return s.b * s.tout(); }
inline int64_t grad_bias_terms(const TbcSizes& s) { return s.b * s.tout(); }

}  // namespace oa_ref
