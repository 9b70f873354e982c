// ConvTbc cases: aclnnConvTbc and aclnnConvTbcBackward side by side with PyTorch's conv_tbc and
// conv_tbc_backward, and the GEMM rate of the library openaclnn uses for them (oneDNN) as a
// ceiling next to the harness's OpenBLAS one.
//
// Work: 2 * Tout * B * Cin * Cout * K FLOPs per product (the forward has one, the backward two:
// gradInput and gradWeight) plus Tout * B * Cout for the bias (the forward's adds, the backward's
// gradBias sum). Our step times both phases (GetWorkspaceSize and the launch), as a caller that
// plans at every call pays them; the workspace is allocated once, in the setup.
#ifdef OPENACLNN_BENCH_TORCH
#include <ATen/ATen.h>
#endif
#include <dlfcn.h>
#include <omp.h>
#include <oneapi/dnnl/dnnl_types.h>

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

struct Sizes {
  const char* name;
  int64_t t, b, ci, co, k, pad;
  int64_t tout() const { return t + 2 * pad - k + 1; }
};

// The cases: a typical layer, small channels with a large kernel, a mid-size kernel, a
// long sequence of batch 1, and the seed example (per-call overhead).
constexpr Sizes kCases[] = {
    {"a", 512, 16, 256, 256, 3, 1}, {"b", 653, 10, 21, 129, 48, 29},
    {"c", 1024, 8, 64, 64, 31, 15}, {"d", 16384, 1, 128, 128, 5, 2},
    {"e", 5, 1, 2, 2, 1, 0},
};

double product_flops(const Sizes& s) {
  return 2.0 * static_cast<double>(s.tout() * s.b * s.ci) * static_cast<double>(s.co * s.k);
}
double bias_flops(const Sizes& s) { return static_cast<double>(s.tout() * s.b * s.co); }

int64_t bytes_of(aclDataType dtype) { return dtype == ACL_FLOAT ? 4 : 2; }

// A contiguous device tensor filled with uniform values in [-1, 1) of the dtype.
struct DeviceTensor {
  DeviceBuffer buffer;
  std::shared_ptr<aclTensor> tensor;
};

DeviceTensor device_tensor(const std::vector<int64_t>& shape, aclDataType dtype,
                           std::mt19937* rng) {
  int64_t count = 1;
  for (int64_t d : shape) {
    count *= d;
  }
  const size_t bytes = static_cast<size_t>(count * bytes_of(dtype));
  std::vector<unsigned char> host(bytes);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  for (int64_t i = 0; i < count; ++i) {
    const float v = uniform(*rng);
    if (dtype == ACL_FLOAT) {
      std::memcpy(host.data() + i * 4, &v, 4);
    } else if (dtype == ACL_FLOAT16) {
      const _Float16 h = static_cast<_Float16>(v);
      std::memcpy(host.data() + i * 2, &h, 2);
    } else {
      uint32_t bits;
      std::memcpy(&bits, &v, 4);
      const auto high = static_cast<uint16_t>(bits >> 16);  // a bf16 value near v
      std::memcpy(host.data() + i * 2, &high, 2);
    }
  }
  DeviceTensor t{device_alloc(bytes), nullptr};
  check(aclrtMemcpy(t.buffer.get(), bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE),
        "aclrtMemcpy");
  aclTensor* raw = aclCreateTensor(shape.data(), shape.size(), dtype, nullptr, 0, ACL_FORMAT_ND,
                                   shape.data(), shape.size(), t.buffer.get());
  if (raw == nullptr) {
    throw std::runtime_error(std::string("aclCreateTensor failed: ") + aclGetRecentErrMsg());
  }
  t.tensor.reset(raw, [](aclTensor* p) { aclDestroyTensor(p); });
  return t;
}

// The workspace a call asks for, found by one untimed GetWorkspaceSize.
template <typename Phase1>
DeviceBuffer workspace_for(const Phase1& phase1, uint64_t* size) {
  aclOpExecutor* executor = nullptr;
  check(phase1(size, &executor), "GetWorkspaceSize");
  check(aclDestroyAclOpExecutor(executor), "aclDestroyAclOpExecutor");
  return device_alloc(*size > 0 ? *size : 1);
}

