// libFuzzer target over every operator definition: from the fuzz input, a definition and one of
// its samples, then changes to the call — tensors of rank 0-9 with dims 0 to huge, negative, zero
// and huge strides and offsets, any dtype and format value (known or not), null, destroyed and
// host-memory handles, views sharing another's memory, attribute values of every range, null
// out-parameters — then phase 1 and, when it succeeds, phase 2, sometimes with an allocation freed
// or a handle destroyed in between, a workspace short or missing, a stream made up, the executor
// made repeatable and launched twice or launched twice without. The library must answer every
// call with a code, never crash, leak or touch memory it should not (AddressSanitizer and
// UndefinedBehaviorSanitizer watch). New operators are fuzzed without any change here.
#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <memory>
#include <vector>

#include "acl/acl.h"
#include "base/dtype.h"
#include "core/op/bind.h"
#include "core/op/definition.h"
#include "device_ready.h"

namespace {

// Phase 2 of calls reading more elements than this is skipped: a broadcast (stride 0) input may
// be huge in elements yet tiny in memory, and the fuzzer wants many executions a second.
constexpr int64_t kMaxRunElements = int64_t{1} << 16;
// Bytes each tensor gets at most: views beyond them are for the library to reject.
constexpr int64_t kMaxTensorBytes = int64_t{1} << 20;

int64_t pick_dim(FuzzedDataProvider& in) {
  constexpr int64_t kDims[] = {0,
                               1,
                               2,
                               3,
                               5,
                               8,
                               17,
                               64,
                               int64_t{1} << 20,
                               int64_t{1} << 33,
                               std::numeric_limits<int64_t>::max() / 2,
                               std::numeric_limits<int64_t>::max()};
  return in.ConsumeBool() ? kDims[in.ConsumeIntegralInRange<size_t>(0, std::size(kDims) - 1)]
                          : in.ConsumeIntegralInRange<int64_t>(-2, 40);
}

int64_t pick_stride(FuzzedDataProvider& in) {
  constexpr int64_t kStrides[] = {0,
                                  1,
                                  -1,
                                  2,
                                  -3,
                                  7,
                                  int64_t{1} << 40,
                                  -(int64_t{1} << 40),
                                  std::numeric_limits<int64_t>::min()};
  return kStrides[in.ConsumeIntegralInRange<size_t>(0, std::size(kStrides) - 1)];
}

double pick_real(FuzzedDataProvider& in) {
  const double kReals[] = {0.0,
                           -0.0,
                           1.0,
                           -1.0,
                           0.5,
                           1e30,
                           -1e30,
                           std::numeric_limits<double>::infinity(),
                           -std::numeric_limits<double>::infinity(),
                           std::nan("")};
  return in.ConsumeBool() ? kReals[in.ConsumeIntegralInRange<size_t>(0, std::size(kReals) - 1)]
                          : in.ConsumeFloatingPoint<double>();
}

// What happens to a call besides its arguments.
struct Faults {
  explicit Faults(size_t params) : destroy(params), free_between(params), destroy_between(params) {}

