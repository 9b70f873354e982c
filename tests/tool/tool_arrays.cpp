#include "tool_arrays.h"

#include <stdexcept>

#include "support/tensor.h"

namespace oa::test {

tool::Array make_array(aclDataType dtype, const std::vector<int64_t>& shape,
                       const std::vector<double>& values) {
  tool::Array a;
  a.dtype = dtype;
  a.shape = shape;
  if (static_cast<size_t>(a.numel()) != values.size()) {
    throw std::invalid_argument("make_array: the values do not fill the shape");
  }
  const size_t size = tool::element_size(dtype);
  a.bytes.resize(values.size() * size);
  for (size_t i = 0; i < values.size(); ++i) {
    oa_test::encode(dtype, values[i], a.bytes.data() + i * size);
  }
  return a;
}

std::vector<double> array_values(const tool::Array& a) {
  const size_t size = tool::element_size(a.dtype);
  std::vector<double> values(static_cast<size_t>(a.numel()));
  for (size_t i = 0; i < values.size(); ++i) {
    values[i] = oa_test::decode(a.dtype, a.bytes.data() + i * size);
  }
  return values;
}

}  // namespace oa::test
