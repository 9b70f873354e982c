#include "call.h"

#include <pybind11/stl.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <vector>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"
#include "base/dtype.h"
#include "core/op/bind.h"
#include "session.h"

namespace oa::python {
namespace {

using TensorPtr = std::unique_ptr<aclTensor, aclnnStatus (*)(const aclTensor*)>;

// One allocation of device memory, freed with the object.
class DeviceMemory {
 public:
  DeviceMemory() = default;
  ~DeviceMemory() {
    if (ptr_ != nullptr) {
      aclrtFree(ptr_);
    }
  }
  DeviceMemory(const DeviceMemory&) = delete;
  DeviceMemory& operator=(const DeviceMemory&) = delete;

  // One byte at least: an empty tensor still needs an address inside device memory.
  std::optional<Failure> allocate(size_t bytes) {
    return failure("aclrtMalloc",
                   aclrtMalloc(&ptr_, std::max<size_t>(bytes, 1), ACL_MEM_MALLOC_HUGE_FIRST));
  }
  unsigned char* get() const { return static_cast<unsigned char*>(ptr_); }

 private:
  void* ptr_ = nullptr;
};

std::optional<Failure> copy(void* dst, const void* src, size_t bytes, aclrtMemcpyKind kind) {
  if (bytes == 0) {
    return std::nullopt;
  }
  return failure(
      kind == ACL_MEMCPY_HOST_TO_DEVICE ? "aclrtMemcpy (to device)" : "aclrtMemcpy (to host)",
      aclrtMemcpy(dst, bytes, src, bytes, kind));
}

int64_t itemsize_of(aclDataType dtype) { return dtype_bits(dtype) / 8; }

// A tensor over device memory at data: the view (shape, strides, offset in elements) inside
// storage_elements elements.
std::optional<Failure> make_tensor(const TensorSpec& view, int64_t storage_elements, void* data,
                                   TensorPtr* tensor) {
  const Shape strides = view.strides.empty() ? contiguous_strides(view.shape) : view.strides;
  const Shape storage = {storage_elements};
  aclTensor* made =
      aclCreateTensor(view.shape.data(), view.shape.size(), view.dtype, strides.data(), view.offset,
                      view.format, storage.data(), storage.size(), data);
  if (made == nullptr) {
    return Failure{"aclCreateTensor", ACLNN_ERR_PARAM_INVALID, aclGetRecentErrMsg()};
  }
  tensor->reset(made);
  return std::nullopt;
}

// Both phases, on the default stream, with a workspace of the size phase 1 asks for. With `impl`
// set, a plan that chose another implementation is not run.
std::optional<Failure> run_phases(const OpDef& def, const std::vector<Arg>& args,
                                  const std::string& impl) {
  uint64_t workspace_size = 0;
  aclOpExecutor* executor = nullptr;
  if (auto failed =
          failure(def.api + "GetWorkspaceSize", plan_op(def, args, &workspace_size, &executor))) {
    return failed;
  }
  if (!impl.empty() && last_chosen_impl() != impl) {
    const std::string chosen = last_chosen_impl();
    aclDestroyAclOpExecutor(executor);
    return Failure{def.api, kImplNotApplied,
                   "implementation '" + impl + "' does not apply to this call ('" + chosen +
                       "' would run; ASCEND_GLOBAL_LOG_LEVEL=0 logs why)"};
  }
  DeviceMemory workspace;
  if (workspace_size > 0) {
    if (auto failed = workspace.allocate(workspace_size)) {
      aclDestroyAclOpExecutor(executor);
      return failed;
    }
  }
  if (auto failed =
          failure(def.api, launch_op(def, workspace.get(), workspace_size, executor, nullptr))) {
    return failed;
  }
  return failure("aclrtSynchronizeStream", aclrtSynchronizeStream(nullptr));
}

// A tensor argument in host memory: a view (element strides, any sign) of an array.
struct HostTensor {
  int param = -1;
  TensorSpec view;               // offset: from `low`, in elements
  unsigned char* low = nullptr;  // the lowest byte the view touches
  size_t bytes = 0;              // of the span from low the view touches; 0 when empty
  bool output = false;
  bool fresh = false;  // an array made for the result: no data to copy in, nothing shares it
};

HostTensor host_tensor(int param, const py::array& array, aclDataType dtype, aclFormat format) {
  const int64_t itemsize = itemsize_of(dtype);
  if (itemsize != static_cast<int64_t>(array.itemsize())) {
    throw py::value_error("an array of " + std::to_string(array.itemsize()) +
                          "-byte elements cannot hold " + dtype_name(dtype));
  }
  HostTensor t;
  t.param = param;
  t.view.dtype = dtype;
  t.view.format = format;
  auto* first = static_cast<unsigned char*>(const_cast<void*>(array.data()));
  int64_t below = 0;  // bytes from low to the first element
  int64_t reach = itemsize;
  bool empty = false;
  for (py::ssize_t d = 0; d < array.ndim(); ++d) {
    const int64_t size = array.shape(d);
    const int64_t stride = array.strides(d);
    if (stride % itemsize != 0) {
      throw py::value_error("array strides must be multiples of the itemsize");
    }
    t.view.shape.push_back(size);
    t.view.strides.push_back(stride / itemsize);
    empty = empty || size == 0;
    if (size > 1 && stride < 0) {
      below += -stride * (size - 1);
    } else if (size > 1) {
      reach += stride * (size - 1);
    }
  }
  t.low = first - below;
  t.view.offset = below / itemsize;
  t.bytes = empty ? 0 : static_cast<size_t>(below + reach);
  return t;
}

// The call's tensors in device memory. Views whose host bytes overlap share one allocation, laid
// out as on the host, so that the library sees the aliasing the caller made (an output over an
// input is an in-place call there too).
class DeviceTensors {
 public:
  std::optional<Failure> place(const std::vector<HostTensor>& hosts) {
    device_low_.assign(hosts.size(), nullptr);
    std::vector<size_t> order;
    for (size_t k = 0; k < hosts.size(); ++k) {
      if (hosts[k].bytes > 0 && !hosts[k].fresh) {
        order.push_back(k);
      } else if (auto failed = own_allocation(hosts[k], k)) {
        return failed;
      }
    }
    std::sort(order.begin(), order.end(),
              [&](size_t a, size_t b) { return hosts[a].low < hosts[b].low; });
    for (size_t start = 0; start < order.size();) {
      unsigned char* low = hosts[order[start]].low;
      unsigned char* high = low + hosts[order[start]].bytes;
      size_t end = start + 1;
      while (end < order.size() && hosts[order[end]].low < high) {
        high = std::max(high, hosts[order[end]].low + hosts[order[end]].bytes);
        ++end;
      }
      memory_.push_back(std::make_unique<DeviceMemory>());
      const size_t bytes = static_cast<size_t>(high - low);
      if (auto failed = memory_.back()->allocate(bytes)) {
        return failed;
      }
      if (auto failed = copy(memory_.back()->get(), low, bytes, ACL_MEMCPY_HOST_TO_DEVICE)) {
        return failed;
      }
      for (size_t k = start; k < end; ++k) {
        device_low_[order[k]] = memory_.back()->get() + (hosts[order[k]].low - low);
      }
      start = end;
    }
    for (size_t k = 0; k < hosts.size(); ++k) {
      const int64_t itemsize = itemsize_of(hosts[k].view.dtype);
      tensors_.emplace_back(nullptr, aclDestroyTensor);
      if (auto failed = make_tensor(hosts[k].view, static_cast<int64_t>(hosts[k].bytes) / itemsize,
                                    device_low_[k], &tensors_.back())) {
        return failed;
      }
    }
    return std::nullopt;
  }

