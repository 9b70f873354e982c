// Random ConvTbc cases: sizes from the ranges the issue names (K 1..64, pad 0..K+1, T and B from
// 1, Cin and Cout 1..300), every dtype mix, every output dtype, every cubeMathType, contiguous
// and non-contiguous views. The reference is O(Tout B Cin Cout K), so each case's sizes are
// drawn from a regime (small everything, wide channels, long kernels) and kept under a work cap.
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>

#include "ops/conv_tbc/tbc_call.h"

namespace tbc_test {

// Fewer cases under the sanitizers, whose build runs the float64 reference several times slower.
#if defined(__SANITIZE_ADDRESS__)
constexpr int kRandomCases = 40;
constexpr double kWorkCap = 1e6;
#else
constexpr int kRandomCases = 100;
constexpr double kWorkCap = 4e6;
#endif

inline int64_t uniform(std::mt19937_64* rng, int64_t low, int64_t high) {
  return std::uniform_int_distribution<int64_t>(low, high)(*rng);
}

inline TbcSizes random_sizes(std::mt19937_64* rng) {
  TbcSizes s;
  for (;;) {
    switch (uniform(rng, 0, 2)) {
      case 0:  // small everything
        s.k = uniform(rng, 1, 8);
        s.ci = uniform(rng, 1, 24);
        s.co = uniform(rng, 1, 24);
        s.b = uniform(rng, 1, 5);
        break;
      case 1:  // wide channels
        s.k = uniform(rng, 1, 4);
        s.ci = uniform(rng, 1, 300);
        s.co = uniform(rng, 1, 300);
        s.b = uniform(rng, 1, 3);
        break;
      default:  // long kernels
        s.k = uniform(rng, 1, 64);
        s.ci = uniform(rng, 1, 12);
        s.co = uniform(rng, 1, 12);
        s.b = uniform(rng, 1, 4);
        break;
    }
    s.pad = uniform(rng, 0, s.k + 1);
    const int64_t shortest = std::max<int64_t>(1, s.k - 2 * s.pad);
    s.t = shortest + uniform(rng, 0, uniform(rng, 0, 1) == 0 ? 4 : 80);
    const double work =
        static_cast<double>(s.tout() * s.b * s.ci) * static_cast<double>(s.co * s.k);
    if (work <= kWorkCap) {
      return s;
    }
  }
}

inline aclDataType random_float_type(std::mt19937_64* rng) {
  constexpr aclDataType kTypes[] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
  return kTypes[uniform(rng, 0, 2)];
}

inline Layout random_layout(std::mt19937_64* rng, bool input) {
  const int64_t pick = uniform(rng, 0, input ? 4 : 2);
  return pick == 0 ? Layout::permuted : (pick == 4 ? Layout::broadcast : Layout::contiguous);
}

// cubeMathType 0..3, but not USE_FP16 (2) when an input is BF16.
inline int8_t random_cube_math_type(std::mt19937_64* rng, bool has_bf16) {
  for (;;) {
    const auto mode = static_cast<int8_t>(uniform(rng, 0, 3));
    if (mode != 2 || !has_bf16) {
      return mode;
    }
  }
}

}  // namespace tbc_test
