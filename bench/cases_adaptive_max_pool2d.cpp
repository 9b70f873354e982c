// aclnnAdaptiveMaxPool2dBackward against PyTorch's adaptive_max_pool2d_backward_out (issue 4), and
// aclnnAdaptiveMaxPool2d against adaptive_max_pool2d_out, float32 and bfloat16, INT64 indices
// from each side's own forward on normal random input. Each openaclnn step runs both phases; the
// outputs are preallocated on both sides. Traffic: backward, gradOutput and indices read and
// gradInput written (self only gives the shape); forward, self read and output and indices
// written; each tensor's bytes once.
#ifdef OPENACLNN_BENCH_TORCH
#include <ATen/ATen.h>
#endif

#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "acl_support.h"
#include "aclnnop/aclnn_adaptive_max_pool2d.h"
#include "aclnnop/aclnn_adaptive_max_pool2d_backward.h"
#include "harness.h"

namespace oa::bench {
namespace {

struct Problem {
  std::vector<int64_t> input;  // [N, C, H, W] or [C, H, W]
  int64_t ho;
  int64_t wo;
  bool channels_last;  // NHWC memory for every tensor (4-D only)

  std::vector<int64_t> output() const {
    std::vector<int64_t> s = input;
    s[s.size() - 2] = ho;
    s[s.size() - 1] = wo;
    return s;
  }
};

int64_t elements(const std::vector<int64_t>& shape) {
  int64_t count = 1;
  for (int64_t dim : shape) {
    count *= dim;
  }
  return count;
}

int64_t element_size(aclDataType dtype) {
  return dtype == ACL_INT64 ? 8 : (dtype == ACL_FLOAT ? 4 : 2);
}

std::vector<int64_t> strides_of(const std::vector<int64_t>& shape, bool channels_last) {
  if (channels_last) {
    const int64_t c = shape[1];
    const int64_t h = shape[2];
    const int64_t w = shape[3];
    return {c * h * w, 1, w * c, c};
  }
  std::vector<int64_t> strides(shape.size(), 1);
  for (size_t i = shape.size() - 1; i-- > 0;) {
    strides[i] = strides[i + 1] * shape[i + 1];
  }
  return strides;
}

struct DeviceTensor {
  DeviceBuffer memory;
  std::shared_ptr<aclTensor> tensor;
};

// A tensor over fresh device memory; floating tensors hold normal random values (the top half of
// a float32 for bfloat16), others are left as aclrtMemset leaves them (zero).
DeviceTensor make(const std::vector<int64_t>& shape, aclDataType dtype, bool channels_last,
                  unsigned seed) {
  const int64_t count = elements(shape);
  const auto bytes = static_cast<size_t>(count * element_size(dtype));
  DeviceTensor result{device_alloc(bytes), nullptr};
  std::vector<unsigned char> host(bytes, 0);
  if (dtype == ACL_FLOAT || dtype == ACL_BF16) {
    std::mt19937 rng(seed);
    std::normal_distribution<float> normal;
    const int64_t size = element_size(dtype);
    for (int64_t i = 0; i < count; ++i) {
      const float value = normal(rng);
      unsigned char raw[4];
      std::memcpy(raw, &value, 4);
      std::memcpy(&host[i * size], size == 4 ? raw : raw + 2, size);
    }
  }
  check(aclrtMemcpy(result.memory.get(), bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE),
        "aclrtMemcpy");
  const std::vector<int64_t> strides = strides_of(shape, channels_last);
  const std::vector<int64_t> storage = {count};
  aclTensor* tensor = aclCreateTensor(shape.data(), shape.size(), dtype, strides.data(), 0,
                                      ACL_FORMAT_ND, storage.data(), 1, result.memory.get());
  check(tensor == nullptr ? 1 : 0, "aclCreateTensor");
  result.tensor.reset(tensor, aclDestroyTensor);
  return result;
}

// Workspace for `size` bytes; null for none.
DeviceBuffer workspace_for(uint64_t size) {
  return size == 0 ? DeviceBuffer() : device_alloc(static_cast<size_t>(size));
}

// Runs both phases of the forward once.
void forward(const DeviceTensor& self, const std::shared_ptr<aclIntArray>& size,
             const DeviceTensor& out, const DeviceTensor& indices, const DeviceBuffer& workspace,
             uint64_t workspace_size) {
  uint64_t needed = 0;
  aclOpExecutor* executor = nullptr;
  check(aclnnAdaptiveMaxPool2dGetWorkspaceSize(self.tensor.get(), size.get(), out.tensor.get(),
                                               indices.tensor.get(), &needed, &executor),
        "aclnnAdaptiveMaxPool2dGetWorkspaceSize");
  check(aclnnAdaptiveMaxPool2d(workspace.get(), workspace_size, executor, nullptr),
        "aclnnAdaptiveMaxPool2d");
}

uint64_t forward_workspace(const DeviceTensor& self, const std::shared_ptr<aclIntArray>& size,
                           const DeviceTensor& out, const DeviceTensor& indices) {
  uint64_t needed = 0;
  aclOpExecutor* executor = nullptr;
  check(aclnnAdaptiveMaxPool2dGetWorkspaceSize(self.tensor.get(), size.get(), out.tensor.get(),
                                               indices.tensor.get(), &needed, &executor),
        "aclnnAdaptiveMaxPool2dGetWorkspaceSize");
  check(aclDestroyAclOpExecutor(executor), "aclDestroyAclOpExecutor");
  return needed;
}

std::shared_ptr<aclIntArray> output_size(const Problem& p) {
  const int64_t values[] = {p.ho, p.wo};
  return std::shared_ptr<aclIntArray>(aclCreateIntArray(values, 2), aclDestroyIntArray);
}

Setup ours_forward(Problem p, aclDataType dtype) {
  return [=] {
    const DeviceTensor self = make(p.input, dtype, p.channels_last, 1);
    const DeviceTensor out = make(p.output(), dtype, p.channels_last, 0);
    const DeviceTensor indices = make(p.output(), ACL_INT64, p.channels_last, 0);
    const std::shared_ptr<aclIntArray> size = output_size(p);
    const uint64_t workspace_size = forward_workspace(self, size, out, indices);
    const DeviceBuffer workspace = workspace_for(workspace_size);
    return Step([=] { forward(self, size, out, indices, workspace, workspace_size); });
  };
}

Setup ours_backward(Problem p, aclDataType dtype) {
  return [=] {
    const DeviceTensor self = make(p.input, dtype, p.channels_last, 1);
    const DeviceTensor indices = make(p.output(), ACL_INT64, p.channels_last, 0);
    const DeviceTensor grad_output = make(p.output(), dtype, p.channels_last, 2);
    const DeviceTensor grad_input = make(p.input, dtype, p.channels_last, 0);
    {
      // The indices come from the forward; its values go to grad_input, overwritten below.
      const std::shared_ptr<aclIntArray> size = output_size(p);
      const DeviceTensor values = make(p.output(), dtype, p.channels_last, 0);
      const uint64_t workspace_size = forward_workspace(self, size, values, indices);
      forward(self, size, values, indices, workspace_for(workspace_size), workspace_size);
    }
    uint64_t workspace_size = 0;
    aclOpExecutor* executor = nullptr;
    check(aclnnAdaptiveMaxPool2dBackwardGetWorkspaceSize(
              grad_output.tensor.get(), self.tensor.get(), indices.tensor.get(),
              grad_input.tensor.get(), &workspace_size, &executor),
          "aclnnAdaptiveMaxPool2dBackwardGetWorkspaceSize");
    check(aclDestroyAclOpExecutor(executor), "aclDestroyAclOpExecutor");
    const DeviceBuffer workspace = workspace_for(workspace_size);
    return Step([=] {
      uint64_t needed = 0;
      aclOpExecutor* run = nullptr;
      check(aclnnAdaptiveMaxPool2dBackwardGetWorkspaceSize(grad_output.tensor.get(),
                                                           self.tensor.get(), indices.tensor.get(),
                                                           grad_input.tensor.get(), &needed, &run),
            "aclnnAdaptiveMaxPool2dBackwardGetWorkspaceSize");
      check(aclnnAdaptiveMaxPool2dBackward(workspace.get(), workspace_size, run, nullptr),
            "aclnnAdaptiveMaxPool2dBackward");
    });
  };
}

#ifdef OPENACLNN_BENCH_TORCH
at::ScalarType torch_dtype(aclDataType dtype) {
  return dtype == ACL_FLOAT ? at::kFloat : at::kBFloat16;
}

at::Tensor torch_input(const Problem& p, aclDataType dtype) {
  at::Tensor x = at::randn(p.input, at::TensorOptions().dtype(torch_dtype(dtype)));
  return p.channels_last ? x.contiguous(at::MemoryFormat::ChannelsLast) : x;
}

Setup torch_forward(Problem p, aclDataType dtype) {
  return [=] {
    const at::Tensor x = torch_input(p, dtype);
    const auto result = at::adaptive_max_pool2d(x, {p.ho, p.wo});
    at::Tensor out = std::get<0>(result);
    at::Tensor indices = std::get<1>(result);
    return Step([=]() mutable { at::adaptive_max_pool2d_out(out, indices, x, {p.ho, p.wo}); });
  };
}

Setup torch_backward(Problem p, aclDataType dtype) {
  return [=] {
    const at::Tensor x = torch_input(p, dtype);
    // The indices of the float32 forward of the same values: PyTorch 1.13's bfloat16 forward
    // returns H*W, past the plane, for some last windows, and its backward would add there.
    const auto result = at::adaptive_max_pool2d(x.to(at::kFloat), {p.ho, p.wo});
    const at::Tensor indices = std::get<1>(result);
    const at::Tensor grad_output = at::randn_like(std::get<0>(result)).to(x.scalar_type());
    at::Tensor grad_input = at::empty_like(x);
    return Step([=]() mutable {
      at::adaptive_max_pool2d_backward_out(grad_input, grad_output, x, indices);
    });
  };
}
#endif

std::string name_of(const char* phase, aclDataType dtype, const Problem& p) {
  std::string name = std::string(phase) + (dtype == ACL_FLOAT ? "/f32/" : "/bf16/");
  if (p.channels_last) {
    name += "nhwc_";
  }
  for (size_t i = 0; i < p.input.size(); ++i) {
    name += (i == 0 ? "" : "x") + std::to_string(p.input[i]);
  }
  return name + "_" + std::to_string(p.ho) + "x" + std::to_string(p.wo);
}

bool register_cases() {
  const Problem problems[] = {
      {{32, 64, 56, 56}, 7, 7, false}, {{8, 256, 64, 64}, 1, 1, false},
      {{8, 256, 64, 64}, 3, 5, false}, {{64, 64, 32, 32}, 16, 16, false},
      {{64, 32, 32}, 5, 5, false},     {{32, 64, 56, 56}, 7, 7, true},
  };
  for (aclDataType dtype : {ACL_FLOAT, ACL_BF16}) {
    for (const Problem& p : problems) {
      const auto input = static_cast<size_t>(elements(p.input) * element_size(dtype));
      const auto values = static_cast<size_t>(elements(p.output()) * element_size(dtype));
      const auto indices = static_cast<size_t>(elements(p.output()) * element_size(ACL_INT64));
      add_case(memory_bound("adaptive_max_pool2d", name_of("backward", dtype, p),
                            {{values, indices}, {input}}, ours_backward(p, dtype),
                            OA_BENCH_TORCH(torch_backward(p, dtype))));
      add_case(memory_bound("adaptive_max_pool2d", name_of("forward", dtype, p),
                            {{input}, {values, indices}}, ours_forward(p, dtype),
                            OA_BENCH_TORCH(torch_forward(p, dtype))));
    }
  }
  return true;
}

const bool registered = register_cases();

}  // namespace
}  // namespace oa::bench