  std::vector<bool> destroy;          // the tensor's handle is destroyed before phase 1
  std::vector<bool> free_between;     // its memory is freed between the phases
  std::vector<bool> destroy_between;  // its handle is destroyed between the phases
  int workspace = 0;                  // 1: null, 2: one byte short, 3: a host buffer
  bool bad_stream = false;            // phase 2 on a made-up stream
  int launches = 1;                   // 2: twice as planned; 3: twice, made repeatable first
};

void mutate(const oa::OpDef& def, FuzzedDataProvider& in, oa::CallSpec* spec, Faults* faults) {
  const int rounds = in.ConsumeIntegralInRange(0, 6);
  for (int r = 0; r < rounds && in.remaining_bytes() > 0; ++r) {
    const size_t i = in.ConsumeIntegralInRange<size_t>(0, def.params.size() - 1);
    oa::ArgSpec& arg = spec->args[i];
    oa::TensorSpec& t = arg.tensor;
    switch (in.ConsumeIntegralInRange(0, 13)) {
      case 0:
        arg.null = !arg.null;
        break;
      case 1:
        t.dtype = static_cast<aclDataType>(in.ConsumeIntegralInRange(-2, 45));
        break;
      case 2:
        t.format = static_cast<aclFormat>(in.ConsumeIntegralInRange(-2, 56));
        break;
      case 3: {
        t.shape.assign(static_cast<size_t>(in.ConsumeIntegralInRange(0, 9)), 1);
        for (int64_t& dim : t.shape) {
          dim = pick_dim(in);
        }
        t.strides.clear();
        break;
      }
      case 4:
        t.strides.assign(t.shape.size(), 0);
        for (int64_t& stride : t.strides) {
          stride = pick_stride(in);
        }
        break;
      case 5:
        t.offset = in.ConsumeBool() ? in.ConsumeIntegralInRange<int64_t>(-1, 9)
                                    : in.ConsumeIntegral<int64_t>();
        break;
      case 6:
        arg.on_host = !arg.on_host;
        break;
      case 7:
        arg.alias_of = static_cast<int>(in.ConsumeIntegralInRange<size_t>(0, def.params.size()));
        break;
      case 8:
        arg.integer = in.ConsumeBool() ? in.ConsumeIntegralInRange<int64_t>(-3, 9)
                                       : in.ConsumeIntegral<int64_t>();
        break;
      case 9:
        arg.real = pick_real(in);
        break;
      case 10:
        arg.ints.resize(in.ConsumeIntegralInRange<size_t>(0, 7));
        for (int64_t& v : arg.ints) {
          v = pick_dim(in) * (in.ConsumeBool() ? 1 : -1);
        }
        arg.bools.resize(in.ConsumeIntegralInRange<size_t>(0, 5));
        for (size_t k = 0; k < arg.bools.size(); ++k) {
          arg.bools[k] = in.ConsumeBool();
        }
        break;
      case 11:
        faults->destroy[i] = true;
        break;
      case 12:
        faults->free_between[i] = true;
        break;
      default:
        faults->destroy_between[i] = true;
        break;
    }
  }
  // Rare faults; when the input is used up, ConsumeProbability gives 0: none of them.
  const auto rarely = [&in](float p) { return in.ConsumeProbability<float>() > 1 - p; };
  spec->null_workspace_size = rarely(0.02f);
  spec->null_executor = rarely(0.02f);
  faults->workspace = rarely(0.1f) ? in.ConsumeIntegralInRange(1, 3) : 0;
  faults->bad_stream = rarely(0.05f);
  faults->launches = rarely(0.1f) ? in.ConsumeIntegralInRange(2, 3) : 1;
}

// Bytes a view reaches from its data pointer, at most kMaxTensorBytes; 0 for an empty view or
// one aclCreateTensor refuses.
int64_t reach_bytes(const oa::TensorSpec& t, const Shape& strides) {
  if (t.offset < 0 ||
      std::any_of(t.shape.begin(), t.shape.end(), [](int64_t d) { return d <= 0; })) {
    return 0;
  }
  // In elements: each term is below 2^126 and the sum so far at most kMaxTensorBytes, so nothing
  // overflows.
  __int128 reach = static_cast<__int128>(t.offset) + 1;
  for (size_t d = 0; d < t.shape.size() && reach <= kMaxTensorBytes; ++d) {
    const __int128 step = strides[d] < 0 ? -static_cast<__int128>(strides[d]) : strides[d];
    reach += step * (t.shape[d] - 1);
  }
  const int bits = oa::dtype_bits(t.dtype);
  const int64_t elements = static_cast<int64_t>(std::min<__int128>(reach, kMaxTensorBytes));
  return std::min(elements * (bits >= 8 ? bits / 8 : 1), kMaxTensorBytes);
}

struct Tensor {
  void* device = nullptr;
  std::vector<unsigned char> host;
  aclTensor* handle = nullptr;
  bool destroyed = false;
};

// Phase 2 of a planned call, with the faults asked for; destroys the executor when no launch
// consumes it.
void launch(const oa::OpDef& def, aclOpExecutor* executor, uint64_t workspace_size,
            const Faults& faults, std::vector<Tensor>* tensors) {
  void* workspace = nullptr;
  if (workspace_size > 0) {
    aclrtMalloc(&workspace, workspace_size, ACL_MEM_MALLOC_HUGE_FIRST);
  }
  for (size_t i = 0; i < tensors->size(); ++i) {
    Tensor& t = (*tensors)[i];
    if (faults.free_between[i] && t.device != nullptr) {
      aclrtFree(t.device);
      t.device = nullptr;
    }
    if (faults.destroy_between[i] && t.handle != nullptr && !t.destroyed) {
      aclDestroyTensor(t.handle);
      t.destroyed = true;
    }
  }
  unsigned char host[64];
  void* given = faults.workspace == 1 ? nullptr : faults.workspace == 3 ? host : workspace;
  const uint64_t size =
      faults.workspace == 2 && workspace_size > 0 ? workspace_size - 1 : workspace_size;
  void* stream = faults.bad_stream ? static_cast<void*>(host) : nullptr;
  if (faults.launches == 3) {
    aclSetAclOpExecutorRepeatable(executor);
  }
  oa::launch_op(def, given, size, executor, stream);
  if (faults.launches > 1) {
    // Refused for a consumed executor, run again for a repeatable one.
    oa::launch_op(def, given, size, executor, stream);
  }
  if (faults.launches == 3) {
    aclDestroyAclOpExecutor(executor);
  }
  if (workspace != nullptr) {
    aclrtFree(workspace);
  }
}

void run(const oa::OpDef& def, const oa::CallSpec& spec, const Faults& faults) {
  const size_t n = def.params.size();
  std::vector<Tensor> tensors(n);
  std::vector<const aclTensor*> handles(n, nullptr);
  bool small = true;
  for (int pass = 0; pass < 2; ++pass) {
    for (size_t i = 0; i < n; ++i) {
      const oa::ArgSpec& arg = spec.args[i];
      const bool aliased = arg.alias_of >= 0 && static_cast<size_t>(arg.alias_of) < n &&
                           static_cast<size_t>(arg.alias_of) != i &&
                           spec.args[static_cast<size_t>(arg.alias_of)].alias_of < 0;
      if (!oa::is_tensor(def.params[i].kind) || arg.null || aliased != (pass == 1)) {
        continue;
      }
      const oa::TensorSpec& t = arg.tensor;
      const Shape strides =
          t.strides.size() == t.shape.size() ? t.strides : oa::contiguous_strides(t.shape);
      small = small && oa::numel(t.shape) <= kMaxRunElements;
      const int64_t bytes = std::max<int64_t>(reach_bytes(t, strides), 64);
      Tensor& tensor = tensors[i];
      void* data = nullptr;
      if (aliased) {
        const Tensor& owner = tensors[static_cast<size_t>(arg.alias_of)];
        data =
            owner.device != nullptr ? owner.device : const_cast<unsigned char*>(owner.host.data());
      } else if (arg.on_host) {
        tensor.host.assign(static_cast<size_t>(bytes), 0);
        data = tensor.host.data();
      } else if (aclrtMalloc(&tensor.device, static_cast<size_t>(bytes),
                             ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS) {
        aclrtMemset(tensor.device, static_cast<size_t>(bytes), 0, static_cast<size_t>(bytes));
        data = tensor.device;
      }
      const int64_t storage = bytes;
      tensor.handle =
          aclCreateTensor(t.shape.data(), t.shape.size(), t.dtype,
                          t.strides.size() == t.shape.size() ? t.strides.data() : nullptr, t.offset,
                          t.format, &storage, 1, data);
      if (tensor.handle != nullptr && faults.destroy[i]) {
        aclDestroyTensor(tensor.handle);
        tensor.destroyed = true;
      }
      handles[i] = tensor.handle;
    }
  }
  {
    const oa::CallArgs args(def, spec, handles);
    uint64_t workspace_size = 0;
    aclOpExecutor* executor = nullptr;
    const aclnnStatus planned =
        oa::plan_op(def, args.args(), spec.null_workspace_size ? nullptr : &workspace_size,
                    spec.null_executor ? nullptr : &executor);
    if (planned == ACLNN_SUCCESS && small && workspace_size <= (uint64_t{1} << 24)) {
      launch(def, executor, workspace_size, faults, &tensors);
    } else if (planned == ACLNN_SUCCESS) {
      aclDestroyAclOpExecutor(executor);
    }
  }
  for (Tensor& t : tensors) {
    if (t.handle != nullptr && !t.destroyed) {
      aclDestroyTensor(t.handle);
    }
    if (t.device != nullptr) {
      aclrtFree(t.device);
    }
  }
}

// The call in words on stderr, for turning a crashing input into a test: replay the input with
// OPENACLNN_FUZZ_PRINT=1 set.
void describe(const oa::OpDef& def, const oa::CallSpec& spec, const Faults& faults) {
  std::fprintf(stderr, "%s (null workspaceSize %d, null executor %d)\n", def.api.c_str(),
               spec.null_workspace_size, spec.null_executor);
  for (size_t i = 0; i < def.params.size(); ++i) {
    const oa::ArgSpec& arg = spec.args[i];
    const oa::TensorSpec& t = arg.tensor;
    std::fprintf(stderr, "  %s: null %d", def.params[i].name.c_str(), arg.null);
    if (oa::is_tensor(def.params[i].kind)) {
      std::fprintf(stderr,
                   " shape %s %s %s strides %s offset %lld host %d alias_of %d destroy %d "
                   "free_between %d destroy_between %d",
                   oa::shape_string(t.shape).c_str(), oa::dtype_name(t.dtype).c_str(),
                   oa::format_name(t.format).c_str(), oa::shape_string(t.strides).c_str(),
                   static_cast<long long>(t.offset), arg.on_host, arg.alias_of,
                   static_cast<int>(faults.destroy[i]), static_cast<int>(faults.free_between[i]),
                   static_cast<int>(faults.destroy_between[i]));
    } else {
      std::fprintf(stderr, " integer %lld real %g ints %s bools %zu",
                   static_cast<long long>(arg.integer), arg.real,
                   oa::shape_string(arg.ints).c_str(), arg.bools.size());
    }
    std::fprintf(stderr, "\n");
  }
  std::fprintf(stderr, "  workspace fault %d, made-up stream %d, launches %d\n", faults.workspace,
               faults.bad_stream, faults.launches);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::vector<const oa::OpDef*>& defs = oa::definitions();
  if (!oa_fuzz::device_ready() || defs.empty()) {
    return 0;
  }
  FuzzedDataProvider in(data, size);
  const oa::OpDef& def = *defs[in.ConsumeIntegralInRange<size_t>(0, defs.size() - 1)];
  oa::CallSpec spec = def.samples[in.ConsumeIntegralInRange<size_t>(0, def.samples.size() - 1)];
  Faults faults(def.params.size());
  mutate(def, in, &spec, &faults);
  static const bool print = std::getenv("OPENACLNN_FUZZ_PRINT") != nullptr;
  if (print) {
    describe(def, spec, faults);
  }
  run(def, spec, faults);
  return 0;
}
