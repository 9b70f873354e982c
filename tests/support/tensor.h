// The tests' one tensor builder: a view (shape, dtype, format, strides, offset) over storage of its
// own, with guard bytes around it, values read and written per view element as doubles, and the
// question every output test asks: was anything outside the view touched?
#pragma once

#include <cstdint>
#include <memory>
#include <random>
#include <vector>

#include "core/op/spec.h"
#include "test_env.h"

namespace oa_test {

// Bytes per element of a dtype the builder handles (the float, integer, bool and 8-bit float
// types).
int64_t element_bytes(aclDataType dtype);

// v rounded to dtype (NaN and infinities kept where the dtype has them; integers truncated toward
// zero and wrapped as a C cast does).
double round_to(aclDataType dtype, double v);

// Encodes / decodes one element.
void encode(aclDataType dtype, double v, unsigned char* p);
double decode(aclDataType dtype, const unsigned char* p);

// Where a tensor's bytes live: its own device allocation, host memory (for the checks that reject
// it), or another tensor's storage (for the overlap checks).
enum class Memory { device, host };

class TestTensor {
 public:
  // Every storage byte set to `fill`, so that a byte the operator should not write is recognisable.
  // Negative strides reach below spec.offset, which must leave room for them.
  explicit TestTensor(const oa::TensorSpec& spec, Memory memory = Memory::device,
                      unsigned char fill = 0x5A);
  // A view of `spec` over other's storage (its first element where other's is).
  TestTensor(const oa::TensorSpec& spec, TestTensor* other);
  TestTensor(const TestTensor&) = delete;
  TestTensor& operator=(const TestTensor&) = delete;

  aclTensor* get() const { return tensor_ ? tensor_.get() : dangling_; }
  const oa::TensorSpec& spec() const { return spec_; }
  int64_t numel() const;

  // Writes values (one per view element, row-major), each rounded to the dtype.
  void write(const std::vector<double>& values);
  // Writes each element's bits as given (the low bytes of each value: NaN payloads, signaling
  // NaNs).
  void write_bits(const std::vector<uint64_t>& bits);
  // Writes integers exactly (an integer dtype's tensor: indices, class labels).
  void write_ints(const std::vector<int64_t>& values);
  // The view's elements, decoded, row-major.
  std::vector<double> read() const;
  // The view's elements of an integer dtype, exactly (sign-extended for the signed ones).
  std::vector<int64_t> read_ints() const;
  // The view's elements' bits (zero-extended to 64), row-major.
  std::vector<uint64_t> read_bits() const;
  // Whether every storage byte outside the view (guards included) still holds what it held after
  // construction or the last write().
  bool only_view_written() const;
  // Releases the device allocation (the tensor's handle stays, now pointing at freed memory; reads
  // are no longer possible, and only_view_written() is then true).
  void free_memory();
  bool freed() const { return !device_ && !host_; }
  // Destroys the aclTensor (get() keeps returning the dangling handle, for the tests that pass it).
  void destroy_handle();

 private:
  std::vector<int64_t> element_offsets() const;  // of the view's elements, row-major, in elements
  std::vector<unsigned char> storage_bytes() const;
  void upload();  // image_ to the storage

  oa::TensorSpec spec_;
  int64_t bytes_per_element_;
  std::shared_ptr<DeviceBuffer> device_;
  std::shared_ptr<std::vector<unsigned char>> host_;
  unsigned char* base_ = nullptr;  // where element 0 of the storage is (after the front guard)
  size_t storage_size_ = 0;        // bytes of the whole allocation
  size_t front_guard_ = 0;
  std::vector<unsigned char> image_;  // the allocation's bytes as last written
  TensorPtr tensor_{nullptr, aclDestroyTensor};
  aclTensor* dangling_ = nullptr;  // after destroy_handle()
};

// spec with a random memory layout of the same shape: its dims in a random order in memory, with
// gaps between them and an offset; with `expand`, a dim of size > 1 may get stride 0 (an expanded
// input view: every index of it reads one element).
oa::TensorSpec random_layout(oa::TensorSpec spec, std::mt19937_64& rng, bool expand);

// Where a view's elements lie: `order` lists the dims from outermost to innermost in memory
// (empty: row-major); the innermost has stride `inner_stride`, and each outer stride is the extent
// of the dims inside it plus `gap`; `offset` elements precede element 0.
struct Layout {
  std::vector<int> order;
  int64_t inner_stride = 1;
  int64_t gap = 0;
  int64_t offset = 0;
};

// NHWC memory for [N, C, H, W] (and HWC for [C, H, W]).
Layout channels_last(size_t rank);

// spec laid out as `layout` says.
oa::TensorSpec laid_out(oa::TensorSpec spec, const Layout& layout);

// spec contiguous but for dim `dim`, of stride 0: an expanded input view (every index of it reads
// one element).
oa::TensorSpec expanded(oa::TensorSpec spec, size_t dim);

}  // namespace oa_test
