// The arrays the command-line tool reads and writes: host memory, C order, one dtype.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "acl/acl_base.h"

namespace oa::tool {

// A failure caused by the user's input (arguments, files, a shape an operator rejects). The tool
// prints its message and exits with status 2.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Array {
  aclDataType dtype = ACL_FLOAT;
  std::vector<int64_t> shape;  // empty: a 0-d array of one element
  std::vector<uint8_t> bytes;  // numel() * element_size(dtype)

  int64_t numel() const;
};

// Bytes per element of the dtypes the tool handles (float32, float16, bf16, float64, int8, uint8,
// bool, int32, int64, and the 8-bit floats hif8 and e4m3fn); UsageError for any other.
size_t element_size(aclDataType dtype);

// The tool's dtype names: "float32" (also "f32", "float"), "float16" ("f16", "half"), "bf16"
// ("bfloat16"), "float64" ("f64", "double"), "int8", "uint8", "bool", "int32", "int64", "hif8"
// ("hifloat8"), "e4m3fn" ("float8_e4m3fn"). UsageError naming the accepted names for anything
// else.
aclDataType parse_dtype(const std::string& name);

// The canonical name of dtype in the list above.
std::string dtype_label(aclDataType dtype);

// "[2, 3, 4]"; "[]" for 0-d.
std::string shape_label(const std::vector<int64_t>& shape);

}  // namespace oa::tool
