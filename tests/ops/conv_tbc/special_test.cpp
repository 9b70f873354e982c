// The seed's example, empty inputs and weights, Inf and NaN, and 8-bit gradWeight saturation.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "ops/conv_tbc/tbc_run.h"

namespace tbc_test {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

std::vector<double> constant(int64_t count, double value) {
  return std::vector<double>(static_cast<size_t>(count), value);
}

// The seed's program: self, input, weight and bias all ones, pad 0, cubeMathType 1.
TEST(ConvTbcSpecial, SeedExample) {
  std::mt19937 rng(1);
  BackwardCase c;
  c.s = {5, 1, 2, 2, 1, 0};
  BackwardTensors t(c, &rng);
  for (TestTensor* in : {&t.g, &t.x, &t.w, &t.bias}) {
    in->set([](int64_t) { return 1.0; });
  }
  call_backward(&t, 0, 1);
  ASSERT_TRUE(t.grad_input.read());
  ASSERT_TRUE(t.grad_weight.read());
  ASSERT_TRUE(t.grad_bias.read());
  EXPECT_EQ(t.grad_input.values(), constant(10, 2.0));  // sum over Cout of 1 * 1
  EXPECT_EQ(t.grad_weight.values(), constant(4, 5.0));  // sum over Tout = 5
  EXPECT_EQ(t.grad_bias.values(), constant(2, 5.0));

  TestTensor out({5, 1, 2}, ACL_FLOAT, Layout::contiguous, &rng);
  call_forward(&t.x, &t.w, &t.bias, &out, 0, 1);
  ASSERT_TRUE(out.read());
  EXPECT_EQ(out.values(), constant(10, 3.0));  // bias + sum over Cin
}

// T = 0 (K <= 2 pad) and Cin = 0: gradInput and gradWeight are zeros where they have elements,
// gradBias is still the sum of self, and the forward output is the bias in every row. (K = 0 is
// rejected, as CANN does.)
TEST(ConvTbcSpecial, EmptyInputOrWeight) {
  const TbcSizes cases[] = {
      {0, 2, 3, 4, 2, 1},  // T = 0
      {6, 2, 0, 4, 3, 1},  // Cin = 0
  };
  std::mt19937 rng(2);
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
  std::mt19937 rng(5);
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
  std::mt19937 rng(3);
  ForwardCase c;
  c.s = {4, 0, 3, 5, 2, 1};
  run_forward_case(c, &rng);
}

// An Inf or NaN in the weight reaches only the outputs whose formula has it: the rows whose window
// reaches the padding have no term with the padded positions, so they stay finite.
TEST(ConvTbcSpecial, NonFiniteWeightReachesOnlyItsTerms) {
  std::mt19937 rng(4);
  const TbcSizes s{6, 2, 3, 2, 3, 2};
  for (double special : {kInf, -kInf, std::nan("")}) {
    ForwardCase f;
    f.s = s;
    TestTensor x({s.t, s.b, s.ci}, ACL_FLOAT, Layout::contiguous, &rng);
    TestTensor w({s.k, s.ci, s.co}, ACL_FLOAT, Layout::contiguous, &rng);
    TestTensor bias({s.co}, ACL_FLOAT, Layout::contiguous, &rng);
    TestTensor out({s.tout(), s.b, s.co}, ACL_FLOAT, Layout::contiguous, &rng);
    fill(&x, Data::normal, &rng);
    fill(&bias, Data::normal, &rng);
    w.set([&](int64_t i) { return i == 0 ? special : 0.5; });  // w[0, 0, 0]
    call_forward(&x, &w, &bias, &out, s.pad, 0);
    expect_forward(s, x, w, bias, &out, 0, false);
    ASSERT_TRUE(std::isfinite(out.values()[0])) << "row 0 has no term with w[0]";

    BackwardCase c;
    c.s = s;
    BackwardTensors t(c, &rng);
    t.fill_all(Data::normal, &rng);
    t.w.set([&](int64_t i) { return i == 0 ? special : 0.5; });
    call_backward(&t, s.pad, 0);
    expect_backward(s, &t, 0, false);
  }
}

// An Inf in self at the first and last times: gradWeight's taps whose input row for those times is
// padding have no such term and stay finite.
TEST(ConvTbcSpecial, NonFiniteSelfAtTheEdges) {
  std::mt19937 rng(5);
  for (const TbcSizes& s : {TbcSizes{9, 2, 3, 4, 4, 2}, TbcSizes{3, 1, 2, 2, 5, 4}}) {
    BackwardCase c;
    c.s = s;
    c.g_layout = Layout::permuted;
    BackwardTensors t(c, &rng);
    t.fill_all(Data::normal, &rng);
    const int64_t last = s.tout() * s.b * s.co - 1;
    t.g.set([&](int64_t i) { return i == 0 ? kInf : (i == last ? -kInf : 0.25); });
    call_backward(&t, s.pad, 0);
    expect_backward(s, &t, 0, false);
  }
  // The same with self read in place (FLOAT, contiguous) and an Inf inside the middle too.
  const TbcSizes s{12, 2, 3, 4, 3, 1};
  BackwardCase c;
  c.s = s;
  BackwardTensors t(c, &rng);
  t.fill_all(Data::normal, &rng);
  t.g.set([&](int64_t i) { return i == 1 || i == 40 ? kInf : 0.25; });
  call_backward(&t, s.pad, 0);
  expect_backward(s, &t, 0, false);
}

// A NaN in the input reaches exactly the outputs whose terms include it.
TEST(ConvTbcSpecial, NanInputPropagatesToItsTerms) {
  std::mt19937 rng(6);
  const TbcSizes s{10, 2, 3, 4, 3, 1};
  BackwardCase c;
  c.s = s;
  BackwardTensors t(c, &rng);
  t.fill_all(Data::normal, &rng);
  t.x.set([](int64_t i) { return i == 13 ? std::nan("") : 0.5; });
  call_backward(&t, s.pad, 0);
  expect_backward(s, &t, 0, false);
  TestTensor out({s.tout(), s.b, s.co}, ACL_FLOAT, Layout::contiguous, &rng);
  call_forward(&t.x, &t.w, &t.bias, &out, s.pad, 0);
  expect_forward(s, t.x, t.w, t.bias, &out, 0, false);
}

// USE_FP16 rounds a FLOAT weight above 65504 to Inf before multiplying; as any Inf, it then
// reaches only the outputs whose formula has it.
TEST(ConvTbcSpecial, Fp16RoundingOverflowsToInf) {
  std::mt19937 rng(7);
  const TbcSizes s{7, 2, 3, 3, 3, 1};
  BackwardCase c;
  c.s = s;
  BackwardTensors t(c, &rng);
  t.fill_all(Data::normal, &rng);
  t.w.set([](int64_t i) { return i == 4 ? 1e5 : 0.5; });
  call_backward(&t, s.pad, 2);
  expect_backward(s, &t, 2, false);
}

// Large gradients in 8-bit gradWeight: FLOAT8_E4M3FN saturates at 448, HIFLOAT8 goes to Inf from
// 40960 (the float64 result converted by the spec's rules, SPEC section 4).
TEST(ConvTbcSpecial, EightBitGradWeightSaturation) {
  std::mt19937 rng(8);
  for (aclDataType dtype : {ACL_FLOAT8_E4M3FN, ACL_HIFLOAT8}) {
    BackwardCase c;
    c.s = {40, 3, 4, 5, 2, 1};
    c.grad_weight = dtype;
    BackwardTensors t(c, &rng);
    t.fill_all(Data::normal, &rng);
    t.x.set([](int64_t i) { return 30.0 + static_cast<double>(i % 7); });
    t.g.set([](int64_t i) { return (i % 3 == 0 ? -40.0 : 25.0) + static_cast<double>(i % 5); });
    call_backward(&t, c.s.pad, 0);
    expect_backward(c.s, &t, 0, false);
    bool beyond = false;
    for (double v : t.grad_weight.values()) {
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
  std::mt19937 rng(10);
  for (Layout layout : {Layout::contiguous, Layout::permuted}) {
    for (bool only_weight : {false, true}) {
      const TbcSizes s{20, 3, 6, 5, 3, 1};
      BackwardCase c;
      c.s = s;
      c.g = c.x = c.w = c.bias = c.grad_weight = ACL_BF16;
      c.g_layout = c.x_layout = layout;
      BackwardTensors t(c, &rng);
      t.fill_all(only_weight ? Data::normal : Data::tiny, &rng);
      if (only_weight) {
        fill(&t.w, Data::tiny, &rng);
      }
      call_backward(&t, s.pad, 0);
      expect_backward(s, &t, 0, false);
      TestTensor out({s.tout(), s.b, s.co}, ACL_BF16, layout, &rng);
      call_forward(&t.x, &t.w, &t.bias, &out, s.pad, 0);
      expect_forward(s, t.x, t.w, t.bias, &out, 0, false);
    }
  }
}

// A repeatable executor runs twice with the same results, then is destroyed.
TEST(ConvTbcSpecial, RepeatableExecutor) {
  std::mt19937 rng(9);
  BackwardCase c;
  c.s = {30, 2, 5, 6, 4, 2};
  BackwardTensors t(c, &rng);
  t.fill_all(Data::normal, &rng);
  uint64_t size = 0;
  aclOpExecutor* executor = nullptr;
  ASSERT_EQ(aclnnConvTbcBackwardGetWorkspaceSize(
                t.g.get(), t.x.get(), t.w.get(), t.bias.get(), c.s.pad, 0, t.grad_input.get(),
                t.grad_weight.get(), t.grad_bias.get(), &size, &executor),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  ASSERT_EQ(aclSetAclOpExecutorRepeatable(executor), ACLNN_SUCCESS);
  DeviceBuffer workspace(size > 0 ? size : 1);
  std::vector<unsigned char> first;
  for (int run = 0; run < 2; ++run) {
    ASSERT_EQ(aclnnConvTbcBackward(workspace.get(), size, executor, nullptr), ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    ASSERT_TRUE(t.grad_weight.read());
    if (run == 0) {
      first = t.grad_weight.bytes();
      expect_backward(c.s, &t, 0, false);
      workspace.write(std::vector<unsigned char>(size, 0x7F));
    } else {
      EXPECT_EQ(t.grad_weight.bytes(), first);
    }
  }
  EXPECT_EQ(aclDestroyAclOpExecutor(executor), ACLNN_SUCCESS);
}

}  // namespace
}  // namespace tbc_test
