// aclnnSmoothL1LossBackward and aclnnSmoothL1Loss against PyTorch's CPU kernels
// (at::smooth_l1_loss_backward, at::smooth_l1_loss) on random shapes with broadcasting, for FLOAT
// and BF16 (PyTorch's CPU kernels support both).
//
// PyTorch shapes its results like self, and divides a mean by self's element count; SPEC section 9
// divides by the broadcast element count. So self is always given at the full broadcast shape
// (expanded here, then made contiguous), while target and gradOutput are broadcast.
//
// beta = 0 differs where x == y: PyTorch 1.13's backward takes its branch x <= -beta there and
// returns -gradOutput, where SPEC section 9 asks for the L1 gradient sign(0) * gradOutput = 0.
// Those elements of PyTorch's result are replaced by 0 before comparing (everything else is
// compared); our own float64 reference covers them in tests/ops/smooth_l1_loss.
#include <ATen/ATen.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "aclnnop/aclnn_smooth_l1_loss.h"
#include "aclnnop/aclnn_smooth_l1_loss_backward.h"
#include "test_env.h"

namespace {

using oa_test::DeviceBuffer;
using oa_test::TensorPtr;

// A PyTorch tensor copied into device memory, and its aclTensor.
struct DeviceTensor {
  DeviceTensor(const at::Tensor& host, aclDataType dtype)
      : buffer(std::max<size_t>(host.numel() * host.element_size(), 1)),
        tensor(make(host, dtype, buffer)) {}

  static TensorPtr make(const at::Tensor& host, aclDataType dtype, DeviceBuffer& buffer) {
    at::Tensor contiguous = host.contiguous();
    std::vector<unsigned char> bytes(buffer.size(), 0);
    std::memcpy(bytes.data(), contiguous.data_ptr(),
                contiguous.numel() * contiguous.element_size());
    buffer.write(bytes);
    return oa_test::make_tensor(contiguous.sizes().vec(), dtype, buffer.get());
  }

