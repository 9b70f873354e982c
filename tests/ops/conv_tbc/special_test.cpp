// The seed's example, empty inputs and weights, Inf and NaN, and 8-bit gradWeight saturation.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "ops/conv_tbc/tbc_call.h"

namespace tbc_test {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

std::vector<double> constant(int64_t count, double value) {
  return std::vector<double>(static_cast<size_t>(count), value);
}

// The seed's program: self, input, weight and bias all ones, pad 0, cubeMathType 1.
TEST(ConvTbcSpecial, SeedExample) {
  std::mt19937_64 rng(1);
  BackwardCase c;
  c.s = {5, 1, 2, 2, 1, 0};
  c.cube_math_type = 1;
  const auto t = backward_call(c, &rng);
  for (const char* in : {"self", "input", "weight", "bias"}) {
    set(*t, in, [](int64_t) { return 1.0; });
  }
  run(*t);
  ASSERT_TRUE(t->only_views_written());
  EXPECT_EQ(t->tensor("gradInput")->read(), constant(10, 2.0));  // sum over Cout of 1 * 1
  EXPECT_EQ(t->tensor("gradWeight")->read(), constant(4, 5.0));  // sum over Tout = 5
  EXPECT_EQ(t->tensor("gradBias")->read(), constant(2, 5.0));

  ForwardCase f;
  f.s = c.s;
  f.cube_math_type = 1;
  const auto out = forward_call(f, &rng);
  for (const char* in : {"self", "weight", "bias"}) {
    set(*out, in, [](int64_t) { return 1.0; });
  }
  run(*out);
  ASSERT_TRUE(out->only_views_written());
  EXPECT_EQ(out->tensor("output")->read(), constant(10, 3.0));  // bias + sum over Cin
}

// T = 0 (K <= 2 pad) and Cin = 0: gradInput and gradWeight are zeros where they have elements,
// gradBias is still the sum of self, and the forward output is the bias in every row. (K = 0 is
// rejected, as CANN does.)
TEST(ConvTbcSpecial, EmptyInputOrWeight) {
  const TbcSizes cases[] = {
      {0, 2, 3, 4, 2, 1},  // T = 0
      {6, 2, 0, 4, 3, 1},  // Cin = 0
  };
  std::mt19937_64 rng(2);
  for (const TbcSizes& s : cases) {
    SCOPED_TRACE(sizes_string(s));
    for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
      BackwardCase c;
      c.s = s;
      c.g = c.x = c.w = c.bias = c.grad_weight = dtype;
      c.grad_input_layout = Layout::permuted;
      run_backward_case(c, &rng);
      ForwardCase f;
      f.s = s;
      f.x = f.bias = dtype;
      run_forward_case(f, &rng);
    }
  }
}

// The configurations of CANN's own system tests: every tensor NCL, a FLOAT16 bias with BF16
// tensors and the reverse, pads far beyond the kernel (most output rows see only padding).
TEST(ConvTbcSpecial, CannSystemTestConfigurations) {
  std::mt19937_64 rng(5);
  const struct {
    aclDataType tensors;
    aclDataType bias;
    TbcSizes s;
  } cases[] = {
      {ACL_BF16, ACL_FLOAT16, {9, 3, 5, 7, 4, 400}},
      {ACL_FLOAT16, ACL_BF16, {12, 2, 6, 3, 5, 443}},
      {ACL_FLOAT, ACL_FLOAT16, {3, 2, 4, 4, 3, 354}},
  };
  for (const auto& k : cases) {
    SCOPED_TRACE(sizes_string(k.s));
    ForwardCase f;
    f.s = k.s;
    f.x = k.tensors;
    f.bias = k.bias;
    f.format = ACL_FORMAT_NCL;
    run_forward_case(f, &rng);
    BackwardCase c;
    c.s = k.s;
    c.g = c.x = c.w = c.grad_weight = k.tensors;
    c.bias = k.bias;
    run_backward_case(c, &rng);
  }
}

// An empty forward output (B = 0) is planned and run without touching anything.
TEST(ConvTbcSpecial, ForwardEmptyBatch) {
  std::mt19937_64 rng(3);
  ForwardCase c;
  c.s = {4, 0, 3, 5, 2, 1};
  run_forward_case(c, &rng);
}

// An Inf or NaN in the weight reaches only the outputs whose formula has it: the rows whose window
// reaches the padding have no term with the padded positions, so they stay finite.
TEST(ConvTbcSpecial, NonFiniteWeightReachesOnlyItsTerms) {
  std::mt19937_64 rng(4);
  const TbcSizes s{6, 2, 3, 2, 3, 2};
  for (double special : {kInf, -kInf, std::nan("")}) {
    ForwardCase f;
    f.s = s;
    const auto out = forward_call(f, &rng);
    set(*out, "weight", [&](int64_t i) { return i == 0 ? special : 0.5; });  // w[0, 0, 0]
    run(*out);
    expect_forward(s, *out, 0, false);
    ASSERT_TRUE(std::isfinite(out->tensor("output")->read()[0])) << "row 0 has no term with w[0]";

    BackwardCase c;
    c.s = s;
    const auto t = backward_call(c, &rng);
    set(*t, "weight", [&](int64_t i) { return i == 0 ? special : 0.5; });
    run(*t);
    expect_backward(s, *t, 0, false);
  }
}

