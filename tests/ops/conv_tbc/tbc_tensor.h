// Device tensors for the ConvTbc tests: any dtype the operators take, laid out contiguously or as a
// non-contiguous view (dims permuted in memory, gaps between rows, an offset, or, for inputs, a
// zero stride), with their values kept on the host as float64.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "base/float_convert.h"
#include "test_env.h"

namespace tbc_test {

using oa_test::DeviceBuffer;
using oa_test::TensorPtr;

enum class Layout {
  contiguous,
  permuted,   // dims in a random memory order, rows padded with gaps, a non-zero offset
  broadcast,  // an input whose first dim has stride 0 (every index reads the same values)
};

inline int64_t element_bytes(aclDataType dtype) {
  switch (dtype) {
    case ACL_FLOAT:
      return 4;
    case ACL_FLOAT16:
    case ACL_BF16:
      return 2;
    default:
      return 1;
  }
}

// The value of one stored element.
inline double decode(aclDataType dtype, const unsigned char* p) {
  uint16_t bits16;
  switch (dtype) {
    case ACL_FLOAT: {
      float f;
      std::memcpy(&f, p, 4);
      return f;
    }
    case ACL_FLOAT16:
      std::memcpy(&bits16, p, 2);
      return oa::half_to_float(bits16);
    case ACL_BF16:
      std::memcpy(&bits16, p, 2);
      return oa::bf16_to_float(bits16);
    case ACL_HIFLOAT8:
      return oa::hif8_to_float(*p);
    default:
      return oa::e4m3fn_to_float(*p);
  }
}

// Stores v (already representable in dtype, or rounded by the core's conversion).
inline void encode(aclDataType dtype, double v, unsigned char* p) {
  const auto f = static_cast<float>(v);
  uint16_t bits16;
  switch (dtype) {
    case ACL_FLOAT:
      std::memcpy(p, &f, 4);
      break;
    case ACL_FLOAT16:
      bits16 = oa::float_to_half(f);
      std::memcpy(p, &bits16, 2);
      break;
    case ACL_BF16:
      bits16 = oa::float_to_bf16(f);
      std::memcpy(p, &bits16, 2);
      break;
    case ACL_HIFLOAT8:
      *p = oa::float_to_hif8(f);
      break;
    default:
      *p = oa::float_to_e4m3fn(f);
      break;
  }
}

// The value dtype stores for v: the rounding of the core's conversions (monotone in v).
inline double round_to(aclDataType dtype, double v) {
  unsigned char bytes[4];
  encode(dtype, v, bytes);
  return decode(dtype, bytes);
}

class TestTensor {
 public:
  // A tensor of `shape` in `layout`, every storage byte set to `fill` (so that an output element
  // the operator does not write keeps a recognisable pattern).
  TestTensor(std::vector<int64_t> shape, aclDataType dtype, Layout layout, std::mt19937* rng,
             unsigned char fill = 0xFF, aclFormat format = ACL_FORMAT_ND)
      : shape_(std::move(shape)), dtype_(dtype) {
    const size_t rank = shape_.size();
    strides_.assign(rank, 0);
    std::vector<size_t> order(rank);
    std::iota(order.begin(), order.end(), 0);  // order[0] is the outermost dim in memory
    int64_t gap = 0;
    if (layout == Layout::permuted) {
      std::shuffle(order.begin(), order.end(), *rng);
      gap = 1 + static_cast<int64_t>((*rng)() % 3);
      offset_ = 1 + static_cast<int64_t>((*rng)() % 5);
    }
    int64_t step = 1;
    for (size_t j = rank; j-- > 0;) {
      const size_t dim = order[j];
      strides_[dim] = step;
      step *= shape_[dim] + (j + 1 < rank ? gap : 0);
      step = std::max<int64_t>(step, 1);
    }
    if (layout == Layout::broadcast && rank > 0) {
      strides_[0] = 0;
    }
    int64_t reach = offset_ + 1;
    for (size_t i = 0; i < rank; ++i) {
      reach += shape_[i] > 0 ? strides_[i] * (shape_[i] - 1) : 0;
    }
    storage_bytes_ = static_cast<size_t>(reach * element_bytes(dtype_));
    buffer_ = std::make_unique<DeviceBuffer>(storage_bytes_);
    host_.assign(storage_bytes_, fill);
    values_.assign(static_cast<size_t>(count()), 0.0);
    tensor_ = oa_test::make_tensor(shape_, dtype_, buffer_->get(), strides_, offset_, format);
    buffer_->write(host_);
  }

  const aclTensor* get() const { return tensor_.get(); }
  aclTensor* get() { return tensor_.get(); }
  aclDataType dtype() const { return dtype_; }
  const std::vector<int64_t>& shape() const { return shape_; }
  int64_t count() const {
    int64_t n = 1;
    for (int64_t d : shape_) {
      n *= d;
    }
    return n;
  }

  // Row-major logical values: what set() stored (rounded to the dtype) or read() found.
  const std::vector<double>& values() const { return values_; }
  // The storage bytes as of the last set() or read().
  const std::vector<unsigned char>& bytes() const { return host_; }

  // Stores f(i) at every logical index i (rounded to the dtype), then uploads. With a zero stride
  // several logical indices share one element: the last one written wins, and values() reflects it.
  template <typename F>
  void set(const F& f) {
    for (int64_t i = 0; i < count(); ++i) {
      encode(dtype_, f(i), element(i));
    }
    for (int64_t i = 0; i < count(); ++i) {
      values_[static_cast<size_t>(i)] = decode(dtype_, element(i));
    }
    buffer_->write(host_);
  }

  // Downloads; values() then holds the view's elements. Returns whether every storage byte outside
  // the view still holds `fill`.
  bool read(unsigned char fill = 0xFF) {
    host_ = buffer_->read<unsigned char>();
    for (int64_t i = 0; i < count(); ++i) {
      values_[static_cast<size_t>(i)] = decode(dtype_, element(i));
    }
    std::vector<bool> in_view(storage_bytes_, false);
    for (int64_t i = 0; i < count(); ++i) {
      const auto at = static_cast<size_t>(element(i) - host_.data());
      for (int64_t byte = 0; byte < element_bytes(dtype_); ++byte) {
        in_view[at + static_cast<size_t>(byte)] = true;
      }
    }
    for (size_t byte = 0; byte < storage_bytes_; ++byte) {
      if (!in_view[byte] && host_[byte] != fill) {
        return false;
      }
    }
    return true;
  }

 private:
  unsigned char* element(int64_t index) {
    int64_t at = offset_;
    for (size_t i = shape_.size(); i-- > 0;) {
      at += (index % shape_[i]) * strides_[i];
      index /= shape_[i];
    }
    return host_.data() + at * element_bytes(dtype_);
  }

  std::vector<int64_t> shape_;
  aclDataType dtype_;
  std::vector<int64_t> strides_;
  int64_t offset_ = 0;
  size_t storage_bytes_ = 0;
  std::unique_ptr<DeviceBuffer> buffer_;
  std::vector<unsigned char> host_;
  std::vector<double> values_;
  TensorPtr tensor_{nullptr, aclDestroyTensor};
};

}  // namespace tbc_test
