// Test tensors for the adaptive max pooling tests: device tensors in any memory layout (permuted,
// padded, offset, strided), written and read as logical row-major values, with every byte of
// their allocation outside the view kept at a known pattern so that a test can see a stray write.
// Also the two-phase calls of both operators.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <numeric>
#include <vector>

#include "aclnnop/aclnn_adaptive_max_pool2d.h"
#include "aclnnop/aclnn_adaptive_max_pool2d_backward.h"
#include "base/float_convert.h"
#include "test_env.h"

namespace amp_test {

// Where a tensor's elements lie: `order` lists the dims from outermost to innermost in memory
// (empty: row-major); the innermost has stride `inner_stride`, and each outer stride is the extent
// of the dims inside it plus `gap`; `offset` elements precede element 0.
struct Layout {
  std::vector<int> order;
  int64_t inner_stride = 1;
  int64_t gap = 0;
  int64_t offset = 0;
};

// NHWC memory for [N, C, H, W] (and HWC for [C, H, W]).
inline Layout channels_last(size_t rank) {
  return rank == 4 ? Layout{{0, 2, 3, 1}} : Layout{{1, 2, 0}};
}

constexpr unsigned char kPattern = 0x5A;
constexpr int64_t kGuardElements = 16;  // after the last element the view reaches

inline int64_t element_bytes(aclDataType dtype) {
  switch (dtype) {
    case ACL_FLOAT16:
    case ACL_BF16:
      return 2;
    case ACL_INT64:
    case ACL_DOUBLE:
      return 8;
    default:
      return 4;
  }
}

class PoolTensor {
 public:
  PoolTensor(std::vector<int64_t> shape, aclDataType dtype, const Layout& layout = {},
             aclFormat format = ACL_FORMAT_ND)
      : shape_(std::move(shape)), dtype_(dtype), bytes_(element_bytes(dtype)) {
    const size_t rank = shape_.size();
    std::vector<int> order = layout.order;
    if (order.empty()) {
      order.resize(rank);
      std::iota(order.begin(), order.end(), 0);
    }
    strides_.assign(rank, 0);
    int64_t stride = layout.inner_stride;
    int64_t extent = 1;
    for (size_t k = rank; k-- > 0;) {
      strides_[order[k]] = stride;
      extent = stride * std::max<int64_t>(shape_[order[k]], 1);
      stride = extent + layout.gap;
    }
    offset_ = layout.offset;
    int64_t reach = 0;
    for (size_t d = 0; d < rank; ++d) {
      reach += strides_[d] * std::max<int64_t>(shape_[d] - 1, 0);
    }
    elements_ = offset_ + reach + 1 + kGuardElements;
    image_.assign(elements_ * bytes_, kPattern);
    buffer_ = std::make_unique<oa_test::DeviceBuffer>(image_.size());
    buffer_->write(image_);
    tensor_ = oa_test::make_tensor(shape_, dtype_, buffer_->get(), strides_, offset_, format);
  }

  aclTensor* get() const { return tensor_.get(); }
  const std::vector<int64_t>& shape() const { return shape_; }
  const std::vector<int64_t>& strides() const { return strides_; }
  int64_t numel() const {
    return std::accumulate(shape_.begin(), shape_.end(), int64_t{1}, std::multiplies<>());
  }

  // Logical row-major values, converted to the dtype (rounded to nearest-even for 16-bit types).
  void write(const std::vector<double>& values) {
    ASSERT_EQ(static_cast<int64_t>(values.size()), numel());
    const std::vector<int64_t> where = storage_offsets();
    for (size_t k = 0; k < where.size(); ++k) {
      encode(values[k], &image_[where[k] * bytes_]);
    }
    buffer_->write(image_);
  }
  void write_ints(const std::vector<int64_t>& values) {
    ASSERT_EQ(static_cast<int64_t>(values.size()), numel());
    const std::vector<int64_t> where = storage_offsets();
    for (size_t k = 0; k < where.size(); ++k) {
      unsigned char* p = &image_[where[k] * bytes_];
      if (dtype_ == ACL_INT32) {
        const auto v = static_cast<int32_t>(values[k]);
        std::memcpy(p, &v, sizeof(v));
      } else {
        std::memcpy(p, &values[k], sizeof(values[k]));
      }
    }
    buffer_->write(image_);
  }

  std::vector<double> read() const {
    const std::vector<unsigned char> now = buffer_->read<unsigned char>();
    std::vector<double> values;
    values.reserve(numel());
    for (int64_t where : storage_offsets()) {
      values.push_back(decode(&now[where * bytes_]));
    }
    return values;
  }
  std::vector<int64_t> read_ints() const {
    const std::vector<unsigned char> now = buffer_->read<unsigned char>();
    std::vector<int64_t> values;
    values.reserve(numel());
    for (int64_t where : storage_offsets()) {
      int64_t v = 0;
      if (dtype_ == ACL_INT32) {
        int32_t narrow = 0;
        std::memcpy(&narrow, &now[where * bytes_], sizeof(narrow));
        v = narrow;
      } else {
        std::memcpy(&v, &now[where * bytes_], sizeof(v));
      }
      values.push_back(v);
    }
    return values;
  }
  // The raw bits of each element, row-major (for bitwise comparisons).
  std::vector<uint64_t> read_bits() const {
    const std::vector<unsigned char> now = buffer_->read<unsigned char>();
    std::vector<uint64_t> bits;
    bits.reserve(numel());
    for (int64_t where : storage_offsets()) {
      uint64_t b = 0;
      std::memcpy(&b, &now[where * bytes_], bytes_);
      bits.push_back(b);
    }
    return bits;
  }

