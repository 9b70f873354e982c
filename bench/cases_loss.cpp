// The loss family's gradients against PyTorch (issue 27): MseLossBackward,
// BinaryCrossEntropyWithLogitsBackward and NLLLossBackward, 16M elements each. Each step runs both
// phases. The elementwise gradients read gradOutput, self and target and write out, each once;
// NLL's backward reads target, weight and the two scalars and writes gradInput [16384, 1000] whole
// (zero but for one element a row), so its ceiling is the write of gradInput.
#ifdef OPENACLNN_BENCH_TORCH
#include <ATen/ATen.h>
#endif

#include <cmath>
#include <utility>
#include <vector>

#include "aclnnop/aclnn_binary_cross_entropy_with_logits_backward.h"
#include "aclnnop/aclnn_mse_loss_backward.h"
#include "aclnnop/aclnn_nll_loss_backward.h"
#include "device_tensor.h"
#include "harness.h"

namespace oa::bench {
namespace {

constexpr int64_t kSide = 4096;   // [4096, 4096]: 16M elements
constexpr int64_t kRows = 16384;  // NLL: [16384, 1000] logits
constexpr int64_t kClasses = 1000;
constexpr int64_t kMean = 1;
constexpr int64_t kNone = 0;

size_t bytes(int64_t count, aclDataType dtype) {
  return static_cast<size_t>(count * (dtype == ACL_FLOAT ? 4 : 2));
}

// Values spread over [-2, 2) (logits, differences); probabilities in [0, 1) for targets.
double spread(int64_t i) { return static_cast<double>((i * 7 + 3) % 64) / 16.0 - 2.0; }
double probability(int64_t i) { return static_cast<double>((i * 5 + 1) % 64) / 64.0; }

DeviceTensor square(aclDataType dtype, double (*value)(int64_t)) {
  return device_tensor({kSide, kSide}, dtype, value);
}

// out = f(gradOutput, self, target), all [4096, 4096] of one dtype.
using Elementwise = aclnnStatus (*)(const DeviceTensor& go, const DeviceTensor& x,
                                    const DeviceTensor& y, const DeviceTensor& out,
                                    uint64_t* workspace_size, aclOpExecutor** executor);
using Run = aclnnStatus (*)(void*, uint64_t, aclOpExecutor*, aclrtStream);

Setup ours_elementwise(aclDataType dtype, Elementwise plan, Run run, const char* what) {
  return [=] {
    const DeviceTensor go = square(dtype, spread);
    const DeviceTensor x = square(dtype, spread);
    const DeviceTensor y = square(dtype, probability);
    const DeviceTensor out = square(dtype, [](int64_t) { return 0.0; });
    auto workspace = std::make_shared<Workspace>();
    return Step([=] {
      uint64_t size = 0;
      aclOpExecutor* executor = nullptr;
      check(plan(go, x, y, out, &size, &executor), what);
      check(run(workspace->get(size), size, executor, nullptr), what);
    });
  };
}

aclnnStatus mse_plan(const DeviceTensor& go, const DeviceTensor& x, const DeviceTensor& y,
                     const DeviceTensor& out, uint64_t* size, aclOpExecutor** executor) {
  return aclnnMseLossBackwardGetWorkspaceSize(go.get(), x.get(), y.get(), kNone, out.get(), size,
                                              executor);
}

aclnnStatus bce_plan(const DeviceTensor& go, const DeviceTensor& x, const DeviceTensor& y,
                     const DeviceTensor& out, uint64_t* size, aclOpExecutor** executor) {
  return aclnnBinaryCrossEntropyWithLogitsBackwardGetWorkspaceSize(
      go.get(), x.get(), y.get(), nullptr, nullptr, kNone, out.get(), size, executor);
}

Setup ours_nll(aclDataType dtype) {
  return [=] {
    const DeviceTensor go = device_tensor({}, dtype, [](int64_t) { return 1.0; });
    const DeviceTensor x = device_tensor({kRows, kClasses}, dtype, spread);
    const DeviceTensor target = device_tensor(
        {kRows}, ACL_INT64, [](int64_t i) { return static_cast<double>((i * 37) % kClasses); });
    const DeviceTensor weight = device_tensor({kClasses}, dtype, [](int64_t) { return 1.0; });
    const DeviceTensor total = device_tensor({}, dtype, [](int64_t) { return kRows; });
    const DeviceTensor out = device_tensor({kRows, kClasses}, dtype, [](int64_t) { return 0.0; });
    auto workspace = std::make_shared<Workspace>();
    return Step([=] {
      uint64_t size = 0;
      aclOpExecutor* executor = nullptr;
      check(
          aclnnNLLLossBackwardGetWorkspaceSize(go.get(), x.get(), target.get(), weight.get(), kMean,
                                               -100, total.get(), out.get(), &size, &executor),
          "aclnnNLLLossBackwardGetWorkspaceSize");
      check(aclnnNLLLossBackward(workspace->get(size), size, executor, nullptr),
            "aclnnNLLLossBackward");
    });
  };
}

#ifdef OPENACLNN_BENCH_TORCH
at::Tensor torch_square(at::ScalarType dtype, bool probabilities) {
  const at::Tensor r = at::rand({kSide, kSide});
  return (probabilities ? r : r * 4 - 2).to(dtype);
}

Setup torch_mse(at::ScalarType dtype) {
  return [=] {
    const at::Tensor go = torch_square(dtype, false);
    const at::Tensor x = torch_square(dtype, false);
    const at::Tensor y = torch_square(dtype, true);
    at::Tensor out = at::empty_like(x);
    if (dtype == at::kFloat) {
      return Step([=]() mutable { at::mse_loss_backward_out(out, go, x, y, kNone); });
    }
    // PyTorch 1.13 has no CPU kernel of this gradient for 16-bit types: a user computes in float32
    // and narrows the result.
    at::Tensor wide = at::empty(x.sizes());
    return Step([=]() mutable {
      at::mse_loss_backward_out(wide, go.to(at::kFloat), x.to(at::kFloat), y.to(at::kFloat), kNone);
      out.copy_(wide);
    });
  };
}

// PyTorch has no ATen operator for this gradient: autograd evaluates it as
// (sigmoid(self) - target) * gradOutput, which a PyTorch user writes with out= and in-place ops.
Setup torch_bce_logits(at::ScalarType dtype) {
  return [=] {
    const at::Tensor go = torch_square(dtype, false);
    const at::Tensor x = torch_square(dtype, false);
    const at::Tensor y = torch_square(dtype, true);
    at::Tensor out = at::empty_like(x);
    return Step([=]() mutable {
      at::sigmoid_out(out, x);
      out.sub_(y).mul_(go);
    });
  };
}

Setup torch_nll(at::ScalarType dtype) {
  return [=] {
    const at::Tensor go = at::ones({}, at::TensorOptions().dtype(dtype));
    const at::Tensor x = at::rand({kRows, kClasses}).to(dtype);
    const at::Tensor target = at::arange(kRows, at::kLong).mul_(37).remainder_(kClasses);
    const at::Tensor weight = at::ones({kClasses}, at::TensorOptions().dtype(dtype));
    const at::Tensor total =
        at::full({}, static_cast<double>(kRows), at::TensorOptions().dtype(dtype));
    at::Tensor out = at::empty_like(x);
    return Step([=]() mutable {
      at::nll_loss_backward_out(out, go, x, target, weight, kMean, -100, total);
    });
  };
}
#endif

void add_elementwise(const char* name, aclDataType dtype, Elementwise plan, Run run,
                     const char* what, Setup torch) {
  const size_t square_bytes = bytes(kSide * kSide, dtype);
  add_case(memory_bound("loss", name, {{square_bytes, square_bytes, square_bytes}, {square_bytes}},
                        ours_elementwise(dtype, plan, run, what), std::move(torch)));
}

void add_nll(const char* name, aclDataType dtype, Setup torch) {
  const size_t small = bytes(kClasses + 2, dtype) + kRows * sizeof(int64_t);
  add_case(memory_bound("loss", name, {{small}, {bytes(kRows * kClasses, dtype)}}, ours_nll(dtype),
                        std::move(torch)));
}

const bool registered = [] {
  add_elementwise("mse_backward/f32_none_16M", ACL_FLOAT, mse_plan, aclnnMseLossBackward,
                  "aclnnMseLossBackward", OA_BENCH_TORCH(torch_mse(at::kFloat)));
  add_elementwise("mse_backward/bf16_none_16M", ACL_BF16, mse_plan, aclnnMseLossBackward,
                  "aclnnMseLossBackward", OA_BENCH_TORCH(torch_mse(at::kBFloat16)));
  add_elementwise("bce_logits_backward/f32_none_16M", ACL_FLOAT, bce_plan,
                  aclnnBinaryCrossEntropyWithLogitsBackward,
                  "aclnnBinaryCrossEntropyWithLogitsBackward",
                  OA_BENCH_TORCH(torch_bce_logits(at::kFloat)));
  add_elementwise("bce_logits_backward/bf16_none_16M", ACL_BF16, bce_plan,
                  aclnnBinaryCrossEntropyWithLogitsBackward,
                  "aclnnBinaryCrossEntropyWithLogitsBackward",
                  OA_BENCH_TORCH(torch_bce_logits(at::kBFloat16)));
  add_nll("nll_backward/f32_mean_16384x1000", ACL_FLOAT, OA_BENCH_TORCH(torch_nll(at::kFloat)));
  add_nll("nll_backward/bf16_mean_16384x1000", ACL_BF16, OA_BENCH_TORCH(torch_nll(at::kBFloat16)));
  return true;
}();

}  // namespace
}  // namespace oa::bench