Step ours_forward(const Sizes& s, aclDataType dtype) {
  std::mt19937 rng(1);
  const DeviceTensor x = device_tensor({s.t, s.b, s.ci}, dtype, &rng);
  const DeviceTensor w = device_tensor({s.k, s.ci, s.co}, dtype, &rng);
  const DeviceTensor bias = device_tensor({s.co}, dtype, &rng);
  const DeviceTensor out = device_tensor({s.tout(), s.b, s.co}, dtype, &rng);
  const int64_t pad = s.pad;
  auto phase1 = [x, w, bias, out, pad](uint64_t* size, aclOpExecutor** executor) {
    return aclnnConvTbcGetWorkspaceSize(x.tensor.get(), w.tensor.get(), bias.tensor.get(), pad,
                                        out.tensor.get(), 0, size, executor);
  };
  uint64_t capacity = 0;
  const DeviceBuffer workspace = workspace_for(phase1, &capacity);
  return [phase1, workspace, capacity] {
    uint64_t size = 0;
    aclOpExecutor* executor = nullptr;
    check(phase1(&size, &executor), "aclnnConvTbcGetWorkspaceSize");
    if (size > capacity) {
      throw std::runtime_error("aclnnConvTbc asked for more workspace than at setup");
    }
    check(aclnnConvTbc(workspace.get(), size, executor, nullptr), "aclnnConvTbc");
  };
}

Step ours_backward(const Sizes& s, aclDataType dtype) {
  std::mt19937 rng(2);
  const DeviceTensor g = device_tensor({s.tout(), s.b, s.co}, dtype, &rng);
  const DeviceTensor x = device_tensor({s.t, s.b, s.ci}, dtype, &rng);
  const DeviceTensor w = device_tensor({s.k, s.ci, s.co}, dtype, &rng);
  const DeviceTensor bias = device_tensor({s.co}, dtype, &rng);
  const DeviceTensor gi = device_tensor({s.t, s.b, s.ci}, dtype, &rng);
  const DeviceTensor gw = device_tensor({s.k, s.ci, s.co}, dtype, &rng);
  const DeviceTensor gb = device_tensor({s.co}, dtype, &rng);
  const int64_t pad = s.pad;
  auto phase1 = [g, x, w, bias, gi, gw, gb, pad](uint64_t* size, aclOpExecutor** executor) {
    return aclnnConvTbcBackwardGetWorkspaceSize(g.tensor.get(), x.tensor.get(), w.tensor.get(),
                                                bias.tensor.get(), pad, 0, gi.tensor.get(),
                                                gw.tensor.get(), gb.tensor.get(), size, executor);
  };
  uint64_t capacity = 0;
  const DeviceBuffer workspace = workspace_for(phase1, &capacity);
  return [phase1, workspace, capacity] {
    uint64_t size = 0;
    aclOpExecutor* executor = nullptr;
    check(phase1(&size, &executor), "aclnnConvTbcBackwardGetWorkspaceSize");
    if (size > capacity) {
      throw std::runtime_error("aclnnConvTbcBackward asked for more workspace than at setup");
    }
    check(aclnnConvTbcBackward(workspace.get(), size, executor, nullptr), "aclnnConvTbcBackward");
  };
}

#ifdef OPENACLNN_BENCH_TORCH
at::ScalarType torch_dtype(aclDataType dtype) {
  return dtype == ACL_BF16 ? at::kBFloat16 : at::kFloat;
}

// conv_tbc has no _out variant: PyTorch's step allocates its outputs.
Step torch_forward(const Sizes& s, aclDataType dtype) {
  const auto options = at::TensorOptions().dtype(torch_dtype(dtype));
  const at::Tensor x = at::rand({s.t, s.b, s.ci}, options) * 2 - 1;
  const at::Tensor w = at::rand({s.k, s.ci, s.co}, options) * 2 - 1;
  const at::Tensor bias = at::rand({s.co}, options) * 2 - 1;
  const int64_t pad = s.pad;
  return [x, w, bias, pad] { at::conv_tbc(x, w, bias, pad); };
}

Step torch_backward(const Sizes& s, aclDataType dtype) {
  const auto options = at::TensorOptions().dtype(torch_dtype(dtype));
  const at::Tensor g = at::rand({s.tout(), s.b, s.co}, options) * 2 - 1;
  const at::Tensor x = at::rand({s.t, s.b, s.ci}, options) * 2 - 1;
  const at::Tensor w = at::rand({s.k, s.ci, s.co}, options) * 2 - 1;
  const at::Tensor bias = at::rand({s.co}, options) * 2 - 1;
  const int64_t pad = s.pad;
  return [g, x, w, bias, pad] { at::conv_tbc_backward(g, x, w, bias, pad); };
}
#endif

