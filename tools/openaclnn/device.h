// The tool's use of the public runtime API: a device session, and arrays moved to and from device
// memory as contiguous aclTensors of a given format.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnn/aclnn_base.h"
#include "array.h"

namespace oa::tool {

// aclInit, device 0 and a stream for the lifetime of the object.
class DeviceSession {
 public:
  DeviceSession();
  ~DeviceSession();
  DeviceSession(const DeviceSession&) = delete;
  DeviceSession& operator=(const DeviceSession&) = delete;

  aclrtStream stream() const { return stream_; }

  // Runs phase 2 of an operator with a workspace of workspace_size bytes and waits for it. api
  // names the function for error messages.
  void launch(
      const std::string& api, uint64_t workspace_size, aclOpExecutor* executor,
      const std::function<aclnnStatus(void*, uint64_t, aclOpExecutor*, aclrtStream)>& phase2);

 private:
  aclrtStream stream_ = nullptr;
};

// Device tensors owned together; freed when the object goes.
class DeviceTensors {
 public:
  DeviceTensors() = default;
  ~DeviceTensors();
  DeviceTensors(const DeviceTensors&) = delete;
  DeviceTensors& operator=(const DeviceTensors&) = delete;

  // A contiguous tensor of that format holding a copy of array.
  aclTensor* upload(const Array& array, aclFormat format);
  // A contiguous tensor of that dtype, shape and format, filled with zeros.
  aclTensor* allocate(aclDataType dtype, const std::vector<int64_t>& shape, aclFormat format);
  // The contents of a tensor made by upload() or allocate().
  Array download(const aclTensor* tensor) const;

 private:
  struct Entry {
    aclTensor* tensor;
    void* memory;
    size_t bytes;  // of memory
    Array layout;  // dtype and shape; bytes unused
  };
  // A contiguous tensor in fresh device memory, contents unset.
  Entry& make(aclDataType dtype, const std::vector<int64_t>& shape, aclFormat format);
  const Entry& entry(const aclTensor* tensor) const;

  std::vector<Entry> entries_;
};

// Throws UsageError "<api> failed with <code>: <aclGetRecentErrMsg()>" unless status is 0.
void check_status(const std::string& api, int status);

}  // namespace oa::tool
