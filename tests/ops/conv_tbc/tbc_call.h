// ConvTbc cases on the tests' tensor builder (support/call.h): the calls of both operators from
// sizes, dtypes and layouts, their inputs' data, and the comparison of every output element with
// the float64 reference.
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
#include <functional>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "core/op/build.h"
#include "reference/conv_tbc.h"
#include "support/call.h"

namespace tbc_test {

using oa_ref::TbcSizes;
using oa_test::TestCall;
using oa_test::TestTensor;

enum class Layout {
  contiguous,
  permuted,   // dims in a random memory order, gaps between them, an offset
  broadcast,  // an input whose first dim has stride 0 (every index reads the same values)
};

enum class Data {
  normal,    // standard normal values
  integers,  // integers in [-3, 3]: every sum exact in float32
  tiny,      // standard normal values times 2^-64: products in float32's subnormal range
};

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
  return cube_math_type == 2 ? oa_test::round_to(ACL_FLOAT16, v) : round_hf32_reference(v);
}

inline std::vector<double> operands(const TestTensor& t, int8_t cube_math_type) {
  std::vector<double> out = t.read();
  for (double& v : out) {
    v = operand(v, t.spec().dtype, cube_math_type);
  }
  return out;
}

inline double gamma(int64_t n) {
  const double nu = static_cast<double>(n) * 0x1p-24;
  return nu / (1 - nu);
}