// oneDNN's own GEMMs at the project's thread count, single precision and bfloat16 operands with
// float32 results: the ceilings of the products above. Looked up at run time in the oneDNN that
// libopenaclnn has loaded (the harness links only OpenBLAS), so that this file needs no build
// change.
constexpr int kGemmSize = 2048;
template <typename T>
using Gemm = dnnl_status_t (*)(char, char, dnnl_dim_t, dnnl_dim_t, dnnl_dim_t, float, const T*,
                               dnnl_dim_t, const T*, dnnl_dim_t, float, float*, dnnl_dim_t);

// A = B^T = the values v(i) = (i % 13) / 13 - 0.5 and (i % 7) / 7 - 0.5 as T (bfloat16 as the
// high half of the float32 bits).
template <typename T>
Step onednn_gemm(const char* symbol) {
  void* library = dlopen("libdnnl.so.2", RTLD_NOW | RTLD_NOLOAD);
  const auto gemm =
      library == nullptr ? nullptr : reinterpret_cast<Gemm<T>>(dlsym(library, symbol));
  if (gemm == nullptr) {
    throw std::runtime_error(std::string("oneDNN's ") + symbol + " is not loaded");
  }
  auto as_t = [](float v) {
    if constexpr (sizeof(T) == 2) {
      uint32_t bits;
      std::memcpy(&bits, &v, sizeof bits);
      return static_cast<T>(bits >> 16);
    } else {
      return v;
    }
  };
  const size_t count = size_t{kGemmSize} * kGemmSize;
  auto a = std::make_shared<std::vector<T>>(count);
  auto b = std::make_shared<std::vector<T>>(count);
  auto c = std::make_shared<std::vector<float>>(count, 0.0f);
  for (size_t i = 0; i < count; ++i) {
    (*a)[i] = as_t(static_cast<float>(i % 13) / 13 - 0.5f);
    (*b)[i] = as_t(static_cast<float>(i % 7) / 7 - 0.5f);
  }
  omp_set_num_threads(thread_count());
  return [gemm, a, b, c, symbol] {
    if (gemm('N', 'N', kGemmSize, kGemmSize, kGemmSize, 1.0f, a->data(), kGemmSize, b->data(),
             kGemmSize, 0.0f, c->data(), kGemmSize) != dnnl_success) {
      throw std::runtime_error(std::string(symbol) + " failed");
    }
  };
}

const char* dtype_suffix(aclDataType dtype) {
  return dtype == ACL_FLOAT ? "f32" : (dtype == ACL_BF16 ? "bf16" : "f16");
}

// PyTorch's side of a case; none for float16, which PyTorch's CPU conv_tbc does not take.
Setup torch_side([[maybe_unused]] bool forward, [[maybe_unused]] const Sizes& s,
                 [[maybe_unused]] aclDataType dtype) {
#ifdef OPENACLNN_BENCH_TORCH
  if (dtype != ACL_FLOAT16) {
    return forward ? Setup([s, dtype] { return torch_forward(s, dtype); })
                   : Setup([s, dtype] { return torch_backward(s, dtype); });
  }
#endif
  return nullptr;
}

bool register_all() {
  const double gemm_flops = 2.0 * kGemmSize * kGemmSize * kGemmSize;
  add_case(compute_bound(
      "ceiling", "onednn_sgemm/" + std::to_string(kGemmSize), gemm_flops,
      [] { return onednn_gemm<float>("dnnl_sgemm"); }, nullptr));
  add_case(compute_bound(
      "ceiling", "onednn_gemm_bf16/" + std::to_string(kGemmSize), gemm_flops,
      [] { return onednn_gemm<uint16_t>("dnnl_gemm_bf16bf16f32"); }, nullptr, true));
  for (const Sizes& s : kCases) {
    const std::string name = s.name;
    std::vector<aclDataType> dtypes = {ACL_FLOAT};
    if (name != "e") {
      dtypes.push_back(ACL_BF16);
    }
    if (name == "a") {
      dtypes.push_back(ACL_FLOAT16);
    }
    for (aclDataType dtype : dtypes) {
      const std::string suffix = name + "/" + dtype_suffix(dtype);
      add_case(compute_bound(
          "conv_tbc", "fwd/" + suffix, product_flops(s) + bias_flops(s),
          [s, dtype] { return ours_forward(s, dtype); }, torch_side(true, s, dtype),
          dtype == ACL_BF16));
      add_case(compute_bound(
          "conv_tbc", "bwd/" + suffix, 2 * product_flops(s) + bias_flops(s),
          [s, dtype] { return ours_backward(s, dtype); }, torch_side(false, s, dtype),
          dtype == ACL_BF16));
    }
  }
  return true;
}

const bool registered = register_all();

}  // namespace
}  // namespace oa::bench
