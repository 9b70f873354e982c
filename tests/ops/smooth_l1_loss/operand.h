// Operands for the smooth L1 loss tests: a device buffer with the host's copy of its bytes, and a
// view of it as an aclTensor, plus the random shapes, views (permuted, stepped, flipped, expanded,
// offset) and values the randomized tests draw. Header-only: tests/CMakeLists.txt builds only
// *_test.cpp files.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstring>
#include <iterator>
#include <limits>
#include <memory>
#include <numeric>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "reference/smooth_l1_loss.h"
#include "test_env.h"

namespace sl1_test {

using oa_ref::Dims;

inline const char* dtype_text(aclDataType dtype) {
  switch (dtype) {
    case ACL_FLOAT:
      return "FLOAT";
    case ACL_FLOAT16:
      return "FLOAT16";
    case ACL_BF16:
      return "BF16";
    default:
      return "OTHER";
  }
}

inline std::string dims_text(const Dims& dims) {
  std::string text = "[";
  for (size_t i = 0; i < dims.size(); ++i) {
    text += (i == 0 ? "" : ", ") + std::to_string(dims[i]);
  }
  return text + "]";
}

// A number as printf's %g writes it (std::to_string writes 1e-30 as 0.000000).
inline std::string number_text(double value) {
  std::ostringstream text;
  text << value;
  return text.str();
}

constexpr aclDataType kFloatTypes[] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

// Calls f(dtypes), dtypes a const aclDataType[N], for each of the mixes of N kFloatTypes, in the
// order of N nested loops with the first operand outermost.
template <size_t N, typename F>
void for_each_dtype_mix(F f) {
  constexpr size_t kTypes = std::size(kFloatTypes);
  size_t mixes = 1;
  for (size_t k = 0; k < N; ++k) {
    mixes *= kTypes;
  }
  for (size_t mix = 0; mix < mixes; ++mix) {
    aclDataType dtypes[N];
    size_t rest = mix;
    for (size_t k = N; k-- > 0;) {
      dtypes[k] = kFloatTypes[rest % kTypes];
      rest /= kTypes;
    }
    f(static_cast<const aclDataType*>(dtypes));
  }
}

// One device allocation and the host's copy of its bytes.
struct Storage {
  explicit Storage(size_t bytes) : device(bytes), host(bytes) {}
  void upload() { device.write(host); }
  void download() { host = device.read<unsigned char>(); }

  oa_test::DeviceBuffer device;
  std::vector<unsigned char> host;
};

// A view (shape, strides in elements, offset, dtype) of a Storage, as an aclTensor.
struct Operand {
  std::string name;
  Dims shape;
  Dims strides;
  int64_t offset = 0;
  aclDataType dtype = ACL_FLOAT;
  std::shared_ptr<Storage> storage;
  oa_test::TensorPtr tensor{nullptr, aclDestroyTensor};

  oa_ref::HostView view() const { return {shape, strides, offset, dtype, storage->host.data()}; }

  std::string describe() const {
    std::ostringstream text;
    text << name << " " << dtype_text(dtype) << " " << dims_text(shape) << " strides "
         << dims_text(strides) << " offset " << offset;
    return text.str();
  }

  // The storage element of every view element, row-major.
  std::vector<int64_t> positions() const {
    std::vector<int64_t> result;
    const int64_t count = oa_ref::element_count(shape);
    for (int64_t i = 0; i < count; ++i) {
      int64_t position = offset;
      int64_t rest = i;
      for (size_t d = shape.size(); d-- > 0;) {
        position += rest % shape[d] * strides[d];
        rest /= shape[d];
      }
      result.push_back(position);
    }
    return result;
  }
};

// Makes the aclTensor of an operand whose view fields and storage are set.
inline void attach_tensor(Operand* operand) {
  operand->tensor =
      oa_test::make_tensor(operand->shape, operand->dtype, operand->storage->device.get(),
                           operand->strides, operand->offset);
}

// A second operand for exactly the same view of the same storage (in-place use).
inline Operand alias_of(const Operand& other, const std::string& name) {
  Operand alias;
  alias.name = name;
  alias.shape = other.shape;
  alias.strides = other.strides;
  alias.offset = other.offset;
  alias.dtype = other.dtype;
  alias.storage = other.storage;
  attach_tensor(&alias);
  return alias;
}

// How often a random view has each kind of non-contiguity (probabilities).
struct ViewStyle {
  double permute = 0.35;  // dims laid out in memory in a random order (transposes)
  double step = 0.35;     // slices with steps 2 or 3 and padding between rows
  double flip = 0.2;      // negative strides (reversed dims)
  double expand = 0.0;    // zero strides on dims of size > 1 (inputs only)
  double offset = 0.35;   // views starting past the start of their buffer, with slack after