// An Inf in self at the first and last times: gradWeight's taps whose input row for those times is
// padding have no such term and stay finite.
TEST(ConvTbcSpecial, NonFiniteSelfAtTheEdges) {
  std::mt19937_64 rng(5);
  for (const TbcSizes& s : {TbcSizes{9, 2, 3, 4, 4, 2}, TbcSizes{3, 1, 2, 2, 5, 4}}) {
    BackwardCase c;
    c.s = s;
    c.g_layout = Layout::permuted;
    const auto t = backward_call(c, &rng);
    const int64_t last = s.tout() * s.b * s.co - 1;
    set(*t, "self", [&](int64_t i) { return i == 0 ? kInf : (i == last ? -kInf : 0.25); });
    run(*t);
    expect_backward(s, *t, 0, false);
  }
  // The same with self read in place (FLOAT, contiguous) and an Inf inside the middle too.
  const TbcSizes s{12, 2, 3, 4, 3, 1};
  BackwardCase c;
  c.s = s;
  const auto t = backward_call(c, &rng);
  set(*t, "self", [&](int64_t i) { return i == 1 || i == 40 ? kInf : 0.25; });
  run(*t);
  expect_backward(s, *t, 0, false);
}

// A NaN in the input reaches exactly the outputs whose terms include it.
TEST(ConvTbcSpecial, NanInputPropagatesToItsTerms) {
  std::mt19937_64 rng(6);
  const TbcSizes s{10, 2, 3, 4, 3, 1};
  BackwardCase c;
  c.s = s;
  const auto t = backward_call(c, &rng);
  set(*t, "input", [](int64_t i) { return i == 13 ? std::nan("") : 0.5; });
  run(*t);
  expect_backward(s, *t, 0, false);
  const auto out = forward_of(*t, s, Layout::contiguous, &rng);
  run(*out);
  expect_forward(s, *out, 0, false);
}

// USE_FP16 rounds a FLOAT weight above 65504 to Inf before multiplying; as any Inf, it then
// reaches only the outputs whose formula has it.
TEST(ConvTbcSpecial, Fp16RoundingOverflowsToInf) {
  std::mt19937_64 rng(7);
  const TbcSizes s{7, 2, 3, 3, 3, 1};
  BackwardCase c;
  c.s = s;
  c.cube_math_type = 2;
  const auto t = backward_call(c, &rng);
  set(*t, "weight", [](int64_t i) { return i == 4 ? 1e5 : 0.5; });
  run(*t);
  expect_backward(s, *t, 2, false);
}

// Large gradients in 8-bit gradWeight: FLOAT8_E4M3FN saturates at 448, HIFLOAT8 goes to Inf from
// 40960 (the float64 result converted by the spec's rules, SPEC section 4).
TEST(ConvTbcSpecial, EightBitGradWeightSaturation) {
  std::mt19937_64 rng(8);
  for (aclDataType dtype : {ACL_FLOAT8_E4M3FN, ACL_HIFLOAT8}) {
    BackwardCase c;
    c.s = {40, 3, 4, 5, 2, 1};
    c.grad_weight = dtype;
    const auto t = backward_call(c, &rng);
    set(*t, "input", [](int64_t i) { return 30.0 + static_cast<double>(i % 7); });
    set(*t, "self",
        [](int64_t i) { return (i % 3 == 0 ? -40.0 : 25.0) + static_cast<double>(i % 5); });
    run(*t);
    expect_backward(c.s, *t, 0, false);
    bool beyond = false;
    for (double v : t->tensor("gradWeight")->read()) {
      beyond = beyond || std::fabs(v) >= (dtype == ACL_FLOAT8_E4M3FN ? 448 : 32768);
    }
    EXPECT_TRUE(beyond) << "the case must reach the saturation of the 8-bit type";
  }
}

// BF16 operands run on the CPU's bfloat16 products, which flush subnormal inputs and results to
// zero; values below 2^-56 make the run fall back to float32 products, so that tiny results stay
// what float32 arithmetic gives (src/ops/conv/precision.h). Every BF16 operand tiny, and only
// the weight tiny, through both the in-place and the packed paths.
TEST(ConvTbcSpecial, TinyBf16ValuesStayExact) {
  std::mt19937_64 rng(10);
  for (Layout layout : {Layout::contiguous, Layout::permuted}) {
    for (bool only_weight : {false, true}) {
      const TbcSizes s{20, 3, 6, 5, 3, 1};
      BackwardCase c;
      c.s = s;
      c.g = c.x = c.w = c.bias = c.grad_weight = ACL_BF16;
      c.g_layout = c.x_layout = layout;
      c.data = only_weight ? Data::normal : Data::tiny;
      const auto t = backward_call(c, &rng);
      if (only_weight) {
        fill(*t, "weight", Data::tiny, &rng);
      }
      run(*t);
      expect_backward(s, *t, 0, false);
      const auto out = forward_of(*t, s, layout, &rng);
      run(*out);
      expect_forward(s, *out, 0, false);
    }
  }
}

}  // namespace
}  // namespace tbc_test
