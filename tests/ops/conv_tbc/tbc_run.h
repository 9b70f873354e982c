// Runs ConvTbc cases through the public two-phase API and compares every output element with the
// float64 reference.
//
// Error bound: each output is a float32 evaluation of a sum of n terms (bias included), each term
// a product of operands that are exact in float32 (rounded by cubeMathType first where the mode
// says). However the sum is ordered or blocked, and with or without fused multiply-adds, its error
// is at most gamma(n) * M with gamma(n) = n u / (1 - n u), u = 2^-24 and M the sum of the absolute
// values of the terms, plus, for results in float32's subnormal range, 2^-150 per operation; the
// output then rounds that float32 value once to its dtype. So an element passes when it lies
// between the roundings to its dtype of exact - bound and exact + bound, with
// bound = gamma(n + 4) * M + (2 n + 4) 2^-150 (the extra 4 covers the product roundings of FLOAT
// operands and the float64 reference's own error). With `exact` set (small integer data, every
// partial sum an integer below 2^24), the bound is 0: the element must be the exact result,
// rounded.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "aclnnop/aclnn_convolution.h"
#include "aclnnop/aclnn_convolution_backward.h"
#include "ops/conv_tbc/tbc_tensor.h"
#include "reference/conv_tbc.h"

namespace tbc_test {

using oa_ref::TbcSizes;

inline std::string sizes_string(const TbcSizes& s) {
  std::ostringstream text;
  text << "T=" << s.t << " B=" << s.b << " Cin=" << s.ci << " Cout=" << s.co << " K=" << s.k
       << " pad=" << s.pad;
  return text.str();
}

// HF32 of a float32 value, written from the definition: 12 significant bits, nearest-even.
inline double round_hf32_reference(double v) {
  if (!std::isfinite(v) || v == 0) {
    return v;
  }
  int exponent = 0;
  const double mantissa = std::frexp(v, &exponent);  // 0.5 <= |mantissa| < 1
  const double rounded = std::ldexp(std::nearbyint(std::ldexp(mantissa, 12)), exponent - 12);
  return std::fabs(rounded) > 0x1.ffep127 ? std::copysign(INFINITY, v) : rounded;
}

// The value an operand of dtype takes in the products under cubeMathType.
inline double operand(double v, aclDataType dtype, int8_t cube_math_type) {
  if (dtype != ACL_FLOAT || cube_math_type == 0) {
    return v;
  }
  return cube_math_type == 2 ? round_to(ACL_FLOAT16, v) : round_hf32_reference(v);
}

inline std::vector<double> operands(const TestTensor& t, int8_t cube_math_type) {
  std::vector<double> out = t.values();
  for (double& v : out) {
    v = operand(v, t.dtype(), cube_math_type);
  }
  return out;
}

inline double gamma(int64_t n) {
  const double nu = static_cast<double>(n) * 0x1p-24;
  return nu / (1 - nu);
}

// Reads `out` back and checks it against the reference (see the file comment).
inline void expect_matches(TestTensor& out, const oa_ref::Sums& ref, int64_t terms, bool exact,
                           const std::string& what) {
  EXPECT_TRUE(out.read()) << what << ": bytes outside the output view were written";
  int failures = 0;
  for (size_t i = 0; i < ref.value.size(); ++i) {
    const double e = ref.value[i];
    const double got = out.values()[i];
    bool ok;
    double low = e;
    double high = e;
    if (std::isnan(e)) {
      ok = std::isnan(got);
    } else if (std::isinf(e)) {
      ok = got == e;
    } else {
      const double underflow = static_cast<double>(2 * terms + 4) * 0x1p-150;
      const double bound = exact ? 0.0 : gamma(terms + 4) * ref.magnitude[i] + underflow;
      low = round_to(out.dtype(), e - bound);
      high = round_to(out.dtype(), e + bound);
      ok = got >= low && got <= high;
    }
    if (!ok && ++failures <= 5) {
      ADD_FAILURE() << what << ": element " << i << " is " << got << ", expected " << e
                    << " (accepted [" << low << ", " << high << "], magnitude " << ref.magnitude[i]
                    << ", " << terms << " terms)";
    }
  }
  EXPECT_EQ(failures, 0) << what << ": " << failures << " of " << ref.value.size()
                         << " elements out of bounds";
}

// Runs phase 1 and phase 2 with a workspace full of NaN bytes (results must not depend on it).
template <typename Phase1, typename Phase2>
void run_two_phases(const Phase1& phase1, const Phase2& phase2) {
  uint64_t workspace_size = 0;
  aclOpExecutor* executor = nullptr;
  ASSERT_EQ(phase1(&workspace_size, &executor), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  std::unique_ptr<DeviceBuffer> workspace;
  if (workspace_size > 0) {
    workspace = std::make_unique<DeviceBuffer>(workspace_size);
    workspace->write(std::vector<unsigned char>(workspace_size, 0xFF));
  }
  ASSERT_EQ(phase2(workspace ? workspace->get() : nullptr, workspace_size, executor), ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
}

enum class Data {
  normal,    // standard normal values
  integers,  // integers in [-3, 3]: every sum exact in float32
  tiny,      // standard normal values times 2^-64: products in float32's subnormal range
};

template <typename Rng>
void fill(TestTensor* t, Data data, Rng* rng) {
  std::normal_distribution<double> normal(0.0, 1.0);
  std::uniform_int_distribution<int> small(-3, 3);
  t->set([&](int64_t) {
    switch (data) {
      case Data::integers:
        return static_cast<double>(small(*rng));
      case Data::tiny:
        return normal(*rng) * 0x1p-64;
      default:
        return normal(*rng);
    }
  });
}

struct ForwardCase {
  TbcSizes s;
  aclDataType x = ACL_FLOAT;     // self, weight and output (CANN's rule: one dtype)
  aclDataType bias = ACL_FLOAT;  // any float dtype, converted
  int8_t cube_math_type = 0;
  Layout x_layout = Layout::contiguous;
  Layout w_layout = Layout::contiguous;
  Layout bias_layout = Layout::contiguous;
  Layout out_layout = Layout::contiguous;
  Data data = Data::normal;
  aclFormat format = ACL_FORMAT_ND;  // of every tensor
};

// Both phases of aclnnConvTbc on the tensors.
inline void call_forward(TestTensor* x, TestTensor* w, TestTensor* bias, TestTensor* out,
                         int64_t pad, int8_t cube_math_type) {
  run_two_phases(
      [&](uint64_t* size, aclOpExecutor** executor) {
        return aclnnConvTbcGetWorkspaceSize(x->get(), w->get(), bias->get(), pad, out->get(),
                                            cube_math_type, size, executor);
      },
      [&](void* workspace, uint64_t size, aclOpExecutor* executor) {
        return aclnnConvTbc(workspace, size, executor, nullptr);
      });
}

// Checks out against the reference forward of the tensors' values.
inline void expect_forward(const TbcSizes& s, const TestTensor& x, const TestTensor& w,
                           const TestTensor& bias, TestTensor* out, int8_t cube_math_type,
                           bool exact) {
  const oa_ref::Sums ref =
      oa_ref::conv_tbc(s, operands(x, cube_math_type), operands(w, cube_math_type), bias.values());
  expect_matches(*out, ref, oa_ref::conv_tbc_terms(s), exact, "forward " + sizes_string(s));
}

inline void run_forward_case(const ForwardCase& c, std::mt19937* rng) {
  const TbcSizes& s = c.s;
  TestTensor x({s.t, s.b, s.ci}, c.x, c.x_layout, rng, 0xFF, c.format);
  TestTensor w({s.k, s.ci, s.co}, c.x, c.w_layout, rng, 0xFF, c.format);
  TestTensor bias({s.co}, c.bias, c.bias_layout, rng, 0xFF, c.format);
  TestTensor out({s.tout(), s.b, s.co}, c.x, c.out_layout, rng, 0xFF, c.format);
  fill(&x, c.data, rng);
  fill(&w, c.data, rng);
  fill(&bias, c.data, rng);
  call_forward(&x, &w, &bias, &out, s.pad, c.cube_math_type);
  expect_forward(s, x, w, bias, &out, c.cube_math_type, c.data == Data::integers);
}

struct BackwardCase {
  TbcSizes s;
  aclDataType g = ACL_FLOAT;  // self
  aclDataType x = ACL_FLOAT;  // input, and gradInput
  aclDataType w = ACL_FLOAT;
  aclDataType bias = ACL_FLOAT;  // and gradBias
  aclDataType grad_weight = ACL_FLOAT;
  int8_t cube_math_type = 0;
  Layout g_layout = Layout::contiguous;
  Layout x_layout = Layout::contiguous;
  Layout w_layout = Layout::contiguous;
  Layout grad_input_layout = Layout::contiguous;
  Layout grad_weight_layout = Layout::contiguous;
  Layout grad_bias_layout = Layout::contiguous;
  Data data = Data::normal;
};

// The tensors of one backward call.
struct BackwardTensors {
  TestTensor g;
  TestTensor x;
  TestTensor w;
  TestTensor bias;
  TestTensor grad_input;
  TestTensor grad_weight;
  TestTensor grad_bias;

  BackwardTensors(const BackwardCase& c, std::mt19937* rng)
      : g({c.s.tout(), c.s.b, c.s.co}, c.g, c.g_layout, rng),
        x({c.s.t, c.s.b, c.s.ci}, c.x, c.x_layout, rng),
        w({c.s.k, c.s.ci, c.s.co}, c.w, c.w_layout, rng),
        bias({c.s.co}, c.bias, Layout::contiguous, rng),
        grad_input({c.s.t, c.s.b, c.s.ci}, c.x, c.grad_input_layout, rng),
        grad_weight({c.s.k, c.s.ci, c.s.co}, c.grad_weight, c.grad_weight_layout, rng),
        grad_bias({c.s.co}, c.bias, c.grad_bias_layout, rng) {}

  void fill_all(Data data, std::mt19937* rng) {
    fill(&g, data, rng);
    fill(&x, data, rng);
    fill(&w, data, rng);
    fill(&bias, data, rng);
  }
};

// Both phases of aclnnConvTbcBackward on the tensors.
inline void call_backward(BackwardTensors* t, int64_t pad, int8_t cube_math_type) {
  run_two_phases(
      [&](uint64_t* size, aclOpExecutor** executor) {
        return aclnnConvTbcBackwardGetWorkspaceSize(
            t->g.get(), t->x.get(), t->w.get(), t->bias.get(), pad, cube_math_type,
            t->grad_input.get(), t->grad_weight.get(), t->grad_bias.get(), size, executor);
      },
      [&](void* workspace, uint64_t size, aclOpExecutor* executor) {
        return aclnnConvTbcBackward(workspace, size, executor, nullptr);
      });
}

// Checks the three gradients against the reference of the tensors' values.
inline void expect_backward(const TbcSizes& s, BackwardTensors* t, int8_t cube_math_type,
                            bool exact) {
  const std::string what = "backward " + sizes_string(s);
  const std::vector<double> go = operands(t->g, cube_math_type);
  const std::vector<double> xo = operands(t->x, cube_math_type);
  const std::vector<double> wo = operands(t->w, cube_math_type);
  expect_matches(t->grad_input, oa_ref::conv_tbc_grad_input(s, go, wo), oa_ref::grad_input_terms(s),
                 exact, what + " gradInput");
  expect_matches(t->grad_weight, oa_ref::conv_tbc_grad_weight(s, xo, go),
                 oa_ref::grad_weight_terms(s), exact, what + " gradWeight");
  // gradBias sums self as given: cubeMathType rounds only the operands of products.
  expect_matches(t->grad_bias, oa_ref::conv_tbc_grad_bias(s, t->g.values()),
                 oa_ref::grad_bias_terms(s), exact, what + " gradBias");
}

inline void run_backward_case(const BackwardCase& c, std::mt19937* rng) {
  BackwardTensors t(c, rng);
  t.fill_all(c.data, rng);
  call_backward(&t, c.s.pad, c.cube_math_type);
  expect_backward(c.s, &t, c.cube_math_type, c.data == Data::integers);
}

}  // namespace tbc_test
