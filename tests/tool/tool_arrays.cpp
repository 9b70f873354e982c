#include "tool_arrays.h"

#include <cstring>
#include <stdexcept>

#include "core/float_convert.h"

namespace oa::test {
namespace {

template <typename T>
void put(tool::Array& a, size_t i, T value) {
  std::memcpy(a.bytes.data() + i * sizeof(T), &value, sizeof(T));
}

template <typename T>
T get(const tool::Array& a, size_t i) {
  T value;
  std::memcpy(&value, a.bytes.data() + i * sizeof(T), sizeof(T));
  return value;
}

}  // namespace

tool::Array make_array(aclDataType dtype, const std::vector<int64_t>& shape,
                       const std::vector<double>& values) {
  tool::Array a;
  a.dtype = dtype;
  a.shape = shape;
  if (static_cast<size_t>(a.numel()) != values.size()) {
    throw std::invalid_argument("make_array: the values do not fill the shape");
  }
  a.bytes.resize(values.size() * tool::element_size(dtype));
  for (size_t i = 0; i < values.size(); ++i) {
    const auto f = static_cast<float>(values[i]);
    switch (dtype) {
      case ACL_FLOAT:
        put(a, i, f);
        break;
      case ACL_FLOAT16:
        put(a, i, float_to_half(f));
        break;
      case ACL_BF16:
        put(a, i, float_to_bf16(f));
        break;
      case ACL_INT32:
        put(a, i, static_cast<int32_t>(values[i]));
        break;
      case ACL_INT64:
        put(a, i, static_cast<int64_t>(values[i]));
        break;
      default:
        throw std::invalid_argument("make_array: unsupported dtype");
    }
  }
  return a;
}

std::vector<double> array_values(const tool::Array& a) {
  std::vector<double> values(static_cast<size_t>(a.numel()));
  for (size_t i = 0; i < values.size(); ++i) {
    switch (a.dtype) {
      case ACL_FLOAT:
        values[i] = get<float>(a, i);
        break;
      case ACL_FLOAT16:
        values[i] = half_to_float(get<uint16_t>(a, i));
        break;
      case ACL_BF16:
        values[i] = bf16_to_float(get<uint16_t>(a, i));
        break;
      case ACL_INT32:
        values[i] = get<int32_t>(a, i);
        break;
      case ACL_INT64:
        values[i] = static_cast<double>(get<int64_t>(a, i));
        break;
      case ACL_HIFLOAT8:
        values[i] = hif8_to_float(get<uint8_t>(a, i));
        break;
      case ACL_FLOAT8_E4M3FN:
        values[i] = e4m3fn_to_float(get<uint8_t>(a, i));
        break;
      default:
        throw std::invalid_argument("array_values: unsupported dtype");
    }
  }
  return values;
}

}  // namespace oa::test