  static ViewStyle contiguous() { return {0.0, 0.0, 0.0, 0.0, 0.0}; }
  static ViewStyle input() { return {0.35, 0.35, 0.2, 0.3, 0.35}; }
};

inline int64_t draw(std::mt19937& rng, int64_t low, int64_t high) {
  return std::uniform_int_distribution<int64_t>(low, high)(rng);
}

inline bool chance(std::mt19937& rng, double p) {
  return std::uniform_real_distribution<double>(0.0, 1.0)(rng) < p;
}

// Draws strides and an offset for shape, and returns the number of elements the buffer needs.
inline int64_t random_layout(std::mt19937& rng, const Dims& shape, const ViewStyle& style,
                             Dims* strides, int64_t* offset) {
  const size_t rank = shape.size();
  std::vector<size_t> order(rank);
  std::iota(order.begin(), order.end(), size_t{0});
  if (rank >= 2 && chance(rng, style.permute)) {
    std::shuffle(order.begin(), order.end(), rng);
  }
  const bool stepped = chance(rng, style.step);
  // Steps and padding go on dims of size > 1 while the buffer stays within 16x the view.
  const int64_t budget = 16 * std::max<int64_t>(oa_ref::element_count(shape), 1);
  strides->assign(rank, 0);
  int64_t extent = 1;  // elements spanned by the dims laid out so far (innermost first)
  for (size_t k = rank; k-- > 0;) {
    const size_t d = order[k];
    const bool here = stepped && shape[d] > 1 && extent < budget && chance(rng, 0.6);
    const int64_t step = here ? draw(rng, 2, 3) : 1;
    (*strides)[d] = extent * step;
    extent = extent * step * std::max<int64_t>(shape[d], 1) + (here ? draw(rng, 0, 2) : 0);
  }
  if (chance(rng, style.expand)) {
    for (size_t d = 0; d < rank; ++d) {
      if (shape[d] > 1 && chance(rng, 0.5)) {
        (*strides)[d] = 0;
      }
    }
  }
  if (chance(rng, style.flip)) {
    for (size_t d = 0; d < rank; ++d) {
      if (chance(rng, 0.5)) {
        (*strides)[d] = -(*strides)[d];
      }
    }
  }
  const bool empty = oa_ref::element_count(shape) == 0;
  int64_t low = 0;
  int64_t high = 0;
  for (size_t d = 0; d < rank && !empty; ++d) {
    const int64_t reach = (*strides)[d] * (shape[d] - 1);
    (reach < 0 ? low : high) += reach;
  }
  const bool shifted = chance(rng, style.offset);
  const int64_t start = shifted ? draw(rng, 1, 9) : 0;
  *offset = start - low;
  const int64_t slack = shifted ? draw(rng, 0, 5) : 0;
  return *offset + high + 1 + slack + (empty ? 3 : 0);
}

// A random value for an input element: mostly a grid of quarters (so that x - y often equals 0,
// +-0.5, +-1 or +-3 exactly) and uniform values, some specials (zeros, +-beta, infinities, NaN),
// some large values and, for a tiny beta, values small enough to fall inside (-beta, beta).
inline double random_value(std::mt19937& rng, float beta, bool specials) {
  const double beta_value = beta;
  const double p = std::uniform_real_distribution<double>(0.0, 1.0)(rng);
  if (beta_value > 0.0 && beta_value < 1e-20 && p < 0.35) {
    return std::ldexp(static_cast<double>(draw(rng, -12, 12)), -103);
  }
  if (p < 0.40) {
    return static_cast<double>(draw(rng, -24, 24)) / 4.0;
  }
  if (p < 0.85 || !specials) {
    return std::uniform_real_distribution<double>(-6.0, 6.0)(rng);
  }
  if (p < 0.90) {
    return std::uniform_real_distribution<double>(-3e4, 3e4)(rng);
  }
  const double inf = std::numeric_limits<double>::infinity();
  const double special[] = {
      0.0, -0.0, beta_value, -beta_value, inf, -inf, std::numeric_limits<double>::quiet_NaN()};
  return special[draw(rng, 0, 6)];
}

inline void store_code(Storage* storage, aclDataType dtype, int64_t position, uint32_t code) {
  const int64_t size = oa_ref::element_size(dtype);
  if (size == 4) {
    std::memcpy(storage->host.data() + position * size, &code, 4);
  } else {
    const auto half = static_cast<uint16_t>(code);
    std::memcpy(storage->host.data() + position * size, &half, 2);
  }
}

// Allocates a buffer for a random view of shape and makes the operand. Every element of the
// buffer gets a random value (inputs) or the whole buffer random bytes (outputs, so that the
// tests see which bytes an operator wrote).
inline Operand random_operand(std::mt19937& rng, const std::string& name, const Dims& shape,
                              aclDataType dtype, const ViewStyle& style, bool input, float beta,
                              bool specials = true) {
  Operand operand;
  operand.name = name;
  operand.shape = shape;
  operand.dtype = dtype;
  const int64_t elements = random_layout(rng, shape, style, &operand.strides, &operand.offset);
  const int64_t size = oa_ref::element_size(dtype);
  operand.storage = std::make_shared<Storage>(static_cast<size_t>(elements * size));
  if (input) {
    // Large buffers draw from a table of 1021 random values (drawing each is slow under ASan).
    std::vector<uint32_t> table;
    const size_t table_size = elements > 65536 ? 1021 : 0;
    while (table.size() < table_size) {
      table.push_back(oa_ref::encode(dtype, random_value(rng, beta, specials)));
    }
    for (int64_t i = 0; i < elements; ++i) {
      store_code(operand.storage.get(), dtype, i,
                 table.empty() ? oa_ref::encode(dtype, random_value(rng, beta, specials))
                               : table[rng() % table.size()]);
    }
  } else {
    for (unsigned char& byte : operand.storage->host) {
      byte = static_cast<unsigned char>(rng());
    }
  }
  operand.storage->upload();
  attach_tensor(&operand);
  return operand;
}

// A contiguous operand holding the given values (rounded to dtype), at offset 0 of its own buffer.
inline Operand filled_operand(const std::string& name, const Dims& shape, aclDataType dtype,
                              const std::vector<double>& values) {
  Operand operand;
  operand.name = name;
  operand.shape = shape;
  operand.dtype = dtype;
  operand.strides.assign(shape.size(), 1);
  for (size_t d = shape.size(); d-- > 1;) {
    operand.strides[d - 1] = operand.strides[d] * std::max<int64_t>(shape[d], 1);
  }
  const int64_t count = std::max<int64_t>(oa_ref::element_count(shape), 1);
  operand.storage =
      std::make_shared<Storage>(static_cast<size_t>(count * oa_ref::element_size(dtype)));
  for (size_t i = 0; i < values.size(); ++i) {
    store_code(operand.storage.get(), dtype, static_cast<int64_t>(i),
               oa_ref::encode(dtype, values[i]));
  }
  operand.storage->upload();
  attach_tensor(&operand);
  return operand;
}

// A random shape of the given rank with at most about max_elements elements.
inline Dims random_shape(std::mt19937& rng, int rank, int64_t max_elements) {
  Dims shape(static_cast<size_t>(rank), 1);
  int64_t count = 1;
  for (int d = 0; d < rank; ++d) {
    const int64_t room = std::max<int64_t>(max_elements / count, 1);
    shape[static_cast<size_t>(d)] = draw(rng, 1, std::min<int64_t>(room, 7));
    count *= shape[static_cast<size_t>(d)];
  }
  std::shuffle(shape.begin(), shape.end(), rng);
  return shape;
}

// An input shape that broadcasts to full: some leading dims dropped, some dims set to 1.
inline Dims broadcast_source(std::mt19937& rng, const Dims& full, double p_broadcast) {
  size_t drop = 0;
  if (!full.empty() && chance(rng, p_broadcast)) {
    drop = static_cast<size_t>(draw(rng, 0, static_cast<int64_t>(full.size())));
  }
  Dims shape(full.begin() + static_cast<std::ptrdiff_t>(drop), full.end());
  for (int64_t& dim : shape) {
    if (chance(rng, p_broadcast * 0.6)) {
      dim = 1;
    }
  }
  return shape;
}

}  // namespace sl1_test