  DeviceBuffer buffer;
  TensorPtr tensor;
};

// Ordered integer keys: adjacent floating values differ by 1, +0 and -0 are equal.
int64_t key32(uint32_t bits) {
  const auto magnitude = static_cast<int64_t>(bits & 0x7FFFFFFFu);
  return (bits & 0x80000000u) != 0 ? -magnitude : magnitude;
}

int64_t key16(uint16_t bits) {
  const auto magnitude = static_cast<int64_t>(bits & 0x7FFFu);
  return (bits & 0x8000u) != 0 ? -magnitude : magnitude;
}

// Compares our output bytes with PyTorch's tensor element by element: NaN where PyTorch has NaN,
// else within `tolerance` representable values. Returns a failure description, empty if none.
std::string compare(const std::vector<unsigned char>& ours, const at::Tensor& theirs,
                    int64_t tolerance) {
  at::Tensor expected = theirs.contiguous();
  const bool bf16 = expected.scalar_type() == at::kBFloat16;
  std::ostringstream failures;
  int reported = 0;
  for (int64_t i = 0; i < expected.numel(); ++i) {
    int64_t a = 0;
    int64_t b = 0;
    bool nan_a = false;
    bool nan_b = false;
    double value_a = 0;
    double value_b = 0;
    if (bf16) {
      uint16_t x = 0;
      uint16_t y = 0;
      std::memcpy(&x, ours.data() + 2 * i, 2);
      std::memcpy(&y, static_cast<const char*>(expected.data_ptr()) + 2 * i, 2);
      a = key16(x);
      b = key16(y);
      nan_a = (x & 0x7FFF) > 0x7F80;
      nan_b = (y & 0x7FFF) > 0x7F80;
      float fx = 0;
      float fy = 0;
      const uint32_t wx = static_cast<uint32_t>(x) << 16;
      const uint32_t wy = static_cast<uint32_t>(y) << 16;
      std::memcpy(&fx, &wx, 4);
      std::memcpy(&fy, &wy, 4);
      value_a = fx;
      value_b = fy;
    } else {
      float x = 0;
      float y = 0;
      std::memcpy(&x, ours.data() + 4 * i, 4);
      y = expected.data_ptr<float>()[i];
      uint32_t bx = 0;
      uint32_t by = 0;
      std::memcpy(&bx, &x, 4);
      std::memcpy(&by, &y, 4);
      a = key32(bx);
      b = key32(by);
      nan_a = std::isnan(x);
      nan_b = std::isnan(y);
      value_a = x;
      value_b = y;
    }
    const bool ok = nan_a || nan_b ? nan_a && nan_b : std::llabs(a - b) <= tolerance;
    if (!ok && reported++ < 6) {
      failures << "\n  element " << i << ": ours " << value_a << ", PyTorch " << value_b;
    }
  }
  return failures.str();
}

std::string shape_text(const std::vector<int64_t>& shape) {
  std::string text = "[";
  for (size_t i = 0; i < shape.size(); ++i) {
    text += (i == 0 ? "" : ", ") + std::to_string(shape[i]);
  }
  return text + "]";
}

struct Shapes {
  std::vector<int64_t> full;
  std::vector<int64_t> target;
  std::vector<int64_t> grad_output;
};

// A full shape of rank 1-4 and broadcast sources of it for target and gradOutput.
Shapes random_shapes(std::mt19937& rng) {
  auto draw = [&](int64_t low, int64_t high) {
    return std::uniform_int_distribution<int64_t>(low, high)(rng);
  };
  Shapes s;
  const int64_t rank = draw(1, 4);
  for (int64_t d = 0; d < rank; ++d) {
    s.full.push_back(draw(1, rank <= 2 ? 40 : 9));
  }
  for (std::vector<int64_t>* shape : {&s.target, &s.grad_output}) {
    const int64_t drop = draw(0, 2) == 0 ? draw(0, rank) : 0;
    shape->assign(s.full.begin() + drop, s.full.end());
    for (int64_t& dim : *shape) {
      if (draw(0, 3) == 0) {
        dim = 1;
      }
    }
  }
  return s;
}

// Random values: uniform in [-4, 4] and quarters (so that |x - y| often equals beta exactly).
at::Tensor random_values(std::mt19937& rng, const std::vector<int64_t>& shape,
                         at::ScalarType type) {
  at::Tensor t = at::empty(shape, at::kFloat);
  float* data = t.data_ptr<float>();
  std::uniform_real_distribution<float> uniform(-4.0f, 4.0f);
  for (int64_t i = 0; i < t.numel(); ++i) {
    data[i] = rng() % 3 == 0 ? static_cast<float>(static_cast<int>(rng() % 33) - 16) / 4.0f
                             : uniform(rng);
  }
  return t.to(type);
}

aclDataType acl_type(at::ScalarType type) { return type == at::kBFloat16 ? ACL_BF16 : ACL_FLOAT; }

std::vector<unsigned char> run_ours_backward(const at::Tensor& g, const at::Tensor& x,
                                             const at::Tensor& y, int64_t reduction, float beta,
                                             at::ScalarType out_type) {
  DeviceTensor dg(g, acl_type(g.scalar_type()));
  DeviceTensor dx(x, acl_type(x.scalar_type()));
  DeviceTensor dy(y, acl_type(y.scalar_type()));
  at::Tensor out_host = at::zeros(x.sizes(), out_type);
  DeviceTensor dout(out_host, acl_type(out_type));
  uint64_t size = 0;
  aclOpExecutor* executor = nullptr;
  EXPECT_EQ(aclnnSmoothL1LossBackwardGetWorkspaceSize(dg.tensor.get(), dx.tensor.get(),
                                                      dy.tensor.get(), reduction, beta,
                                                      dout.tensor.get(), &size, &executor),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(aclnnSmoothL1LossBackward(nullptr, size, executor, nullptr), ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  return dout.buffer.read<unsigned char>();
}

std::vector<unsigned char> run_ours_forward(const at::Tensor& x, const at::Tensor& y,
                                            int64_t reduction, float beta,
                                            at::ScalarType out_type) {
  DeviceTensor dx(x, acl_type(x.scalar_type()));
  DeviceTensor dy(y, acl_type(y.scalar_type()));
  at::Tensor out_host = reduction == 0 ? at::zeros(x.sizes(), out_type) : at::zeros({}, out_type);
  DeviceTensor dout(out_host, acl_type(out_type));
  uint64_t size = 0;
  aclOpExecutor* executor = nullptr;
  EXPECT_EQ(aclnnSmoothL1LossGetWorkspaceSize(dx.tensor.get(), dy.tensor.get(), reduction, beta,
                                              dout.tensor.get(), &size, &executor),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  DeviceBuffer workspace(size > 0 ? size : 1);
  EXPECT_EQ(aclnnSmoothL1Loss(workspace.get(), size, executor, nullptr), ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  return dout.buffer.read<unsigned char>();
}

const float kBetas[] = {0.0f, 1e-30f, 0.5f, 1.0f, 3.0f};

// PyTorch's gradient with the elements where x == y set to 0 when beta is 0 (see the top).
at::Tensor torch_backward(const at::Tensor& g, const at::Tensor& x, const at::Tensor& y,
                          int64_t reduction, float beta) {
  at::Tensor grad = at::smooth_l1_loss_backward(g, x, y, reduction, beta);
  if (beta != 0.0f) {
    return grad;
  }
  return at::where(at::eq(x, y), at::zeros_like(grad), grad);
}

// Float32: PyTorch computes norm * x * grad / beta where we compute (x / beta) * grad * norm; both
// are within a few roundings of the exact value, so within 4 ulp of each other.
TEST(SmoothL1LossTorch, BackwardFloat) {
  std::mt19937 rng(5001);
  for (int i = 0; i < 200; ++i) {
    const Shapes s = random_shapes(rng);
    const int64_t reduction = i % 3;
    const float beta = kBetas[i % 5];
    at::Tensor x = random_values(rng, s.full, at::kFloat);
    at::Tensor y = random_values(rng, s.target, at::kFloat);
    at::Tensor g = random_values(rng, s.grad_output, at::kFloat);
    at::Tensor expected = torch_backward(g, x, y, reduction, beta);
    const std::string failures =
        compare(run_ours_backward(g, x, y, reduction, beta, at::kFloat), expected, 4);
    EXPECT_TRUE(failures.empty()) << "case " << i << ": self " << shape_text(s.full) << ", target "
                                  << shape_text(s.target) << ", gradOutput "
                                  << shape_text(s.grad_output) << ", reduction " << reduction
                                  << ", beta " << beta << failures;
  }
}

// Mean over a broadcast self: expanding self first makes PyTorch divide by the broadcast count,
// which is what SPEC section 9 asks of a self given at its smaller shape.
TEST(SmoothL1LossTorch, BackwardMeanOfBroadcastSelf) {
  std::mt19937 rng(5002);
  at::Tensor small_x = random_values(rng, {1, 7}, at::kFloat);
  at::Tensor y = random_values(rng, {5, 7}, at::kFloat);
  at::Tensor g = random_values(rng, {}, at::kFloat);
  at::Tensor expected = at::smooth_l1_loss_backward(g, small_x.expand({5, 7}), y, 1, 1.0f);

  DeviceTensor dg(g, ACL_FLOAT);
  DeviceTensor dx(small_x, ACL_FLOAT);
  DeviceTensor dy(y, ACL_FLOAT);
  DeviceTensor dout(at::zeros({5, 7}), ACL_FLOAT);
  uint64_t size = 0;
  aclOpExecutor* executor = nullptr;
  ASSERT_EQ(
      aclnnSmoothL1LossBackwardGetWorkspaceSize(dg.tensor.get(), dx.tensor.get(), dy.tensor.get(),
                                                1, 1.0f, dout.tensor.get(), &size, &executor),
      ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  ASSERT_EQ(aclnnSmoothL1LossBackward(nullptr, size, executor, nullptr), ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  const std::string failures = compare(dout.buffer.read<unsigned char>(), expected, 4);
  EXPECT_TRUE(failures.empty()) << failures;
}

// BFloat16: PyTorch's CPU kernel rounds to bfloat16 after each operation, we round once; within
// 2 bfloat16 ulp of each other.
TEST(SmoothL1LossTorch, BackwardBf16) {
  std::mt19937 rng(5003);
  for (int i = 0; i < 100; ++i) {
    const Shapes s = random_shapes(rng);
    const int64_t reduction = i % 3;
    // PyTorch rounds beta to bfloat16 here, and 1e-30 is not a bfloat16 value: 0 instead.
    const float beta = kBetas[i % 5 == 1 ? 0 : i % 5];
    at::Tensor x = random_values(rng, s.full, at::kBFloat16);
    at::Tensor y = random_values(rng, s.target, at::kBFloat16);
    at::Tensor g = random_values(rng, s.grad_output, at::kBFloat16);
    at::Tensor expected = torch_backward(g, x, y, reduction, beta);
    const std::string failures =
        compare(run_ours_backward(g, x, y, reduction, beta, at::kBFloat16), expected, 2);
    EXPECT_TRUE(failures.empty()) << "case " << i << ": self " << shape_text(s.full) << ", target "
                                  << shape_text(s.target) << ", gradOutput "
                                  << shape_text(s.grad_output) << ", reduction " << reduction
                                  << ", beta " << beta << failures;
  }
}

// The forward: elementwise within 4 ulp; mean and sum (PyTorch sums in float32, we in double)
// within 8 ulp.
TEST(SmoothL1LossTorch, ForwardFloat) {
  std::mt19937 rng(5004);
  for (int i = 0; i < 200; ++i) {
    const Shapes s = random_shapes(rng);
    const int64_t reduction = i % 3;
    const float beta = kBetas[i % 5];
    at::Tensor x = random_values(rng, s.full, at::kFloat);
    at::Tensor y = random_values(rng, s.target, at::kFloat);
    at::Tensor expected = at::smooth_l1_loss(x, y, reduction, beta);
    const std::string failures = compare(run_ours_forward(x, y, reduction, beta, at::kFloat),
                                         expected, reduction == 0 ? 4 : 8);
    EXPECT_TRUE(failures.empty()) << "case " << i << ": self " << shape_text(s.full) << ", target "
                                  << shape_text(s.target) << ", reduction " << reduction
                                  << ", beta " << beta << failures;
  }
}

}  // namespace
