// Shapes: printing, element counts, contiguous strides and numpy broadcasting.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

using Shape = std::vector<int64_t>;

namespace oa {

// |stride| without overflow (a stride may be INT64_MIN: an empty view's are not bounded by memory).
inline uint64_t stride_magnitude(int64_t stride) {
  return stride < 0 ? uint64_t{0} - static_cast<uint64_t>(stride) : static_cast<uint64_t>(stride);
}

// "[4, 2]"; "[]" for 0-d.
std::string shape_string(const Shape& shape);

// Product of the dims (1 for 0-d, 0 when any dim is 0; saturates at INT64_MAX).
int64_t numel(const Shape& shape);

// Row-major strides of shape.
Shape contiguous_strides(const Shape& shape);

// numpy broadcasting of two shapes (aligned at the last dim; a dim of 1 stretches). False when
// some pair of dims differs and neither is 1.
bool broadcast_shapes(const Shape& a, const Shape& b, Shape* out);

}  // namespace oa
