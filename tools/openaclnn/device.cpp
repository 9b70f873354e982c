#include "device.h"

#include <algorithm>
#include <stdexcept>

namespace oa::tool {

void check_status(const std::string& api, int status) {
  if (status != 0) {
    throw UsageError(api + " failed with " + std::to_string(status) + ": " + aclGetRecentErrMsg());
  }
}

DeviceSession::DeviceSession() {
  check_status("aclInit", aclInit(nullptr));
  check_status("aclrtSetDevice", aclrtSetDevice(0));
  check_status("aclrtCreateStream", aclrtCreateStream(&stream_));
}

DeviceSession::~DeviceSession() {
  aclrtDestroyStream(stream_);
  aclrtResetDevice(0);
  aclFinalize();
}

void DeviceSession::launch(
    const std::string& api, uint64_t workspace_size, aclOpExecutor* executor,
    const std::function<aclnnStatus(void*, uint64_t, aclOpExecutor*, aclrtStream)>& phase2) {
  void* workspace = nullptr;
  if (workspace_size > 0) {
    check_status("aclrtMalloc (workspace)",
                 aclrtMalloc(&workspace, workspace_size, ACL_MEM_MALLOC_HUGE_FIRST));
  }
  const int status = phase2(workspace, workspace_size, executor, stream_);
  const int synced = status == 0 ? aclrtSynchronizeStream(stream_) : 0;
  if (workspace != nullptr) {
    aclrtFree(workspace);
  }
  check_status(api, status);
  check_status("aclrtSynchronizeStream", synced);
}

DeviceTensors::~DeviceTensors() {
  for (const Entry& e : entries_) {
    aclDestroyTensor(e.tensor);
    aclrtFree(e.memory);
  }
}

DeviceTensors::Entry& DeviceTensors::make(aclDataType dtype, const std::vector<int64_t>& shape,
                                          aclFormat format) {
  Array layout;
  layout.dtype = dtype;
  layout.shape = shape;
  // One byte at least: an empty tensor still needs an address inside device memory.
  const size_t bytes =
      std::max<size_t>(static_cast<size_t>(layout.numel()) * element_size(dtype), 1);
  void* memory = nullptr;
  check_status("aclrtMalloc", aclrtMalloc(&memory, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  std::vector<int64_t> strides(shape.size(), 1);
  for (size_t i = shape.size(); i-- > 1;) {
    strides[i - 1] = strides[i] * std::max<int64_t>(shape[i], 1);
  }
  aclTensor* tensor = aclCreateTensor(shape.data(), shape.size(), dtype, strides.data(), 0, format,
                                      shape.data(), shape.size(), memory);
  if (tensor == nullptr) {
    const std::string message = aclGetRecentErrMsg();
    aclrtFree(memory);
    throw UsageError("cannot create a " + dtype_label(dtype) + " tensor of shape " +
                     shape_label(shape) + ": " + message);
  }
  entries_.push_back({tensor, memory, bytes, std::move(layout)});
  return entries_.back();
}

aclTensor* DeviceTensors::allocate(aclDataType dtype, const std::vector<int64_t>& shape,
                                   aclFormat format) {
  const Entry& e = make(dtype, shape, format);
  check_status("aclrtMemset", aclrtMemset(e.memory, e.bytes, 0, e.bytes));
  return e.tensor;
}

aclTensor* DeviceTensors::upload(const Array& array, aclFormat format) {
  const Entry& e = make(array.dtype, array.shape, format);
  if (!array.bytes.empty()) {
    check_status("aclrtMemcpy (to device)",
                 aclrtMemcpy(e.memory, e.bytes, array.bytes.data(), array.bytes.size(),
                             ACL_MEMCPY_HOST_TO_DEVICE));
  }
  return e.tensor;
}

const DeviceTensors::Entry& DeviceTensors::entry(const aclTensor* tensor) const {
  const auto found = std::find_if(entries_.begin(), entries_.end(),
                                  [tensor](const Entry& e) { return e.tensor == tensor; });
  if (found == entries_.end()) {
    throw std::logic_error("DeviceTensors::download: the tensor is not one of this set's");
  }
  return *found;
}

Array DeviceTensors::download(const aclTensor* tensor) const {
  const Entry& e = entry(tensor);
  Array array = e.layout;
  array.bytes.resize(static_cast<size_t>(array.numel()) * element_size(array.dtype));
  if (!array.bytes.empty()) {
    check_status("aclrtMemcpy (to host)",
                 aclrtMemcpy(array.bytes.data(), array.bytes.size(), e.memory, array.bytes.size(),
                             ACL_MEMCPY_DEVICE_TO_HOST));
  }
  return array;
}

}  // namespace oa::tool
