// What every test file shares. test_env.cpp registers a GoogleTest global environment that calls
// aclInit(nullptr) and aclrtSetDevice(0) before the first test and aclrtResetDevice(0) and
// aclFinalize() after the last, so each test starts with a live device and, on the main thread,
// the default context current. A test that finalizes or resets must restore that state
// (ensure_live_device does). Device memory and streams must not outlive the test that made them:
// tests/runtime finalizes and resets the device, which releases everything live.
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnn/aclnn_base.h"

namespace oa_test {

// One aclrtMalloc allocation of exactly `bytes` bytes, released with aclrtFree on destruction.
class DeviceBuffer {
 public:
  explicit DeviceBuffer(size_t bytes);
  ~DeviceBuffer();
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  void* get() const { return data_; }
  size_t size() const { return size_; }
  template <typename T>
  T* as() const {
    return static_cast<T*>(data_);
  }

  // Copies values to the start of the buffer (host to device).
  template <typename T>
  void write(const std::vector<T>& values) {
    write_bytes(values.data(), values.size() * sizeof(T));
  }
  // The whole buffer, as size() / sizeof(T) values (device to host).
  template <typename T>
  std::vector<T> read() const {
    std::vector<T> values(size_ / sizeof(T));
    read_bytes(values.data(), values.size() * sizeof(T));
    return values;
  }

 private:
  void write_bytes(const void* host, size_t bytes);
  void read_bytes(void* host, size_t bytes) const;

  void* data_ = nullptr;
  size_t size_ = 0;
};

using TensorPtr = std::unique_ptr<aclTensor, aclnnStatus (*)(const aclTensor*)>;

// aclCreateTensor with shape, dtype and data; empty strides mean contiguous (a null stride
// array). The storage shape is the view shape for a contiguous view at offset 0, otherwise one
// dimension holding every element the view reaches. Fails the test when creation fails.
TensorPtr make_tensor(const std::vector<int64_t>& shape, aclDataType dtype, void* data,
                      const std::vector<int64_t>& strides = {}, int64_t offset = 0,
                      aclFormat format = ACL_FORMAT_ND);

// Expects returned == expected and aclGetRecentErrMsg() non-empty and containing every part.
// Failures are reported at the caller's file and line.
void expect_error(int returned, int expected, std::initializer_list<std::string> parts,
                  const char* file = __builtin_FILE(), int line = __builtin_LINE());

// Expects aclGetRecentErrMsg() non-empty and containing every part (for the functions that
// report failure by returning null).
void expect_message(std::initializer_list<std::string> parts, const char* file = __builtin_FILE(),
                    int line = __builtin_LINE());

// Brings the library back to the environment's state (initialized, device 0 set, the default
// context current on this thread) after a test that finalized or reset the device.
void ensure_live_device();

// Sets (or, with nullopt, unsets) an environment variable for its lifetime, then restores it.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, std::optional<std::string> value);
  ~ScopedEnv();
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  std::string name_;
  std::optional<std::string> saved_;
};

}  // namespace oa_test
