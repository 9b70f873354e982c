// Random forward and backward cases against the float64 reference (see tbc_random.h, tbc_run.h).
#include <gtest/gtest.h>

#include "ops/conv_tbc/tbc_random.h"

namespace tbc_test {
namespace {

TEST(ConvTbcRandom, ForwardMatchesReference) {
  std::mt19937_64 rng(20240501);
  for (int i = 0; i < kRandomCases; ++i) {
    ForwardCase c;
    c.s = random_sizes(&rng);
    c.x = random_float_type(&rng);
    c.bias = random_float_type(&rng);
    c.cube_math_type = random_cube_math_type(&rng, c.x == ACL_BF16);
    c.x_layout = random_layout(&rng, true);
    c.w_layout = random_layout(&rng, true);
    c.bias_layout = random_layout(&rng, true);
    c.out_layout = random_layout(&rng, false);
    SCOPED_TRACE("case " + std::to_string(i) + ": " + sizes_string(c.s) +
                 " cubeMathType=" + std::to_string(c.cube_math_type));
    run_forward_case(c, &rng);
  }
}

TEST(ConvTbcRandom, BackwardMatchesReference) {
  std::mt19937_64 rng(20240502);
  constexpr aclDataType kEightBit[] = {ACL_HIFLOAT8, ACL_FLOAT8_E4M3FN};
  for (int i = 0; i < kRandomCases; ++i) {
    BackwardCase c;
    c.s = random_sizes(&rng);
    c.g = random_float_type(&rng);
    c.x = random_float_type(&rng);
    c.w = random_float_type(&rng);
    c.bias = random_float_type(&rng);
    const int64_t out = uniform(&rng, 0, 3);
    c.grad_weight = out < 2 ? kEightBit[out] : c.w;
    c.cube_math_type =
        random_cube_math_type(&rng, c.g == ACL_BF16 || c.x == ACL_BF16 || c.w == ACL_BF16);
    c.g_layout = random_layout(&rng, true);
    c.x_layout = random_layout(&rng, true);
    c.w_layout = random_layout(&rng, true);
    c.grad_input_layout = random_layout(&rng, false);
    c.grad_weight_layout = random_layout(&rng, false);
    c.grad_bias_layout = random_layout(&rng, false);
    SCOPED_TRACE("case " + std::to_string(i) + ": " + sizes_string(c.s) +
                 " cubeMathType=" + std::to_string(c.cube_math_type));
    run_backward_case(c, &rng);
  }
}

}  // namespace
}  // namespace tbc_test
