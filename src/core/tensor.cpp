#include "core/tensor.h"

#include <algorithm>
#include <cstdlib>

#include "base/dtype.h"
#include "runtime/error.h"
#include "runtime/memory.h"

namespace oa {

char* first_element(const aclTensor& tensor) {
  char* data = static_cast<char*>(tensor.data);
  return numel(tensor) == 0 ? data : data + tensor.offset * (dtype_bits(tensor.dtype) / 8);
}

bool byte_range(const aclTensor& tensor, ByteRange* range) {
  // Each extent is below 2^126 in magnitude; stopping once an end passes 2^66 elements (more
  // than 2^63 bytes at any element size, 1 bit or more) keeps every sum and product below 2^127.
  constexpr __int128 kLimit = static_cast<__int128>(1) << 66;
  __int128 low = tensor.offset;
  __int128 high = tensor.offset;
  for (size_t i = 0; i < tensor.shape.size(); ++i) {
    __int128 extent = static_cast<__int128>(tensor.strides[i]) * (tensor.shape[i] - 1);
    (extent < 0 ? low : high) += extent;
    if (low < -kLimit || high > kLimit) {
      return false;
    }
  }
  // Floor and ceiling divisions: with a sub-byte dtype and a negative stride, low * bits can be
  // negative and not a multiple of 8, and C++ division truncates toward zero.
  int bits = dtype_bits(tensor.dtype);
  __int128 low_bits = low * bits;
  __int128 end_bits = (high + 1) * bits;
  __int128 begin = low_bits >= 0 ? low_bits / 8 : -((-low_bits + 7) / 8);
  __int128 end = end_bits >= 0 ? (end_bits + 7) / 8 : -(-end_bits / 8);
  if (begin < INT64_MIN || end > INT64_MAX) {
    return false;
  }
  range->begin = static_cast<int64_t>(begin);
  range->end = static_cast<int64_t>(end);
  return true;
}

bool view_in_device_memory(const aclTensor& tensor, std::string* why) {
  if (numel(tensor) == 0) {
    return true;
  }
  ByteRange range;
  if (!byte_range(tensor, &range)) {
    *why = "spans more than 2^63 bytes";
    return false;
  }
  if (tensor.data == nullptr) {
    *why = "has a null data pointer";
    return false;
  }
  const auto* base = static_cast<const unsigned char*>(tensor.data);
  Region region = find_region(base);
  uintptr_t start = reinterpret_cast<uintptr_t>(base) + static_cast<uintptr_t>(range.begin);
  if (region.kind == MemoryKind::device && start < region.base) {
    *why =
        format("reaches %lld bytes before the start of its device allocation (offset %lld)",
               static_cast<long long>(region.base - start), static_cast<long long>(tensor.offset));
    return false;
  }
  if (region.kind != MemoryKind::device || start - region.base >= region.size) {
    region = find_region(reinterpret_cast<const void*>(start));  // the view starts elsewhere
  }
  std::string detail;
  if (!range_in_region(region, reinterpret_cast<const void*>(start),
                       static_cast<size_t>(range.end - range.begin), &detail)) {
    *why = format("needs bytes [%lld, %lld) from its data pointer, which %s",
                  static_cast<long long>(range.begin), static_cast<long long>(range.end),
                  detail.c_str());
    return false;
  }
  return true;
}

bool same_view(const aclTensor& a, const aclTensor& b) {
  return a.data == b.data && a.offset == b.offset && a.shape == b.shape && a.strides == b.strides &&
         a.dtype == b.dtype;
}

bool address_range(const aclTensor& tensor, AddressRange* range) {
  ByteRange bytes;
  if (numel(tensor) == 0 || !byte_range(tensor, &bytes)) {
    return false;
  }
  range->begin = reinterpret_cast<intptr_t>(tensor.data) + bytes.begin;
  range->end = reinterpret_cast<intptr_t>(tensor.data) + bytes.end;
  return true;
}

bool views_overlap(const aclTensor& a, const aclTensor& b) {
  AddressRange ra;
  AddressRange rb;
  return address_range(a, &ra) && address_range(b, &rb) && ranges_intersect(ra, rb);
}

bool view_self_overlaps(const aclTensor& tensor) {
  if (numel(tensor) <= 1) {
    return false;
  }
  // Row-major strides (most outputs) reach each element once; no need to sort.
  int64_t dense = 1;
  bool row_major = true;
  for (size_t i = tensor.shape.size(); i-- > 0 && row_major;) {
    row_major = tensor.shape[i] == 1 || tensor.strides[i] == dense;
    dense *= tensor.shape[i];
  }
  if (row_major) {
    return false;
  }
  std::vector<std::pair<uint64_t, int64_t>> dims;  // (|stride|, size) of dims with size > 1
  for (size_t i = 0; i < tensor.shape.size(); ++i) {
    if (tensor.shape[i] > 1) {
      dims.emplace_back(stride_magnitude(tensor.strides[i]), tensor.shape[i]);
    }
  }
  std::sort(dims.begin(), dims.end());
  // Each stride must step over everything the smaller dims reach.
  __int128 reach = 0;
  for (const auto& [stride, size] : dims) {
    if (stride <= reach) {
      return true;
    }
    reach += static_cast<__int128>(stride) * (size - 1);
  }
  return false;
}

}  // namespace oa