// Checks `out` against the reference (see the file comment).
inline void expect_matches(const TestTensor& out, const oa_ref::Sums& ref, int64_t terms,
                           bool exact, const std::string& what) {
  EXPECT_TRUE(out.only_view_written()) << what << ": bytes outside the output view were written";
  const std::vector<double> values = out.read();
  const aclDataType dtype = out.spec().dtype;
  int failures = 0;
  for (size_t i = 0; i < ref.value.size(); ++i) {
    const double e = ref.value[i];
    const double got = values[i];
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
      low = oa_test::round_to(dtype, e - bound);
      high = oa_test::round_to(dtype, e + bound);
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

// Writes f(i) to every element i (row-major) of tensor `name`.
inline void set(const TestCall& call, const char* name, const std::function<double(int64_t)>& f) {
  TestTensor* t = call.tensor(name);
  std::vector<double> values;
  for (int64_t i = 0; i < t->numel(); ++i) {
    values.push_back(f(i));
  }
  t->write(values);
}

inline void fill(const TestCall& call, const char* name, Data data, std::mt19937_64* rng) {
  std::normal_distribution<double> normal(0.0, 1.0);
  std::uniform_int_distribution<int> small(-3, 3);
  set(call, name, [&](int64_t) {
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

// The call of spec with its tensors in the given layouts, every input filled with `data`.
inline std::unique_ptr<TestCall> laid_out_call(
    const oa::OpDef& def, oa::CallSpec spec,
    const std::vector<std::pair<const char*, Layout>>& layouts, Data data, std::mt19937_64* rng) {
  for (const auto& [name, layout] : layouts) {
    oa::TensorSpec& t = spec.args[static_cast<size_t>(def.param_index(name))].tensor;
    if (layout == Layout::permuted) {
      t = oa_test::random_layout(t, *rng, false);
    } else if (layout == Layout::broadcast) {
      t = oa_test::expanded(t, 0);
    }
  }
  auto call = std::make_unique<TestCall>(def, spec);
  for (size_t i = 0; i < def.params.size(); ++i) {
    if (def.params[i].kind == oa::ParamKind::input) {
      fill(*call, def.params[i].name.c_str(), data, rng);
    }
  }
  return call;
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

// The call of a forward case, its inputs filled with c.data.
inline std::unique_ptr<TestCall> forward_call(const ForwardCase& c, std::mt19937_64* rng) {
  using oa::build::integer;
  using oa::build::tensor;
  const TbcSizes& s = c.s;
  const oa::OpDef& def = *oa::find_definition("ConvTbc");
  oa::CallSpec spec = oa::build::sample(def, {{"self", tensor({s.t, s.b, s.ci}, c.x, c.format)},
                                              {"weight", tensor({s.k, s.ci, s.co}, c.x, c.format)},
                                              {"bias", tensor({s.co}, c.bias, c.format)},
                                              {"pad", integer(s.pad)},
                                              {"cubeMathType", integer(c.cube_math_type)}});
  return laid_out_call(def, spec,
                       {{"self", c.x_layout},
                        {"weight", c.w_layout},
                        {"bias", c.bias_layout},
                        {"output", c.out_layout}},
                       c.data, rng);
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

// The call of a backward case, its inputs filled with c.data.
inline std::unique_ptr<TestCall> backward_call(const BackwardCase& c, std::mt19937_64* rng) {
  using oa::build::integer;
  using oa::build::tensor;
  const TbcSizes& s = c.s;
  const oa::OpDef& def = *oa::find_definition("ConvTbcBackward");
  oa::CallSpec spec = oa::build::sample(def, {{"self", tensor({s.tout(), s.b, s.co}, c.g)},
                                              {"input", tensor({s.t, s.b, s.ci}, c.x)},
                                              {"weight", tensor({s.k, s.ci, s.co}, c.w)},
                                              {"bias", tensor({s.co}, c.bias)},
                                              {"pad", integer(s.pad)},
                                              {"cubeMathType", integer(c.cube_math_type)}});
  spec.args[static_cast<size_t>(def.param_index("gradWeight"))].tensor.dtype = c.grad_weight;
  return laid_out_call(def, spec,
                       {{"self", c.g_layout},
                        {"input", c.x_layout},
                        {"weight", c.w_layout},
                        {"gradInput", c.grad_input_layout},
                        {"gradWeight", c.grad_weight_layout},
                        {"gradBias", c.grad_bias_layout}},
                       c.data, rng);
}

// The forward call on a backward call's input, weight and bias (their values copied; input's dtype
// for self, weight and the output), its output in `layout`.
inline std::unique_ptr<TestCall> forward_of(const TestCall& backward, const TbcSizes& s,
                                            Layout layout, std::mt19937_64* rng) {
  ForwardCase f;
  f.s = s;
  f.x = backward.tensor("input")->spec().dtype;
  f.bias = backward.tensor("bias")->spec().dtype;
  f.out_layout = layout;
  auto call = forward_call(f, rng);
  call->tensor("self")->write(backward.tensor("input")->read());
  call->tensor("weight")->write(backward.tensor("weight")->read());
  call->tensor("bias")->write(backward.tensor("bias")->read());
  return call;
}

// Both phases, with a workspace of NaN bytes (results must not depend on it).
inline void run(const TestCall& call) {
  EXPECT_EQ(call.run(0xFF), ACLNN_SUCCESS) << aclGetRecentErrMsg();
}

// Checks a forward call's output against the reference of its inputs' values.
inline void expect_forward(const TbcSizes& s, const TestCall& call, int8_t cube_math_type,
                           bool exact) {
  const oa_ref::Sums ref = oa_ref::conv_tbc(s, operands(*call.tensor("self"), cube_math_type),
                                            operands(*call.tensor("weight"), cube_math_type),
                                            call.tensor("bias")->read());
  expect_matches(*call.tensor("output"), ref, oa_ref::conv_tbc_terms(s), exact,
                 "forward " + sizes_string(s));
}

// Checks a backward call's three gradients against the reference of its inputs' values.
inline void expect_backward(const TbcSizes& s, const TestCall& call, int8_t cube_math_type,
                            bool exact) {
  const std::string what = "backward " + sizes_string(s);
  const std::vector<double> go = operands(*call.tensor("self"), cube_math_type);
  const std::vector<double> xo = operands(*call.tensor("input"), cube_math_type);
  const std::vector<double> wo = operands(*call.tensor("weight"), cube_math_type);
  expect_matches(*call.tensor("gradInput"), oa_ref::conv_tbc_grad_input(s, go, wo),
                 oa_ref::grad_input_terms(s), exact, what + " gradInput");
  expect_matches(*call.tensor("gradWeight"), oa_ref::conv_tbc_grad_weight(s, xo, go),
                 oa_ref::grad_weight_terms(s), exact, what + " gradWeight");
  // gradBias sums self as given: cubeMathType rounds only the operands of products.
  expect_matches(*call.tensor("gradBias"),
                 oa_ref::conv_tbc_grad_bias(s, call.tensor("self")->read()),
                 oa_ref::grad_bias_terms(s), exact, what + " gradBias");
}

inline void run_forward_case(const ForwardCase& c, std::mt19937_64* rng) {
  const auto call = forward_call(c, rng);
  run(*call);
  expect_forward(c.s, *call, c.cube_math_type, c.data == Data::integers);
}

inline void run_backward_case(const BackwardCase& c, std::mt19937_64* rng) {
  const auto call = backward_call(c, rng);
  run(*call);
  expect_backward(c.s, *call, c.cube_math_type, c.data == Data::integers);
}

}  // namespace tbc_test
