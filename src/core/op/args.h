// The values a GetWorkspaceSize entry point received, one per parameter of its definition, in the
// prototype's order. An entry point passes its arguments as they are: {gradOutput, self, reduction,
// beta, gradInput}; each converts to an Arg by its C type.
#pragma once

#include <cstdint>

#include "aclnn/acl_meta.h"

namespace oa {

class Arg {
 public:
  Arg(const aclTensor* tensor) : handle_(tensor) {}
  Arg(const aclIntArray* array) : handle_(array) {}
  Arg(const aclScalar* scalar) : handle_(scalar) {}
  // Other handle types (bool and float arrays, tensor lists) pass as their pointer.
  Arg(const void* handle) : handle_(handle) {}
  Arg(int64_t value) : integer_(value) {}
  Arg(int32_t value) : integer_(value) {}
  Arg(int8_t value) : integer_(value) {}
  Arg(double value) : real_(value) {}
  Arg(float value) : real_(value) {}
  Arg(bool value) : integer_(value ? 1 : 0) {}

  const void* handle() const { return handle_; }
  int64_t integer() const { return integer_; }
  double real() const { return real_; }

 private:
  const void* handle_ = nullptr;
  int64_t integer_ = 0;
  double real_ = 0;
};

}  // namespace oa
