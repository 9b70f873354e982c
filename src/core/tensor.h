// aclTensor (a typed, strided view of device memory) and the questions operators ask about views.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "aclnn/acl_meta.h"
#include "core/shape.h"

struct aclTensor {
  Shape shape;    // view dims
  Shape strides;  // in elements, one per view dim
  Shape storage_shape;
  int64_t offset = 0;  // in elements from data
  aclDataType dtype = ACL_FLOAT;
  aclFormat format = ACL_FORMAT_ND;
  void* data = nullptr;
};

namespace oa {

inline int64_t numel(const aclTensor& tensor) { return numel(tensor.shape); }

// The address of a view's first element: data + offset elements, or data itself for an empty
// view. An empty view is never read, and its offset and strides, which no memory check bounds,
// must stay out of every address a kernel forms (a huge one overflowed).
char* first_element(const aclTensor& tensor);

// The bytes a non-empty view touches: [begin, end) relative to tensor.data. False when the
// arithmetic overflows 64 bits (an absurd view).
struct ByteRange {
  int64_t begin = 0;
  int64_t end = 0;
};
bool byte_range(const aclTensor& tensor, ByteRange* range);

// Whether the whole view (offset, shape, strides, element size) lies inside one live device
// allocation. Empty views touch nothing and always pass. On failure *why explains.
bool view_in_device_memory(const aclTensor& tensor, std::string* why);

// Same pointer, offset, shape, strides and dtype: the exact in-place case.
bool same_view(const aclTensor& a, const aclTensor& b);

// The addresses [begin, end) a view touches; false for an empty view or one whose byte range
// overflows (byte_range), which overlap nothing.
struct AddressRange {
  intptr_t begin = 0;
  intptr_t end = 0;
};
bool address_range(const aclTensor& tensor, AddressRange* range);
inline bool ranges_intersect(const AddressRange& a, const AddressRange& b) {
  return a.begin < b.end && b.begin < a.end;
}

// Whether the byte ranges of two non-empty views intersect. Conservative: two interleaved views
// that share a range but no element (even and odd elements of one buffer) count as overlapping.
bool views_overlap(const aclTensor& a, const aclTensor& b);

// Whether some element of the view is reached by two different indices (a zero stride on a dim of
// size > 1, or strides too small for the dims inside them). Conservative in the same way.
bool view_self_overlaps(const aclTensor& tensor);

}  // namespace oa