  const aclTensor* tensor(size_t k) const { return tensors_[k].get(); }

  // Each output's span back where it came from.
  std::optional<Failure> copy_back(const std::vector<HostTensor>& hosts) const {
    for (size_t k = 0; k < hosts.size(); ++k) {
      if (hosts[k].output) {
        if (auto failed =
                copy(hosts[k].low, device_low_[k], hosts[k].bytes, ACL_MEMCPY_DEVICE_TO_HOST)) {
          return failed;
        }
      }
    }
    return std::nullopt;
  }

 private:
  std::optional<Failure> own_allocation(const HostTensor& host, size_t k) {
    memory_.push_back(std::make_unique<DeviceMemory>());
    if (auto failed = memory_.back()->allocate(host.bytes)) {
      return failed;
    }
    device_low_[k] = memory_.back()->get();
    if (host.bytes > 0) {
      return failure("aclrtMemset", aclrtMemset(device_low_[k], host.bytes, 0, host.bytes));
    }
    return std::nullopt;
  }

  std::vector<std::unique_ptr<DeviceMemory>> memory_;
  std::vector<unsigned char*> device_low_;
  std::vector<TensorPtr> tensors_;
};

// The value of an attribute as Python gives it (the package has checked its type).
ArgSpec attribute_spec(const Param& p, const py::handle& value) {
  ArgSpec arg;
  if (value.is_none()) {
    arg.null = true;
    return arg;
  }
  switch (p.kind) {
    case ParamKind::integer:
      arg.integer = value.cast<int64_t>();
      break;
    case ParamKind::flag:
      arg.flag = value.cast<bool>();
      arg.integer = arg.flag ? 1 : 0;
      break;
    case ParamKind::real:
      arg.real = value.cast<double>();
      break;
    case ParamKind::int_array:
      arg.ints = value.cast<std::vector<int64_t>>();
      break;
    case ParamKind::bool_array:
      arg.bools = value.cast<std::vector<bool>>();
      break;
    default:
      throw py::type_error(p.name + ": parameters of this kind are not supported");
  }
  return arg;
}

py::object failure_object(const std::optional<Failure>& failed) {
  if (!failed) {
    return py::none();
  }
  return py::make_tuple(failed->api, failed->code, failed->message);
}

// Outputs as def.infer gives them; where it gives none (inputs that do not fit), the first input's
// shape and dtype, so that the operator's own checks say what is wrong.
CallSpec inferred(const OpDef& def, const CallSpec& given) {
  CallSpec spec = given;
  if (def.infer && def.infer(def, &spec)) {
    return spec;
  }
  spec = given;
  for (size_t i = 0; i < def.params.size(); ++i) {
    if (def.params[i].kind == ParamKind::input && !given.args[i].null) {
      for (size_t j = 0; j < def.params.size(); ++j) {
        if (def.params[j].kind == ParamKind::output) {
          spec.args[j].tensor = {given.args[i].tensor.shape, given.args[i].tensor.dtype};
        }
      }
      break;
    }
  }
  return spec;
}

}  // namespace

py::tuple call_operator(const OpDef& def, const py::list& args, const std::string& impl,
                        int threads) {
  if (args.size() != def.params.size()) {
    throw py::value_error(def.api + " takes " + std::to_string(def.params.size()) +
                          " arguments, got " + std::to_string(args.size()));
  }
  CallSpec spec;
  spec.args.resize(def.params.size());
  std::vector<HostTensor> hosts;
  std::vector<int> host_of(def.params.size(), -1);
  for (size_t i = 0; i < def.params.size(); ++i) {
    const Param& p = def.params[i];
    const py::handle value = args[i];
    if (p.kind == ParamKind::input) {
      if (value.is_none()) {
        spec.args[i].null = true;
        continue;
      }
      const py::tuple t = value.cast<py::tuple>();
      host_of[i] = static_cast<int>(hosts.size());
      hosts.push_back(host_tensor(static_cast<int>(i), t[0].cast<py::array>(),
                                  static_cast<aclDataType>(t[1].cast<int>()),
                                  static_cast<aclFormat>(t[2].cast<int>())));
      spec.args[i].tensor = {hosts.back().view.shape, hosts.back().view.dtype,
                             hosts.back().view.format};
      spec.args[i].tensor.strides = hosts.back().view.strides;
    } else if (p.kind != ParamKind::output) {
      spec.args[i] = attribute_spec(p, value);
    }
  }
  const CallSpec outputs = inferred(def, spec);
  py::list results;
  for (size_t i = 0; i < def.params.size(); ++i) {
    if (def.params[i].kind != ParamKind::output) {
      continue;
    }
    const py::tuple t = args[i].cast<py::tuple>();
    const int dtype = t[1].cast<int>();
    const int format = t[2].cast<int>();
    if (!t[0].is_none()) {
      host_of[i] = static_cast<int>(hosts.size());
      hosts.push_back(host_tensor(static_cast<int>(i), t[0].cast<py::array>(),
                                  static_cast<aclDataType>(dtype),
                                  format < 0 ? ACL_FORMAT_ND : static_cast<aclFormat>(format)));
      hosts.back().output = true;
      results.append(py::none());
      continue;
    }
    const ArgSpec& out = outputs.args[i];
    if (out.null) {
      results.append(py::none());
      continue;
    }
    TensorSpec view = {out.tensor.shape, out.tensor.dtype, out.tensor.format};
    if (dtype >= 0) {
      view.dtype = static_cast<aclDataType>(dtype);
    }
    if (format >= 0) {
      view.format = static_cast<aclFormat>(format);
    }
    const int64_t itemsize = itemsize_of(view.dtype);
    if (itemsize == 0) {
      throw py::value_error(def.params[i].name + ": cannot hold " + dtype_name(view.dtype) +
                            " in an array");
    }
    py::array_t<uint8_t> array(numel(view.shape) * itemsize);
    HostTensor host;
    host.param = static_cast<int>(i);
    host.view = view;
    host.low = array.mutable_data();
    host.bytes = static_cast<size_t>(array.size());
    host.output = true;
    host.fresh = true;
    host_of[i] = static_cast<int>(hosts.size());
    hosts.push_back(host);
    results.append(py::make_tuple(array, view.shape, static_cast<int>(view.dtype)));
  }

  std::optional<Failure> failed;
  {
    py::gil_scoped_release release;
    CallScope scope(impl, threads);
    failed = scope.device_failure();
    DeviceTensors device;
    if (!failed) {
      failed = device.place(hosts);
    }
    if (!failed) {
      std::vector<const aclTensor*> tensors(def.params.size(), nullptr);
      for (size_t i = 0; i < def.params.size(); ++i) {
        if (is_tensor(def.params[i].kind) && host_of[i] >= 0) {
          tensors[i] = device.tensor(host_of[i]);
        }
      }
      const CallArgs call_args(def, spec, tensors);
      failed = run_phases(def, call_args.args(), impl);
    }
    if (!failed) {
      failed = device.copy_back(hosts);
    }
  }
  return py::make_tuple(failure_object(failed), results);
}

py::object run_sample(const OpDef& def, size_t index, const py::list& storages,
                      const std::string& impl) {
  if (index >= def.samples.size()) {
    throw py::index_error(def.api + " has " + std::to_string(def.samples.size()) + " samples");
  }
  const CallSpec& spec = def.samples[index];
  const size_t n = def.params.size();
  if (storages.size() != n) {
    throw py::value_error("run_sample takes one storage per parameter");
  }
  std::vector<unsigned char*> host(n, nullptr);
  std::vector<size_t> bytes(n, 0);
  for (size_t i = 0; i < n; ++i) {
    if (!is_tensor(def.params[i].kind) || spec.args[i].null || spec.args[i].alias_of >= 0) {
      continue;
    }
    py::array_t<uint8_t> storage = storages[i].cast<py::array_t<uint8_t>>();
    if (!storage.writeable() || !(storage.flags() & py::array::c_style)) {
      throw py::value_error("storages must be writable C-contiguous uint8 arrays");
    }
    host[i] = storage.mutable_data();
    bytes[i] = static_cast<size_t>(storage.size());
  }
  std::optional<Failure> failed;
  {
    py::gil_scoped_release release;
    CallScope scope(impl, 0);
    failed = scope.device_failure();
    std::vector<std::unique_ptr<DeviceMemory>> memory(n);
    for (size_t i = 0; i < n && !failed; ++i) {
      if (is_tensor(def.params[i].kind) && !spec.args[i].null && spec.args[i].alias_of < 0) {
        memory[i] = std::make_unique<DeviceMemory>();
        failed = memory[i]->allocate(bytes[i]);
        if (!failed) {
          failed = copy(memory[i]->get(), host[i], bytes[i], ACL_MEMCPY_HOST_TO_DEVICE);
        }
      }
    }
    std::vector<TensorPtr> tensors;
    std::vector<const aclTensor*> tensor_of(n, nullptr);
    for (size_t i = 0; i < n && !failed; ++i) {
      const ArgSpec& arg = spec.args[i];
      if (!is_tensor(def.params[i].kind) || arg.null) {
        continue;
      }
      // A view sharing another parameter's storage starts where that one's storage does.
      const size_t owner = arg.alias_of >= 0 ? static_cast<size_t>(arg.alias_of) : i;
      tensors.emplace_back(nullptr, aclDestroyTensor);
      failed = make_tensor(arg.tensor,
                           static_cast<int64_t>(bytes[owner]) / itemsize_of(arg.tensor.dtype),
                           memory[owner]->get(), &tensors.back());
      tensor_of[i] = tensors.back().get();
    }
    const CallArgs call_args(def, spec, tensor_of);
    if (!failed) {
      failed = run_phases(def, call_args.args(), impl);
    }
    for (size_t i = 0; i < n && !failed; ++i) {
      if (memory[i]) {
        failed = copy(host[i], memory[i]->get(), bytes[i], ACL_MEMCPY_DEVICE_TO_HOST);
      }
    }
  }
  return failure_object(failed);
}

}  // namespace oa::python
