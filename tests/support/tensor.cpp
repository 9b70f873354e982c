#include "support/tensor.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>

#include "base/float_convert.h"

namespace oa_test {
namespace {

constexpr size_t kGuard = 64;  // bytes before and after the storage the view reaches

template <typename T>
void put(T value, unsigned char* p) {
  std::memcpy(p, &value, sizeof(T));
}

template <typename T>
T get_as(const unsigned char* p) {
  T value;
  std::memcpy(&value, p, sizeof(T));
  return value;
}

// A C cast of v to integer type T, defined for every double (NaN and out-of-range values wrap).
template <typename T>
T to_integer(double v) {
  if (!std::isfinite(v)) {
    return 0;
  }
  return static_cast<T>(static_cast<int64_t>(std::fmod(std::trunc(v), 1.8446744073709552e19)));
}

}  // namespace

int64_t element_bytes(aclDataType dtype) {
  switch (dtype) {
    case ACL_DOUBLE:
    case ACL_INT64:
    case ACL_UINT64:
      return 8;
    case ACL_FLOAT:
    case ACL_INT32:
    case ACL_UINT32:
      return 4;
    case ACL_FLOAT16:
    case ACL_BF16:
    case ACL_INT16:
    case ACL_UINT16:
      return 2;
    default:  // INT8, UINT8, BOOL, HIFLOAT8, FLOAT8_E4M3FN, ...
      return 1;
  }
}

void encode(aclDataType dtype, double v, unsigned char* p) {
  switch (dtype) {
    case ACL_DOUBLE:
      return put(v, p);
    case ACL_FLOAT:
      return put(static_cast<float>(v), p);
    case ACL_FLOAT16:
      return put(oa::float_to_half(static_cast<float>(v)), p);
    case ACL_BF16:
      return put(oa::float_to_bf16(static_cast<float>(v)), p);
    case ACL_HIFLOAT8:
      return put(oa::float_to_hif8(static_cast<float>(v)), p);
    case ACL_FLOAT8_E4M3FN:
      return put(oa::float_to_e4m3fn(static_cast<float>(v)), p);
    case ACL_INT64:
      return put(to_integer<int64_t>(v), p);
    case ACL_UINT64:
      return put(to_integer<uint64_t>(v), p);
    case ACL_INT32:
      return put(to_integer<int32_t>(v), p);
    case ACL_UINT32:
      return put(to_integer<uint32_t>(v), p);
    case ACL_INT16:
      return put(to_integer<int16_t>(v), p);
    case ACL_UINT16:
      return put(to_integer<uint16_t>(v), p);
    case ACL_UINT8:
      return put(to_integer<uint8_t>(v), p);
    case ACL_BOOL:
      return put(static_cast<uint8_t>(v != 0), p);
    default:
      return put(to_integer<int8_t>(v), p);
  }
}

double decode(aclDataType dtype, const unsigned char* p) {
  switch (dtype) {
    case ACL_DOUBLE:
      return get_as<double>(p);
    case ACL_FLOAT:
      return get_as<float>(p);
    case ACL_FLOAT16:
      return oa::half_to_float(get_as<uint16_t>(p));
    case ACL_BF16:
      return oa::bf16_to_float(get_as<uint16_t>(p));
    case ACL_HIFLOAT8:
      return oa::hif8_to_float(get_as<uint8_t>(p));
    case ACL_FLOAT8_E4M3FN:
      return oa::e4m3fn_to_float(get_as<uint8_t>(p));
    case ACL_INT64:
      return static_cast<double>(get_as<int64_t>(p));
    case ACL_UINT64:
      return static_cast<double>(get_as<uint64_t>(p));
    case ACL_INT32:
      return get_as<int32_t>(p);
    case ACL_UINT32:
      return get_as<uint32_t>(p);
    case ACL_INT16:
      return get_as<int16_t>(p);
    case ACL_UINT16:
      return get_as<uint16_t>(p);
    case ACL_UINT8:
    case ACL_BOOL:
      return get_as<uint8_t>(p);
    default:
      return get_as<int8_t>(p);
  }
}

double round_to(aclDataType dtype, double v) {
  unsigned char bytes[8];
  encode(dtype, v, bytes);
  return decode(dtype, bytes);
}

TestTensor::TestTensor(const oa::TensorSpec& spec, Memory memory, unsigned char fill)
    : spec_(spec), bytes_per_element_(element_bytes(spec.dtype)) {
  if (spec_.strides.empty()) {
    spec_.strides = oa::contiguous_strides(spec_.shape);
  }
  int64_t reach = spec_.offset + 1;  // a negative stride reaches below the offset, not past it
  for (size_t d = 0; d < spec_.shape.size(); ++d) {
    if (spec_.shape[d] > 0) {
      reach += std::max<int64_t>(spec_.strides[d] * (spec_.shape[d] - 1), 0);
    }
  }
  front_guard_ = kGuard;
  storage_size_ = kGuard + static_cast<size_t>(reach * bytes_per_element_) + kGuard;
  if (memory == Memory::device) {
    device_ = std::make_shared<DeviceBuffer>(storage_size_);
    base_ = device_->as<unsigned char>() + front_guard_;
  } else {
    host_ = std::make_shared<std::vector<unsigned char>>(storage_size_);
    base_ = host_->data() + front_guard_;
  }
  image_.assign(storage_size_, fill);
  upload();
  tensor_ = make_tensor(spec_.shape, spec_.dtype, base_, spec_.strides, spec_.offset, spec_.format);
}

TestTensor::TestTensor(const oa::TensorSpec& spec, TestTensor* other)
    : spec_(spec), bytes_per_element_(element_bytes(spec.dtype)) {
  if (spec_.strides.empty()) {
    spec_.strides = oa::contiguous_strides(spec_.shape);
  }
  device_ = other->device_;
  host_ = other->host_;
  base_ = other->base_;
  front_guard_ = other->front_guard_;
  storage_size_ = other->storage_size_;
  image_ = other->image_;
  tensor_ = make_tensor(spec_.shape, spec_.dtype, base_, spec_.strides, spec_.offset, spec_.format);
}

int64_t TestTensor::numel() const { return oa::numel(spec_.shape); }

std::vector<int64_t> TestTensor::element_offsets() const {
  std::vector<int64_t> offsets;
  const int64_t count = numel();
  offsets.reserve(static_cast<size_t>(count));
  std::vector<int64_t> index(spec_.shape.size(), 0);
  for (int64_t k = 0; k < count; ++k) {
    int64_t at = spec_.offset;
    for (size_t d = 0; d < index.size(); ++d) {
      at += index[d] * spec_.strides[d];
    }
    offsets.push_back(at);
    for (size_t d = index.size(); d-- > 0;) {
      if (++index[d] < spec_.shape[d]) {
        break;
      }
      index[d] = 0;
    }
  }
  return offsets;
}

std::vector<unsigned char> TestTensor::storage_bytes() const {
  if (device_) {
    return device_->read<unsigned char>();
  }
  return *host_;
}

void TestTensor::upload() {
  if (device_) {
    device_->write(image_);
  } else {
    *host_ = image_;
  }
}

void TestTensor::write(const std::vector<double>& values) {
  image_ = storage_bytes();
  const std::vector<int64_t> offsets = element_offsets();
  for (size_t k = 0; k < offsets.size() && k < values.size(); ++k) {
    encode(spec_.dtype, values[k],
           &image_[front_guard_ + static_cast<size_t>(offsets[k] * bytes_per_element_)]);
  }
  upload();
}

void TestTensor::write_bits(const std::vector<uint64_t>& bits) {
  image_ = storage_bytes();
  const std::vector<int64_t> offsets = element_offsets();
  for (size_t k = 0; k < offsets.size() && k < bits.size(); ++k) {
    // Little-endian: the low bytes of the value are the element's.
    std::memcpy(&image_[front_guard_ + static_cast<size_t>(offsets[k] * bytes_per_element_)],
                &bits[k], static_cast<size_t>(bytes_per_element_));
  }
  upload();
}

void TestTensor::write_ints(const std::vector<int64_t>& values) {
  write_bits(std::vector<uint64_t>(values.begin(), values.end()));
}

std::vector<double> TestTensor::read() const {
  const std::vector<unsigned char> now = storage_bytes();
  std::vector<double> values;
  for (int64_t at : element_offsets()) {
    values.push_back(
        decode(spec_.dtype, &now[front_guard_ + static_cast<size_t>(at * bytes_per_element_)]));
  }
  return values;
}

std::vector<uint64_t> TestTensor::read_bits() const {
  const std::vector<unsigned char> now = storage_bytes();
  std::vector<uint64_t> bits;
  for (int64_t at : element_offsets()) {
    uint64_t b = 0;
    std::memcpy(&b, &now[front_guard_ + static_cast<size_t>(at * bytes_per_element_)],
                static_cast<size_t>(bytes_per_element_));
    bits.push_back(b);
  }
  return bits;
}

std::vector<int64_t> TestTensor::read_ints() const {
  const bool is_signed = spec_.dtype == ACL_INT8 || spec_.dtype == ACL_INT16 ||
                         spec_.dtype == ACL_INT32 || spec_.dtype == ACL_INT64;
  const int shift = 64 - 8 * static_cast<int>(bytes_per_element_);
  std::vector<int64_t> values;
  for (uint64_t bits : read_bits()) {
    const auto v = static_cast<int64_t>(bits << shift);
    values.push_back(is_signed ? v >> shift : static_cast<int64_t>(bits));
  }
  return values;
}

bool TestTensor::only_view_written() const {
  if (freed()) {
    return true;
  }
  std::vector<unsigned char> now = storage_bytes();
  std::vector<unsigned char> expected = image_;
  // The view's bytes may hold anything: equalize them before comparing.
  for (int64_t at : element_offsets()) {
    const size_t begin = front_guard_ + static_cast<size_t>(at * bytes_per_element_);
    std::memcpy(&now[begin], &expected[begin], static_cast<size_t>(bytes_per_element_));
  }
  return now == expected;
}

void TestTensor::free_memory() { device_.reset(); }

void TestTensor::destroy_handle() {
  aclTensor* handle = tensor_.release();
  EXPECT_EQ(aclDestroyTensor(handle), ACLNN_SUCCESS);
  dangling_ = handle;
}

oa::TensorSpec random_layout(oa::TensorSpec spec, std::mt19937_64& rng, bool expand) {
  const size_t rank = spec.shape.size();
  std::vector<size_t> order(rank);  // order[0]: the outermost dim in memory
  std::iota(order.begin(), order.end(), size_t{0});
  std::shuffle(order.begin(), order.end(), rng);
  spec.strides.assign(rank, 0);
  int64_t step = 1 + static_cast<int64_t>(rng() % 2);  // a step of 2: every other element
  for (size_t j = rank; j-- > 0;) {
    const size_t dim = order[j];
    spec.strides[dim] = step;
    step *= std::max<int64_t>(spec.shape[dim], 1);
    step += static_cast<int64_t>(rng() % 3);  // a gap after the dim
  }
  if (expand && rank > 0 && rng() % 3 == 0) {
    const size_t dim = static_cast<size_t>(rng() % rank);
    if (spec.shape[dim] > 1) {
      spec.strides[dim] = 0;
    }
  }
  spec.offset = static_cast<int64_t>(rng() % 4);
  return spec;
}

Layout channels_last(size_t rank) { return rank == 4 ? Layout{{0, 2, 3, 1}} : Layout{{1, 2, 0}}; }

oa::TensorSpec laid_out(oa::TensorSpec spec, const Layout& layout) {
  const size_t rank = spec.shape.size();
  std::vector<int> order = layout.order;
  if (order.empty()) {
    order.resize(rank);
    std::iota(order.begin(), order.end(), 0);
  }
  spec.strides.assign(rank, 0);
  int64_t stride = layout.inner_stride;
  for (size_t k = rank; k-- > 0;) {
    const auto dim = static_cast<size_t>(order[k]);
    spec.strides[dim] = stride;
    stride = stride * std::max<int64_t>(spec.shape[dim], 1) + layout.gap;
  }
  spec.offset = layout.offset;
  return spec;
}

oa::TensorSpec expanded(oa::TensorSpec spec, size_t dim) {
  spec.strides = oa::contiguous_strides(spec.shape);
  if (dim < spec.strides.size()) {
    spec.strides[dim] = 0;
  }
  spec.offset = 0;
  return spec;
}

}  // namespace oa_test