  // Every byte of the allocation, as it is now.
  std::vector<unsigned char> raw() const { return buffer_->read<unsigned char>(); }
  // Sets every byte of the allocation to kPattern on the device (quick for large tensors): the
  // view's elements then hold that pattern instead of what write() wrote.
  void poison() {
    ASSERT_EQ(aclrtMemset(buffer_->get(), image_.size(), kPattern, image_.size()), ACL_SUCCESS)
        << aclGetRecentErrMsg();
  }

  // Whether every byte of the allocation that is not an element of the view is as it was.
  bool only_view_written() const {
    std::vector<unsigned char> now = buffer_->read<unsigned char>();
    for (int64_t where : storage_offsets()) {
      std::memcpy(&now[where * bytes_], &image_[where * bytes_], bytes_);
    }
    return now == image_;
  }

 private:
  // Storage element of each logical element, row-major.
  std::vector<int64_t> storage_offsets() const {
    std::vector<int64_t> where;
    const int64_t count = numel();
    where.reserve(count);
    std::vector<int64_t> index(shape_.size(), 0);
    for (int64_t k = 0; k < count; ++k) {
      int64_t at = offset_;
      for (size_t d = 0; d < shape_.size(); ++d) {
        at += index[d] * strides_[d];
      }
      where.push_back(at);
      for (size_t d = shape_.size(); d-- > 0;) {
        if (++index[d] < shape_[d]) {
          break;
        }
        index[d] = 0;
      }
    }
    return where;
  }

  void encode(double value, unsigned char* p) const {
    if (dtype_ == ACL_DOUBLE) {
      std::memcpy(p, &value, sizeof(value));
      return;
    }
    const auto f = static_cast<float>(value);
    if (dtype_ == ACL_FLOAT) {
      std::memcpy(p, &f, sizeof(f));
    } else {
      const uint16_t bits = dtype_ == ACL_FLOAT16 ? oa::float_to_half(f) : oa::float_to_bf16(f);
      std::memcpy(p, &bits, sizeof(bits));
    }
  }

  double decode(const unsigned char* p) const {
    if (dtype_ == ACL_DOUBLE) {
      double d = 0;
      std::memcpy(&d, p, sizeof(d));
      return d;
    }
    if (dtype_ == ACL_FLOAT) {
      float f = 0;
      std::memcpy(&f, p, sizeof(f));
      return f;
    }
    uint16_t bits = 0;
    std::memcpy(&bits, p, sizeof(bits));
    return dtype_ == ACL_FLOAT16 ? oa::half_to_float(bits) : oa::bf16_to_float(bits);
  }

  std::vector<int64_t> shape_;
  aclDataType dtype_;
  int64_t bytes_;
  std::vector<int64_t> strides_;
  int64_t offset_ = 0;
  int64_t elements_ = 0;
  std::vector<unsigned char> image_;  // what the allocation held when last written
  std::unique_ptr<oa_test::DeviceBuffer> buffer_;
  oa_test::TensorPtr tensor_{nullptr, aclDestroyTensor};
};

// Both phases of aclnnAdaptiveMaxPool2d; returns the first failing status.
inline aclnnStatus run_forward(const aclTensor* self, std::vector<int64_t> output_size,
                               const aclTensor* out, const aclTensor* indices) {
  aclIntArray* size = aclCreateIntArray(output_size.data(), output_size.size());
  uint64_t workspace_size = 0;
  aclOpExecutor* executor = nullptr;
  aclnnStatus status =
      aclnnAdaptiveMaxPool2dGetWorkspaceSize(self, size, out, indices, &workspace_size, &executor);
  aclDestroyIntArray(size);
  if (status != ACLNN_SUCCESS) {
    return status;
  }
  std::unique_ptr<oa_test::DeviceBuffer> workspace;
  if (workspace_size > 0) {
    workspace = std::make_unique<oa_test::DeviceBuffer>(workspace_size);
  }
  return aclnnAdaptiveMaxPool2d(workspace ? workspace->get() : nullptr, workspace_size, executor,
                                nullptr);
}

// Both phases of aclnnAdaptiveMaxPool2dBackward; returns the first failing status.
inline aclnnStatus run_backward(const aclTensor* grad_output, const aclTensor* self,
                                const aclTensor* indices, aclTensor* grad_input) {
  uint64_t workspace_size = 0;
  aclOpExecutor* executor = nullptr;
  aclnnStatus status = aclnnAdaptiveMaxPool2dBackwardGetWorkspaceSize(
      grad_output, self, indices, grad_input, &workspace_size, &executor);
  if (status != ACLNN_SUCCESS) {
    return status;
  }
  std::unique_ptr<oa_test::DeviceBuffer> workspace;
  if (workspace_size > 0) {
    workspace = std::make_unique<oa_test::DeviceBuffer>(workspace_size);
  }
  return aclnnAdaptiveMaxPool2dBackward(workspace ? workspace->get() : nullptr, workspace_size,
                                        executor, nullptr);
}

}  // namespace amp_test
