#include "array.h"

#include <cctype>
#include <cstddef>

#include "base/dtype.h"

namespace oa::tool {
namespace {

struct DtypeName {
  const char* name;
  aclDataType dtype;
};

// The first name of each dtype is its canonical label.
constexpr DtypeName kNames[] = {
    {"float32", ACL_FLOAT},
    {"f32", ACL_FLOAT},
    {"float", ACL_FLOAT},
    {"float16", ACL_FLOAT16},
    {"f16", ACL_FLOAT16},
    {"half", ACL_FLOAT16},
    {"bf16", ACL_BF16},
    {"bfloat16", ACL_BF16},
    {"float64", ACL_DOUBLE},
    {"f64", ACL_DOUBLE},
    {"double", ACL_DOUBLE},
    {"int8", ACL_INT8},
    {"uint8", ACL_UINT8},
    {"bool", ACL_BOOL},
    {"int32", ACL_INT32},
    {"int64", ACL_INT64},
    {"hif8", ACL_HIFLOAT8},
    {"hifloat8", ACL_HIFLOAT8},
    {"e4m3fn", ACL_FLOAT8_E4M3FN},
    {"float8_e4m3fn", ACL_FLOAT8_E4M3FN},
};

}  // namespace

int64_t Array::numel() const {
  int64_t count = 1;
  for (int64_t dim : shape) {
    count *= dim;
  }
  return count;
}

size_t element_size(aclDataType dtype) {
  for (const DtypeName& entry : kNames) {
    if (entry.dtype == dtype) {
      return static_cast<size_t>(oa::dtype_bits(dtype) / 8);
    }
  }
  throw UsageError("the tool does not handle dtype " + oa::dtype_name(dtype));
}

aclDataType parse_dtype(const std::string& name) {
  // Case-insensitive, so that CANN's spellings (FLOAT, BF16, HIFLOAT8, ...) work too.
  std::string lower;
  for (const char ch : name) {
    lower += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  }
  for (const DtypeName& entry : kNames) {
    if (lower == entry.name) {
      return entry.dtype;
    }
  }
  std::string accepted;
  for (const DtypeName& entry : kNames) {
    accepted += accepted.empty() ? "" : ", ";
    accepted += entry.name;
  }
  throw UsageError("unknown dtype '" + name + "' (accepted: " + accepted + ")");
}

std::string dtype_label(aclDataType dtype) {
  for (const DtypeName& entry : kNames) {
    if (entry.dtype == dtype) {
      return entry.name;
    }
  }
  return oa::dtype_name(dtype);
}

std::string shape_label(const std::vector<int64_t>& shape) {
  std::string text = "[";
  for (size_t i = 0; i < shape.size(); ++i) {
    text += (i == 0 ? "" : ", ") + std::to_string(shape[i]);
  }
  return text + "]";
}

}  // namespace oa::tool
