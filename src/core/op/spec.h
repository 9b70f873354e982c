// A call described without memory: each parameter's tensor shape, dtype, format and layout, or its
// attribute value. Definitions give samples in this form; the CLI, the Python package and the tests
// build real tensors from it (and the conformance test mutates it to trigger each check alone).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "acl/acl_base.h"
#include "core/shape.h"

namespace oa {

struct TensorSpec {
  TensorSpec() = default;
  TensorSpec(Shape dims, aclDataType type = ACL_FLOAT, aclFormat layout = ACL_FORMAT_ND)
      : shape(std::move(dims)), dtype(type), format(layout) {}

  Shape shape;
  aclDataType dtype = ACL_FLOAT;
  aclFormat format = ACL_FORMAT_ND;
  Shape strides;  // in elements; empty: contiguous
  int64_t offset = 0;
};

// The value of one parameter. Which fields count follows the parameter's kind.
struct ArgSpec {
  bool null = false;  // a null tensor or array (and for an optional one: absent)
  TensorSpec tensor;
  int64_t integer = 0;
  double real = 0;
  bool flag = false;
  std::vector<int64_t> ints;
  std::vector<bool> bools;
  std::vector<double> reals;
  // For the conformance test's memory checks: the tensor lies in host memory, or shares the
  // storage of parameter `alias_of` (its first byte at the same place).
  bool on_host = false;
  int alias_of = -1;
};

struct CallSpec {
  std::vector<ArgSpec> args;  // one per parameter, in the definition's order
  bool null_workspace_size = false;
  bool null_executor = false;
};

}  // namespace oa
