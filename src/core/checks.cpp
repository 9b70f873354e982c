#include "core/checks.h"

#include <algorithm>
#include <string>

#include "base/dtype.h"
#include "runtime/error.h"

namespace oa {
namespace {

// "shape [2, 3], strides [3, 1], offset 0, data 0x...": the values an overlap message shows.
std::string view_string(const aclTensor& t) {
  return format("shape %s, strides %s, offset %lld, data %p", shape_string(t.shape).c_str(),
                shape_string(t.strides).c_str(), static_cast<long long>(t.offset), t.data);
}

}  // namespace

aclnnStatus check_not_null(const char* op,
                           std::initializer_list<std::pair<const void*, const char*>> args) {
  for (const auto& [pointer, name] : args) {
    if (pointer == nullptr) {
      return failf(ACLNN_ERR_PARAM_NULLPTR, "%s: %s must not be null", op, name);
    }
  }
  return ACLNN_SUCCESS;
}

aclnnStatus check_dtype(const char* op, Named t, const DtypeSet& allowed) {
  if (std::find(allowed.begin(), allowed.end(), t.tensor->dtype) == allowed.end()) {
    return failf(ACLNN_ERR_PARAM_INVALID, "%s: %s dtype must be one of %s, got %s", op, t.name,
                 dtype_list(allowed).c_str(), dtype_name(t.tensor->dtype).c_str());
  }
  return ACLNN_SUCCESS;
}

aclnnStatus check_same_dtype(const char* op, Named t, Named reference) {
  if (t.tensor->dtype != reference.tensor->dtype) {
    return failf(ACLNN_ERR_PARAM_INVALID, "%s: %s dtype must equal %s dtype (%s), got %s", op,
                 t.name, reference.name, dtype_name(reference.tensor->dtype).c_str(),
                 dtype_name(t.tensor->dtype).c_str());
  }
  return ACLNN_SUCCESS;
}

aclnnStatus check_format(const char* op, Named t, const std::vector<aclFormat>& allowed) {
  if (std::find(allowed.begin(), allowed.end(), t.tensor->format) == allowed.end()) {
    std::string names;
    for (aclFormat format : allowed) {
      names += (names.empty() ? "" : ", ") + format_name(format);
    }
    return failf(ACLNN_ERR_PARAM_INVALID, "%s: %s format must be one of {%s}, got %s", op, t.name,
                 names.c_str(), format_name(t.tensor->format).c_str());
  }
  return ACLNN_SUCCESS;
}

aclnnStatus check_same_public_format(const char* op, const std::vector<Named>& tensors) {
  const Named& first = *tensors.begin();
  for (const Named& t : tensors) {
    if (t.tensor->format != first.tensor->format) {
      return failf(ACLNN_ERR_PARAM_INVALID, "%s: %s format must equal %s format (%s), got %s", op,
                   t.name, first.name, format_name(first.tensor->format).c_str(),
                   format_name(t.tensor->format).c_str());
    }
  }
  if (format_is_private(first.tensor->format)) {
    return failf(ACLNN_ERR_PARAM_INVALID,
                 "%s: %s format %s is a private hardware format, not supported", op, first.name,
                 format_name(first.tensor->format).c_str());
  }
  return ACLNN_SUCCESS;
}

aclnnStatus check_rank(const char* op, Named t, int min_rank, int max_rank) {
  auto rank = static_cast<int64_t>(t.tensor->shape.size());
  if (rank < min_rank || rank > max_rank) {
    std::string range = min_rank == max_rank
                            ? std::to_string(min_rank)
                            : std::to_string(min_rank) + ".." + std::to_string(max_rank);
    return failf(ACLNN_ERR_PARAM_INVALID, "%s: %s rank must be %s, got %lld (shape %s)", op, t.name,
                 range.c_str(), static_cast<long long>(rank),
                 shape_string(t.tensor->shape).c_str());
  }
  return ACLNN_SUCCESS;
}

aclnnStatus check_same_rank(const char* op, const std::vector<Named>& tensors) {
  const Named& first = *tensors.begin();
  for (const Named& t : tensors) {
    if (t.tensor->shape.size() != first.tensor->shape.size()) {
      return failf(ACLNN_ERR_PARAM_INVALID, "%s: %s rank must equal %s rank (%zu), got %zu", op,
                   t.name, first.name, first.tensor->shape.size(), t.tensor->shape.size());
    }
  }
  return ACLNN_SUCCESS;
}

aclnnStatus check_shape(const char* op, Named t, const Shape& expected, const char* expected_what) {
  if (t.tensor->shape != expected) {
    return failf(ACLNN_ERR_PARAM_INVALID, "%s: %s shape must be %s %s, got %s", op, t.name,
                 expected_what, shape_string(expected).c_str(),
                 shape_string(t.tensor->shape).c_str());
  }
  return ACLNN_SUCCESS;
}

aclnnStatus check_same_shape(const char* op, Named t, Named reference) {
  if (t.tensor->shape == reference.tensor->shape) {
    return ACLNN_SUCCESS;
  }
  const std::string what = std::string("equal to ") + reference.name + " shape";
  return check_shape(op, t, reference.tensor->shape, what.c_str());
}

aclnnStatus check_broadcast(const char* op, const std::vector<Named>& inputs, Shape* out) {
  Shape result;
  std::string names;
  for (const Named& t : inputs) {
    Shape next;
    if (!broadcast_shapes(result, t.tensor->shape, &next)) {
      return failf(ACLNN_ERR_PARAM_INVALID,
                   "%s: %s shape %s does not broadcast with the shape %s of %s", op, t.name,
                   shape_string(t.tensor->shape).c_str(), shape_string(result).c_str(),
                   names.c_str());
    }
    result = std::move(next);
    names += (names.empty() ? "" : ", ") + std::string(t.name);
  }
  *out = std::move(result);
  return ACLNN_SUCCESS;
}

aclnnStatus check_in_device_memory(const char* op, const std::vector<Named>& tensors) {
  for (const Named& t : tensors) {
    std::string why;
    if (!view_in_device_memory(*t.tensor, &why)) {
      return failf(ACLNN_ERR_PARAM_INVALID,
                   "%s: %s (shape %s, strides %s, offset %lld, data %p) is not inside device "
                   "memory from aclrtMalloc: its view %s",
                   op, t.name, shape_string(t.tensor->shape).c_str(),
                   shape_string(t.tensor->strides).c_str(),
                   static_cast<long long>(t.tensor->offset), t.tensor->data, why.c_str());
    }
  }
  return ACLNN_SUCCESS;
}

aclnnStatus check_output(const char* op, Named output, const std::vector<Named>& inputs,
                         bool allow_in_place) {
  if (view_self_overlaps(*output.tensor)) {
    return failf(ACLNN_ERR_PARAM_INVALID,
                 "%s: %s (shape %s, strides %s) would write some element more than once", op,
                 output.name, shape_string(output.tensor->shape).c_str(),
                 shape_string(output.tensor->strides).c_str());
  }
  AddressRange written;
  if (!address_range(*output.tensor, &written)) {
    return ACLNN_SUCCESS;  // empty: overlaps nothing
  }
  for (const Named& input : inputs) {
    if (allow_in_place && same_view(*output.tensor, *input.tensor)) {
      continue;
    }
    AddressRange read;
    if (address_range(*input.tensor, &read) && ranges_intersect(written, read)) {
      return failf(
          ACLNN_ERR_PARAM_INVALID, "%s: %s overlaps %s in memory (%s: %s; %s: %s)%s", op,
          output.name, input.name, output.name, view_string(*output.tensor).c_str(), input.name,
          view_string(*input.tensor).c_str(),
          allow_in_place ? "; only an exactly identical view is allowed, for in-place" : "");
    }
  }
  return ACLNN_SUCCESS;
}

}  // namespace oa
