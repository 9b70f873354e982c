#include "accuracy.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "base/float_convert.h"

namespace oa::tool {
namespace {

template <typename T>
T load(const uint8_t* bytes, int64_t i) {
  T value;
  std::memcpy(&value, bytes + i * static_cast<int64_t>(sizeof(T)), sizeof(T));
  return value;
}

double element(const Array& array, int64_t i) {
  const uint8_t* bytes = array.bytes.data();
  switch (array.dtype) {
    case ACL_FLOAT:
      return load<float>(bytes, i);
    case ACL_FLOAT16:
      return oa::half_to_float(load<uint16_t>(bytes, i));
    case ACL_BF16:
      return oa::bf16_to_float(load<uint16_t>(bytes, i));
    case ACL_DOUBLE:
      return load<double>(bytes, i);
    case ACL_INT8:
      return load<int8_t>(bytes, i);
    case ACL_UINT8:
    case ACL_BOOL:
      return bytes[i];
    case ACL_INT32:
      return load<int32_t>(bytes, i);
    case ACL_INT64:
      return static_cast<double>(load<int64_t>(bytes, i));
    case ACL_HIFLOAT8:
      return oa::hif8_to_float(bytes[i]);
    case ACL_FLOAT8_E4M3FN:
      return oa::e4m3fn_to_float(bytes[i]);
    default:
      throw UsageError("cannot compare arrays of dtype " + dtype_label(array.dtype));
  }
}

}  // namespace

double default_rtol(aclDataType dtype) {
  switch (dtype) {
    case ACL_FLOAT:
      return 1e-4;
    case ACL_DOUBLE:
      return 1e-8;
    case ACL_FLOAT16:
      return 1e-3;
    case ACL_BF16:
      return 4e-3;
    case ACL_HIFLOAT8:
    case ACL_FLOAT8_E4M3FN:
      return 0.125;
    default:
      return 0;
  }
}

Tolerance default_tolerance(aclDataType expected, aclDataType actual) {
  const double rtol = std::max(default_rtol(expected), default_rtol(actual));
  return {rtol, rtol};
}

std::vector<double> to_doubles(const Array& array) {
  std::vector<double> values(static_cast<size_t>(array.numel()));
  for (size_t i = 0; i < values.size(); ++i) {
    values[i] = element(array, static_cast<int64_t>(i));
  }
  return values;
}

Accuracy measure_accuracy(const std::vector<double>& expected, const std::vector<double>& actual,
                          Tolerance tolerance, size_t keep) {
  Accuracy result;
  result.count = static_cast<int64_t>(expected.size());
  double dot = 0;
  double expected_norm2 = 0;
  double actual_norm2 = 0;
  double rel_sum = 0;
  for (size_t i = 0; i < expected.size(); ++i) {
    const double e = expected[i];
    const double a = actual[i];
    const int64_t index = static_cast<int64_t>(i);
    bool outside = false;
    if (std::isnan(e) || std::isnan(a)) {
      outside = std::isnan(e) != std::isnan(a);
      result.nan_mismatches += outside ? 1 : 0;
    } else if (std::isinf(e) || std::isinf(a)) {
      outside = e != a;
      result.inf_mismatches += outside ? 1 : 0;
    } else {
      const double abs_error = std::fabs(a - e);
      outside = abs_error > tolerance.atol + tolerance.rtol * std::fabs(e);
      ++result.finite_count;
      if (result.max_abs_index < 0 || abs_error > result.max_abs_error) {
        result.max_abs_error = abs_error;
        result.max_abs_index = index;
      }
      if (e != 0) {
        const double rel_error = abs_error / std::fabs(e);
        ++result.relative_count;
        rel_sum += rel_error;
        if (result.max_rel_index < 0 || rel_error > result.max_rel_error) {
          result.max_rel_error = rel_error;
          result.max_rel_index = index;
        }
      }
      dot += e * a;
      expected_norm2 += e * e;
      actual_norm2 += a * a;
    }
    if (outside) {
      ++result.outside;
      if (result.first_outside.size() < keep) {
        result.first_outside.push_back({index, e, a});
      }
    }
  }
  if (result.relative_count > 0) {
    result.mean_rel_error = rel_sum / static_cast<double>(result.relative_count);
  }
  if (expected_norm2 > 0 && actual_norm2 > 0) {
    result.cosine_similarity = dot / (std::sqrt(expected_norm2) * std::sqrt(actual_norm2));
  } else {
    result.cosine_similarity = expected_norm2 == actual_norm2 ? 1 : 0;
  }
  return result;
}

std::vector<int64_t> unravel_index(int64_t flat, const std::vector<int64_t>& shape) {
  std::vector<int64_t> index(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    index[d] = flat % shape[d];
    flat /= shape[d];
  }
  return index;
}

}  // namespace oa::tool
