// aclnnAdaptiveMaxPool2d and aclnnAdaptiveMaxPool2dBackward against PyTorch's CPU kernels: the
// forward's indices (NaN and tie rules included) and values, and the backward's gradients for
// PyTorch's own indices, in contiguous and channels-last memory.
#include <ATen/ATen.h>

#include <random>
#include <vector>

#include "ops/adaptive_max_pool2d/pool_cases.h"
#include "test_env.h"

namespace amp_test {
namespace {

at::ScalarType torch_dtype(aclDataType dtype) {
  return dtype == ACL_BF16 ? at::kBFloat16 : (dtype == ACL_FLOAT16 ? at::kHalf : at::kFloat);
}

// A PyTorch tensor of logical values, rounded to dtype as TestTensor::write rounds them.
at::Tensor torch_tensor(const std::vector<double>& values, const std::vector<int64_t>& shape,
                        aclDataType dtype, bool channels_last) {
  at::Tensor t =
      at::tensor(values, at::kDouble).to(at::kFloat).to(torch_dtype(dtype)).reshape(shape);
  if (channels_last && shape.size() == 4) {
    t = t.contiguous(at::MemoryFormat::ChannelsLast);
  }
  return t;
}

std::vector<double> values_of(const at::Tensor& t) {
  const at::Tensor d = t.to(at::kDouble).contiguous();
  return std::vector<double>(d.data_ptr<double>(), d.data_ptr<double>() + d.numel());
}

std::vector<int64_t> ints_of(const at::Tensor& t) {
  const at::Tensor d = t.to(at::kLong).contiguous();
  return std::vector<int64_t>(d.data_ptr<int64_t>(), d.data_ptr<int64_t>() + d.numel());
}

PoolCase torch_case(std::mt19937_64& rng, bool channels_last) {
  PoolCase c = random_case(rng);
  if (c.dtype == ACL_FLOAT16) {
    c.dtype = ACL_FLOAT;  // PyTorch 1.13 has no float16 adaptive max pooling on the CPU
  }
  c.index_dtype = ACL_INT64;
  const Layout layout = channels_last ? amp_test::channels_last(c.shape.size()) : Layout{};
  c.input_layout = c.output_layout = c.index_layout = layout;
  return c;
}

TEST(AdaptiveMaxPool2dTorch, ForwardMatchesPyTorch) {
  std::mt19937_64 rng(2718);
  for (int k = 0; k < 120 && !HasFailure(); ++k) {
    const bool channels_last = k % 2 == 1;
    const PoolCase c = torch_case(rng, channels_last);
    SCOPED_TRACE(c.describe());
    const oa_ref::PoolShape s = c.ref_shape();
    const std::vector<double> x =
        random_values(rng, s.planes * s.h * s.w, static_cast<Values>(k % 3));
    TestTensor self(pool_tensor(c.shape, c.dtype, c.input_layout));
    TestTensor out(pool_tensor(c.output_shape(), c.dtype, c.output_layout));
    TestTensor indices(pool_tensor(c.output_shape(), c.index_dtype, c.index_layout));
    self.write(x);
    ASSERT_EQ(run_forward(self.get(), {c.ho, c.wo}, out.get(), indices.get()), ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    const auto [torch_out, torch_indices] =
        at::adaptive_max_pool2d(torch_tensor(x, c.shape, c.dtype, channels_last), {c.ho, c.wo});
    EXPECT_EQ(indices.read_ints(), ints_of(torch_indices));
    const std::vector<double> ours = out.read();
    const std::vector<double> theirs = values_of(torch_out);
    for (size_t i = 0; i < ours.size(); ++i) {
      EXPECT_TRUE(same_value(ours[i], theirs[i])) << i << ": " << ours[i] << " vs " << theirs[i];
    }
  }
}

// PyTorch sums each plane in the same row-major order, so float32 results agree bit for bit.
// For bfloat16, PyTorch 1.13 rounds to bfloat16 after every addition; openaclnn accumulates in
// float32 and rounds once, which is PyTorch's float32 result rounded to bfloat16, bit for bit.
TEST(AdaptiveMaxPool2dTorch, BackwardMatchesPyTorch) {
  std::mt19937_64 rng(1618);
  for (int k = 0; k < 120 && !HasFailure(); ++k) {
    const bool channels_last = k % 2 == 1;
    const PoolCase c = torch_case(rng, channels_last);
    SCOPED_TRACE(c.describe());
    const oa_ref::PoolShape s = c.ref_shape();
    const std::vector<double> x = random_values(rng, s.planes * s.h * s.w, Values::ties);
    const std::vector<double> g = random_values(rng, s.planes * s.ho * s.wo, Values::spread);
    const at::Tensor torch_x = torch_tensor(x, c.shape, c.dtype, channels_last);
    const at::Tensor torch_g = torch_tensor(g, c.output_shape(), c.dtype, channels_last);
    const at::Tensor torch_indices = std::get<1>(at::adaptive_max_pool2d(torch_x, {c.ho, c.wo}));
    const at::Tensor expected = at::adaptive_max_pool2d_backward(
                                    torch_g.to(at::kFloat), torch_x.to(at::kFloat), torch_indices)
                                    .to(torch_dtype(c.dtype));

    TestTensor grad_output(pool_tensor(c.output_shape(), c.dtype, c.output_layout));
    TestTensor self(pool_tensor(c.shape, c.dtype, c.input_layout));
    TestTensor indices(pool_tensor(c.output_shape(), c.index_dtype, c.index_layout));
    TestTensor grad_input(pool_tensor(c.shape, c.dtype, c.input_layout));
    grad_output.write(g);
    indices.write_ints(ints_of(torch_indices));
    ASSERT_EQ(run_backward(grad_output.get(), self.get(), indices.get(), grad_input.get()),
              ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    const std::vector<double> ours = grad_input.read();
    const std::vector<double> theirs = values_of(expected);
    for (size_t i = 0; i < ours.size(); ++i) {
      EXPECT_TRUE(same_value(ours[i], theirs[i])) << i << ": " << ours[i] << " vs " << theirs[i];
    }
  }
}

}  // namespace
}  // namespace amp_test
