// aclnnConvTbc and aclnnConvTbcBackward against PyTorch's CPU conv_tbc and conv_tbc_backward on
// random sizes and non-contiguous views.
//
// Agreement bound, per element, from the float64 reference's magnitude M (the sum of |terms|) over
// n terms: each float32 evaluation is within gamma(n) M of the exact value, so two of them differ
// by at most 2 gamma(n + 4) M. For BF16, PyTorch rounds its output to bfloat16 after each of its K
// per-tap additions, so the bound there is that plus (K + 2) half-units of bfloat16's last place
// relative to M. On a CPU without AVX-512 its bfloat16 matrix products do not go through oneDNN:
// the fallback adds into the bfloat16 output and rounds after every addition (16 plus sixteen
// products of 2^-7 gives 16 there, 16.125 in float32), so the bound is (n + 2) half-units.
#include <ATen/ATen.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "ops/conv_tbc/tbc_random.h"

namespace tbc_test {
namespace {

at::Tensor torch_tensor(const TestTensor& t) {
  return at::tensor(t.read(), at::kDouble)
      .to(at::kFloat)
      .to(t.spec().dtype == ACL_BF16 ? at::kBFloat16 : at::kFloat)
      .reshape(t.spec().shape);
}

std::vector<double> values_of(const at::Tensor& t) {
  const at::Tensor d = t.to(at::kDouble).contiguous();
  return std::vector<double>(d.data_ptr<double>(), d.data_ptr<double>() + d.numel());
}

// Whether PyTorch's bfloat16 matrix products round after every addition (see above): whether
// the CPU lacks what PyTorch 1.13 asks of it for oneDNN's bfloat16 products.
bool torch_bf16_rounds_each_addition() {
  return !(__builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl") &&
           __builtin_cpu_supports("avx512dq"));
}

void expect_agree(const TestTensor& ours, const at::Tensor& theirs, const oa_ref::Sums& ref,
                  int64_t terms, int64_t taps, const std::string& what) {
  ASSERT_TRUE(ours.only_view_written()) << what;
  const std::vector<double> values = ours.read();
  const std::vector<double> torch = values_of(theirs);
  ASSERT_EQ(torch.size(), values.size()) << what;
  const int64_t roundings = torch_bf16_rounds_each_addition() ? terms : taps;
  const double slack =
      2 * gamma(terms + 4) + (ours.spec().dtype == ACL_BF16 ? (roundings + 2) * 0x1p-8 : 0.0);
  int failures = 0;
  for (size_t i = 0; i < torch.size(); ++i) {
    const double a = values[i];
    const double b = torch[i];
    const bool ok = std::isnan(a) ? std::isnan(b) : std::fabs(a - b) <= slack * ref.magnitude[i];
    if (!ok && ++failures <= 5) {
      ADD_FAILURE() << what << ": element " << i << ": ours " << a << ", PyTorch " << b
                    << ", magnitude " << ref.magnitude[i];
    }
  }
  EXPECT_EQ(failures, 0) << what;
}

TEST(ConvTbcTorch, ForwardMatchesPyTorch) {
  std::mt19937_64 rng(31);
  for (int i = 0; i < 40 && !HasFailure(); ++i) {
    ForwardCase c;
    c.s = random_sizes(&rng);
    const TbcSizes& s = c.s;
    c.x = c.bias = i % 3 == 2 ? ACL_BF16 : ACL_FLOAT;
    c.x_layout = random_layout(&rng, true);
    c.w_layout = random_layout(&rng, true);
    c.out_layout = random_layout(&rng, false);
    SCOPED_TRACE(sizes_string(s));
    const auto t = forward_call(c, &rng);
    run(*t);
    const TestTensor& x = *t->tensor("self");
    const TestTensor& w = *t->tensor("weight");
    const TestTensor& bias = *t->tensor("bias");
    const at::Tensor theirs =
        at::conv_tbc(torch_tensor(x), torch_tensor(w), torch_tensor(bias), s.pad);
    const oa_ref::Sums ref = oa_ref::conv_tbc(s, x.read(), w.read(), bias.read());
    expect_agree(*t->tensor("output"), theirs, ref, oa_ref::conv_tbc_terms(s), s.k, "output");
  }
}

TEST(ConvTbcTorch, BackwardMatchesPyTorch) {
  std::mt19937_64 rng(32);
  for (int i = 0; i < 40 && !HasFailure(); ++i) {
    BackwardCase c;
    c.s = random_sizes(&rng);
    const TbcSizes& s = c.s;
    c.g = c.x = c.w = c.bias = c.grad_weight = i % 3 == 2 ? ACL_BF16 : ACL_FLOAT;
    c.g_layout = random_layout(&rng, true);
    c.x_layout = random_layout(&rng, true);
    c.grad_input_layout = random_layout(&rng, false);
    c.grad_weight_layout = random_layout(&rng, false);
    SCOPED_TRACE(sizes_string(s));
    const auto t = backward_call(c, &rng);
    run(*t);
    const TestTensor& self = *t->tensor("self");
    const TestTensor& x = *t->tensor("input");
    const TestTensor& w = *t->tensor("weight");
    const auto theirs = at::conv_tbc_backward(torch_tensor(self), torch_tensor(x), torch_tensor(w),
                                              torch_tensor(*t->tensor("bias")), s.pad);
    const std::vector<double> g = self.read();
    expect_agree(*t->tensor("gradInput"), std::get<0>(theirs),
                 oa_ref::conv_tbc_grad_input(s, g, w.read()), oa_ref::grad_input_terms(s), s.k,
                 "gradInput");
    expect_agree(*t->tensor("gradWeight"), std::get<1>(theirs),
                 oa_ref::conv_tbc_grad_weight(s, x.read(), g), oa_ref::grad_weight_terms(s), s.k,
                 "gradWeight");
    expect_agree(*t->tensor("gradBias"), std::get<2>(theirs), oa_ref::conv_tbc_grad_bias(s, g),
                 oa_ref::grad_bias_terms(s), s.k, "gradBias");
  }
}

}  // namespace
}  // namespace tbc_test
