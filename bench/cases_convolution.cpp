// Convolution cases (issue 26): aclnnConvolution and aclnnConvolutionBackward (all three
// gradients) side by side with PyTorch's aten::convolution and aten::convolution_backward, float32
// and bfloat16, compared with the in-run GEMM rate (the harness's compute ceiling).
//
// Work: 2 * N * Cout * (output spatial size) * (Cin / groups) * (kernel size) FLOPs per product
// (the forward has one; the backward two, gradInput and gradWeight) plus N * Cout * (output
// spatial size) for the bias (the forward's adds, the backward's gradBias sum). For the
// transposed case the "output" of that count is its input (the product is the same). Our step
// times both phases, as a caller that plans at every call pays them; the workspace is allocated
// once, in the setup.
#ifdef OPENACLNN_BENCH_TORCH
#include <ATen/ATen.h>
#endif

#include <cstdint>
#include <cstring>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "acl_support.h"
#include "aclnnop/aclnn_convolution.h"
#include "aclnnop/aclnn_convolution_backward.h"
#include "harness.h"

namespace oa::bench {
namespace {

struct Geometry {
  const char* name;
  int64_t n, cin, cout, groups;
  std::vector<int64_t> in, k, stride, pad, dilation;
  bool transposed;
  int64_t spatial() const { return static_cast<int64_t>(in.size()); }
  int64_t out(size_t d) const {
    const int64_t span = dilation[d] * (k[d] - 1);
    return transposed ? (in[d] - 1) * stride[d] - 2 * pad[d] + span + 1
                      : (in[d] + 2 * pad[d] - span - 1) / stride[d] + 1;
  }
  std::vector<int64_t> input_shape() const {
    std::vector<int64_t> s = {n, cin};
    s.insert(s.end(), in.begin(), in.end());
    return s;
  }
  std::vector<int64_t> weight_shape() const {
    std::vector<int64_t> s = transposed ? std::vector<int64_t>{cin, cout / groups}
                                        : std::vector<int64_t>{cout, cin / groups};
    s.insert(s.end(), k.begin(), k.end());
    return s;
  }
  std::vector<int64_t> output_shape() const {
    std::vector<int64_t> s = {n, cout};
    for (size_t d = 0; d < in.size(); ++d) {
      s.push_back(out(d));
    }
    return s;
  }
  // One product's FLOPs and the bias's adds.
  double product_flops() const {
    // Every tap pairs one element of the (small) convolution's output with a kernel weight.
    double y = static_cast<double>(transposed ? n * cin : n * cout);
    double kernel = static_cast<double>(transposed ? cout / groups : cin / groups);
    for (size_t d = 0; d < in.size(); ++d) {
      y *= static_cast<double>(transposed ? in[d] : out(d));
      kernel *= static_cast<double>(k[d]);
    }
    return 2 * y * kernel;
  }
  double bias_flops() const {
    double elements = static_cast<double>(n * cout);
    for (size_t d = 0; d < in.size(); ++d) {
      elements *= static_cast<double>(out(d));
    }
    return elements;
  }
};

// The cases a-g.
const std::vector<Geometry>& cases() {
  static const std::vector<Geometry> all = {
      {"a", 16, 64, 64, 1, {56, 56}, {3, 3}, {1, 1}, {1, 1}, {1, 1}, false},
      {"b", 16, 256, 512, 1, {28, 28}, {1, 1}, {2, 2}, {0, 0}, {1, 1}, false},
      {"c_depthwise", 16, 128, 128, 128, {56, 56}, {3, 3}, {1, 1}, {1, 1}, {1, 1}, false},
      {"d_1d", 8, 256, 256, 1, {4096}, {5}, {1}, {4}, {2}, false},
      {"e_3d", 2, 32, 32, 1, {16, 32, 32}, {3, 3, 3}, {1, 1, 1}, {1, 1, 1}, {1, 1, 1}, false},
      {"f_transposed", 8, 128, 64, 1, {28, 28}, {4, 4}, {2, 2}, {1, 1}, {1, 1}, true},
      // The size of the CANN-style sample (examples/convolution_backward.cpp): per-call overhead.
      {"g_tiny", 1, 2, 2, 1, {4, 4}, {3, 3}, {1, 1}, {1, 1}, {1, 1}, false},
  };
  return all;
}

aclFormat format_of(size_t rank) {
  return rank == 3 ? ACL_FORMAT_NCL : rank == 4 ? ACL_FORMAT_NCHW : ACL_FORMAT_NCDHW;
}

struct Tensor {
  DeviceBuffer buffer;
  std::shared_ptr<aclTensor> tensor;
};

// A contiguous device tensor of uniform values in [-1, 1) (bfloat16: truncated).
Tensor device_tensor(const std::vector<int64_t>& shape, aclDataType dtype, aclFormat format,
                     std::mt19937* rng) {
  int64_t count = 1;
  for (int64_t d : shape) {
    count *= d;
  }
  const int64_t element = dtype == ACL_FLOAT ? 4 : 2;
  const auto bytes = static_cast<size_t>(count * element);
  std::vector<unsigned char> host(bytes);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  for (int64_t i = 0; i < count; ++i) {
    const float v = uniform(*rng);
    uint32_t bits;
    std::memcpy(&bits, &v, 4);
    const auto high = static_cast<uint16_t>(bits >> 16);
    std::memcpy(host.data() + i * element, element == 4 ? static_cast<const void*>(&v) : &high,
                static_cast<size_t>(element));
  }
  Tensor t{device_alloc(bytes > 0 ? bytes : 1), nullptr};
  check(aclrtMemcpy(t.buffer.get(), bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE),
        "aclrtMemcpy");
  aclTensor* raw = aclCreateTensor(shape.data(), shape.size(), dtype, nullptr, 0, format,
                                   shape.data(), shape.size(), t.buffer.get());
  if (raw == nullptr) {
    throw std::runtime_error(std::string("aclCreateTensor failed: ") + aclGetRecentErrMsg());
  }
  t.tensor.reset(raw, [](aclTensor* p) { aclDestroyTensor(p); });
  return t;
}

using IntArray = std::shared_ptr<aclIntArray>;
IntArray int_array(const std::vector<int64_t>& v) {
  return IntArray(aclCreateIntArray(v.data(), v.size()),
                  [](aclIntArray* p) { aclDestroyIntArray(p); });
}

// The geometry's arrays.
struct Arrays {
  IntArray stride, padding, dilation, output_padding, bias_sizes;
  explicit Arrays(const Geometry& g)
      : stride(int_array(g.stride)),
        padding(int_array(g.pad)),
        dilation(int_array(g.dilation)),
        output_padding(int_array(std::vector<int64_t>(g.in.size(), 0))),
        bias_sizes(int_array({g.cout})) {}
};

// Both phases of a call at every step; the workspace is the one the setup's call asked for.
template <typename Phase1, typename Phase2>
Step two_phases(const char* name, const Phase1& phase1, const Phase2& phase2) {
  uint64_t capacity = 0;
  aclOpExecutor* executor = nullptr;
  check(phase1(&capacity, &executor), name);
  check(aclDestroyAclOpExecutor(executor), "aclDestroyAclOpExecutor");
  const DeviceBuffer workspace = device_alloc(capacity > 0 ? capacity : 1);
  return [phase1, phase2, workspace, capacity, name] {
    uint64_t size = 0;
    aclOpExecutor* exec = nullptr;
    check(phase1(&size, &exec), name);
    if (size > capacity) {
      throw std::runtime_error(std::string(name) + " asked for more workspace than at setup");
    }
    check(phase2(workspace.get(), size, exec, nullptr), name);
  };
}

Step ours_forward(const Geometry& g, aclDataType dtype) {
  std::mt19937 rng(1);
  const aclFormat format = format_of(g.in.size() + 2);
  const Tensor x = device_tensor(g.input_shape(), dtype, format, &rng);
  const Tensor w = device_tensor(g.weight_shape(), dtype, format, &rng);
  const Tensor bias = device_tensor({g.cout}, dtype, ACL_FORMAT_ND, &rng);
  const Tensor out = device_tensor(g.output_shape(), dtype, format, &rng);
  const auto a = std::make_shared<Arrays>(g);
  const bool transposed = g.transposed;
  const int64_t groups = g.groups;
  return two_phases(
      "aclnnConvolution",
      [x, w, bias, out, a, transposed, groups](uint64_t* size, aclOpExecutor** executor) {
        return aclnnConvolutionGetWorkspaceSize(
            x.tensor.get(), w.tensor.get(), bias.tensor.get(), a->stride.get(), a->padding.get(),
            a->dilation.get(), transposed, a->output_padding.get(), groups, out.tensor.get(), 0,
            size, executor);
      },
      aclnnConvolution);
}

Step ours_backward(const Geometry& g, aclDataType dtype) {
  std::mt19937 rng(2);
  const aclFormat format = format_of(g.in.size() + 2);
  const Tensor go = device_tensor(g.output_shape(), dtype, format, &rng);
  const Tensor x = device_tensor(g.input_shape(), dtype, format, &rng);
  const Tensor w = device_tensor(g.weight_shape(), dtype, format, &rng);
  const Tensor gi = device_tensor(g.input_shape(), dtype, format, &rng);
  const Tensor gw = device_tensor(g.weight_shape(), dtype, format, &rng);
  const Tensor gb = device_tensor({g.cout}, dtype, ACL_FORMAT_ND, &rng);
  const auto a = std::make_shared<Arrays>(g);
  bool all[3] = {true, true, true};
  const auto mask = std::shared_ptr<aclBoolArray>(aclCreateBoolArray(all, 3),
                                                  [](aclBoolArray* p) { aclDestroyBoolArray(p); });
  const bool transposed = g.transposed;
  const int groups = static_cast<int>(g.groups);
  return two_phases(
      "aclnnConvolutionBackward",
      [go, x, w, gi, gw, gb, a, mask, transposed, groups](uint64_t* size,
                                                          aclOpExecutor** executor) {
        return aclnnConvolutionBackwardGetWorkspaceSize(
            go.tensor.get(), x.tensor.get(), w.tensor.get(), a->bias_sizes.get(), a->stride.get(),
            a->padding.get(), a->dilation.get(), transposed, a->output_padding.get(), groups,
            mask.get(), 0, gi.tensor.get(), gw.tensor.get(), gb.tensor.get(), size, executor);
      },
      aclnnConvolutionBackward);
}

#ifdef OPENACLNN_BENCH_TORCH
at::ScalarType torch_dtype(aclDataType dtype) {
  return dtype == ACL_BF16 ? at::kBFloat16 : at::kFloat;
}

Step torch_forward(const Geometry& g, aclDataType dtype) {
  const auto options = at::TensorOptions().dtype(torch_dtype(dtype));
  const at::Tensor x = at::rand(g.input_shape(), options) * 2 - 1;
  const at::Tensor w = at::rand(g.weight_shape(), options) * 2 - 1;
  const at::Tensor bias = at::rand({g.cout}, options) * 2 - 1;
  const std::vector<int64_t> output_padding(g.in.size(), 0);
  return [x, w, bias, g, output_padding] {
    at::convolution(x, w, bias, g.stride, g.pad, g.dilation, g.transposed, output_padding,
                    g.groups);
  };
}

Step torch_backward(const Geometry& g, aclDataType dtype) {
  const auto options = at::TensorOptions().dtype(torch_dtype(dtype));
  const at::Tensor go = at::rand(g.output_shape(), options) * 2 - 1;
  const at::Tensor x = at::rand(g.input_shape(), options) * 2 - 1;
  const at::Tensor w = at::rand(g.weight_shape(), options) * 2 - 1;
  const std::vector<int64_t> output_padding(g.in.size(), 0);
  return [go, x, w, g, output_padding] {
    at::convolution_backward(go, x, w, std::vector<int64_t>{g.cout}, g.stride, g.pad, g.dilation,
                             g.transposed, output_padding, g.groups, {true, true, true});
  };
}
#endif

bool register_all() {
  for (const Geometry& g : cases()) {
    for (aclDataType dtype : {ACL_FLOAT, ACL_BF16}) {
      const std::string suffix = std::string(g.name) + (dtype == ACL_FLOAT ? "/f32" : "/bf16");
      add_case(compute_bound(
          "convolution", "fwd/" + suffix, g.product_flops() + g.bias_flops(),
          [g, dtype] { return ours_forward(g, dtype); },
          OA_BENCH_TORCH(Setup([g, dtype] { return torch_forward(g, dtype); })),
          dtype == ACL_BF16));
      add_case(compute_bound(
          "convolution", "bwd/" + suffix, 2 * g.product_flops() + g.bias_flops(),
          [g, dtype] { return ours_backward(g, dtype); },
          OA_BENCH_TORCH(Setup([g, dtype] { return torch_backward(g, dtype); })),
          dtype == ACL_BF16));
    }
  }
  return true;
}

const bool registered = register_all();

}  // namespace
}  // namespace oa::bench
