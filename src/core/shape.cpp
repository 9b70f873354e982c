#include "core/shape.h"

#include <algorithm>

namespace oa {

std::string shape_string(const Shape& shape) {
  std::string text = "[";
  for (size_t i = 0; i < shape.size(); ++i) {
    text += (i == 0 ? "" : ", ") + std::to_string(shape[i]);
  }
  return text + "]";
}

int64_t numel(const Shape& shape) {
  if (std::find(shape.begin(), shape.end(), 0) != shape.end()) {
    return 0;
  }
  int64_t count = 1;
  for (int64_t dim : shape) {
    if (__builtin_mul_overflow(count, dim, &count)) {
      return INT64_MAX;
    }
  }
  return count;
}

Shape contiguous_strides(const Shape& shape) {
  Shape strides(shape.size(), 1);
  // A stride beyond int64 saturates at INT64_MAX: such a view spans more than 2^63 elements, which
  // the memory checks refuse.
  for (size_t i = shape.size(); i-- > 1;) {
    if (__builtin_mul_overflow(strides[i], std::max<int64_t>(shape[i], 1), &strides[i - 1])) {
      strides[i - 1] = INT64_MAX;
    }
  }
  return strides;
}

bool broadcast_shapes(const Shape& a, const Shape& b, Shape* out) {
  size_t rank = std::max(a.size(), b.size());
  Shape result(rank);
  for (size_t i = 0; i < rank; ++i) {
    int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da != db && da != 1 && db != 1) {
      return false;
    }
    result[i] = da == 1 ? db : da;
  }
  *out = std::move(result);
  return true;
}

}  // namespace oa
