// aclnnSmoothL1LossBackward against PyTorch's smooth_l1_loss_backward_out (issue 3, cases a–g).
// Each step runs both phases. Traffic: gradOutput, self and target read, each its own elements
// once (a broadcast input, the scalar gradOutput of a mean or the [4096, 1] target, counts the
// bytes it holds, read once from memory), and gradInput written once.
#ifdef OPENACLNN_BENCH_TORCH
#include <ATen/ATen.h>
#endif

#include <cstring>
#include <memory>
#include <utility>
#include <vector>

#include "acl_support.h"
#include "aclnnop/aclnn_smooth_l1_loss_backward.h"
#include "harness.h"

namespace oa::bench {
namespace {

constexpr int64_t kSide = 4096;  // 16M elements
constexpr int64_t kCount = kSide * kSide;

struct View {
  std::vector<int64_t> shape;
  std::vector<int64_t> strides;  // empty: contiguous
  aclDataType dtype;
};

int64_t element_size(aclDataType dtype) { return dtype == ACL_FLOAT ? 4 : 2; }

int64_t elements(const std::vector<int64_t>& shape) {
  int64_t count = 1;
  for (int64_t dim : shape) {
    count *= dim;
  }
  return count;
}

// A tensor over fresh device memory filled with a small repeating pattern of representable values.
struct DeviceTensor {
  DeviceBuffer memory;
  std::shared_ptr<aclTensor> tensor;
};

DeviceTensor make(const View& view, int pattern) {
  int64_t count = elements(view.shape);
  int64_t bytes = count * element_size(view.dtype);
  DeviceTensor result{device_alloc(static_cast<size_t>(bytes)), nullptr};
  std::vector<unsigned char> host(static_cast<size_t>(bytes));
  for (int64_t i = 0; i < bytes; i += element_size(view.dtype)) {
    // float32 values spread over [-2, 2); for 16-bit types, the top half of such a float.
    float value =
        static_cast<float>((i / element_size(view.dtype) * 7 + pattern) % 64) / 16.0f - 2.0f;
    unsigned char raw[4];
    std::memcpy(raw, &value, 4);
    if (view.dtype == ACL_FLOAT) {
      std::memcpy(&host[i], raw, 4);
    } else {
      std::memcpy(&host[i], raw + 2, 2);
    }
  }
  check(aclrtMemcpy(result.memory.get(), bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE),
        "aclrtMemcpy");
  const int64_t* strides = view.strides.empty() ? nullptr : view.strides.data();
  aclTensor* tensor =
      aclCreateTensor(view.shape.data(), view.shape.size(), view.dtype, strides, 0, ACL_FORMAT_ND,
                      view.shape.data(), view.shape.size(), result.memory.get());
  check(tensor == nullptr ? 1 : 0, "aclCreateTensor");
  result.tensor.reset(tensor, aclDestroyTensor);
  return result;
}

Setup ours(View grad_output, View self, View target, aclDataType out_dtype, int64_t reduction) {
  return [=] {
    DeviceTensor go = make(grad_output, 1);
    DeviceTensor x = make(self, 2);
    DeviceTensor y = make(target, 3);
    DeviceTensor gi = make(View{{kSide, kSide}, {}, out_dtype}, 0);
    return Step([=] {
      uint64_t workspace_size = 0;
      aclOpExecutor* executor = nullptr;
      check(aclnnSmoothL1LossBackwardGetWorkspaceSize(go.tensor.get(), x.tensor.get(),
                                                      y.tensor.get(), reduction, 1.0f,
                                                      gi.tensor.get(), &workspace_size, &executor),
            "aclnnSmoothL1LossBackwardGetWorkspaceSize");
      check(aclnnSmoothL1LossBackward(nullptr, 0, executor, nullptr), "aclnnSmoothL1LossBackward");
    });
  };
}

// The bytes of a view's elements: a transposed view reads the same bytes as a contiguous one.
size_t bytes_of(const View& view) {
  return static_cast<size_t>(elements(view.shape) * element_size(view.dtype));
}

Traffic traffic(const View& grad_output, const View& self, const View& target, aclDataType out) {
  return {{bytes_of(grad_output), bytes_of(self), bytes_of(target)},
          {static_cast<size_t>(kCount * element_size(out))}};
}

// A case reads gradOutput, self and target and writes a [4096, 4096] gradInput of `out`.
void add(const char* name, const View& grad_output, const View& self, const View& target,
         aclDataType out, int64_t reduction, Setup torch) {
  add_case(memory_bound("smooth_l1_backward", name, traffic(grad_output, self, target, out),
                        ours(grad_output, self, target, out, reduction), std::move(torch)));
}

const View kF32{{kSide, kSide}, {}, ACL_FLOAT};
const View kBf16{{kSide, kSide}, {}, ACL_BF16};
const View kF16{{kSide, kSide}, {}, ACL_FLOAT16};
const View kScalar{{}, {}, ACL_FLOAT};
const View kColumn{{kSide, 1}, {}, ACL_FLOAT};
const View kTransposed{{kSide, kSide}, {1, kSide}, ACL_FLOAT};

#ifdef OPENACLNN_BENCH_TORCH
at::Tensor torch_input(at::IntArrayRef shape, at::ScalarType dtype) {
  return (at::rand(shape) * 4 - 2).to(dtype);
}

// PyTorch's own kernel on the same shapes; `convert` widens mixed inputs first (PyTorch's
// smooth_l1_loss_backward needs one dtype), which a PyTorch user would have to do too.
Setup torch_case(std::vector<int64_t> go_shape, at::ScalarType go_type, at::ScalarType x_type,
                 at::ScalarType y_type, std::vector<int64_t> y_shape, bool transposed,
                 at::ScalarType out_type, int64_t reduction) {
  return [=] {
    at::Tensor go = torch_input(go_shape, go_type);
    at::Tensor x = torch_input({kSide, kSide}, x_type);
    if (transposed) {
      x = x.t();
    }
    at::Tensor y = torch_input(y_shape, y_type);
    at::Tensor gi = at::empty({kSide, kSide}, at::TensorOptions().dtype(out_type));
    bool convert = x_type != out_type || y_type != out_type || go_type != out_type;
    return Step([=]() mutable {
      if (convert) {
        at::smooth_l1_loss_backward_out(gi, go.to(out_type), x.to(out_type), y.to(out_type),
                                        reduction, 1.0);
      } else {
        at::smooth_l1_loss_backward_out(gi, go, x, y, reduction, 1.0);
      }
    });
  };
}

const auto kF = at::kFloat;
const auto kB = at::kBFloat16;
const auto kH = at::kHalf;
#endif

const bool registered = [] {
  add("a_f32_none_16M", kF32, kF32, kF32, ACL_FLOAT, 0,
      OA_BENCH_TORCH(torch_case({kSide, kSide}, kF, kF, kF, {kSide, kSide}, false, kF, 0)));
  add("b_bf16_none_16M", kBf16, kBf16, kBf16, ACL_BF16, 0,
      OA_BENCH_TORCH(torch_case({kSide, kSide}, kB, kB, kB, {kSide, kSide}, false, kB, 0)));
  add("c_f16_none_16M", kF16, kF16, kF16, ACL_FLOAT16, 0, nullptr);
  add("d_f32_mean_scalar_grad", kScalar, kF32, kF32, ACL_FLOAT, 1,
      OA_BENCH_TORCH(torch_case({}, kF, kF, kF, {kSide, kSide}, false, kF, 1)));
  add("e_f32_broadcast_target", kF32, kF32, kColumn, ACL_FLOAT, 0,
      OA_BENCH_TORCH(torch_case({kSide, kSide}, kF, kF, kF, {kSide, 1}, false, kF, 0)));
  add("f_f32_transposed_self", kF32, kTransposed, kF32, ACL_FLOAT, 0,
      OA_BENCH_TORCH(torch_case({kSide, kSide}, kF, kF, kF, {kSide, kSide}, true, kF, 0)));
  add("g_mixed_f32_f16_bf16", kF32, kF16, kBf16, ACL_FLOAT, 0,
      OA_BENCH_TORCH(torch_case({kSide, kSide}, kF, kH, kB, {kSide, kSide}, false, kF, 0)));
  return true;
}();

}  // namespace
}  // namespace oa::bench
