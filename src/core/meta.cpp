// The meta C API: creating, inspecting and destroying tensors, scalars and integer arrays (lists
// and the other arrays: meta_lists.cpp).
#include <algorithm>
#include <cstring>
#include <memory>
#include <new>

#include "aclnn/aclnn_base.h"
#include "base/dtype.h"
#include "core/executor.h"
#include "core/handles.h"
#include "core/lists.h"
#include "core/tensor.h"
#include "core/values.h"
#include "runtime/error.h"

namespace oa {
namespace {

constexpr uint64_t kMaxRank = 64;

// Validates one dims array of aclCreateTensor; fills *dims.
bool read_dims(const char* name, const int64_t* values, uint64_t count, Shape* dims) {
  if (count > kMaxRank) {
    failf(ACLNN_ERR_PARAM_INVALID, "aclCreateTensor: %sNum must be <= %llu, got %llu", name,
          static_cast<unsigned long long>(kMaxRank), static_cast<unsigned long long>(count));
    return false;
  }
  if (values == nullptr && count != 0) {
    failf(ACLNN_ERR_PARAM_NULLPTR, "aclCreateTensor: %s is null but %sNum is %llu", name, name,
          static_cast<unsigned long long>(count));
    return false;
  }
  dims->assign(values, values + count);
  for (uint64_t i = 0; i < count; ++i) {
    if (values[i] < 0) {
      failf(ACLNN_ERR_PARAM_INVALID, "aclCreateTensor: %s[%llu] must be >= 0, got %lld", name,
            static_cast<unsigned long long>(i), static_cast<long long>(values[i]));
      return false;
    }
  }
  return true;
}

// Copies a tensor property into a new[] array the caller releases with delete[]. values_name and
// count_name are the API's parameter names, for the message.
aclnnStatus export_array(const char* api, const aclTensor* tensor, const Shape aclTensor::*member,
                         const char* values_name, int64_t** values, const char* count_name,
                         uint64_t* count) {
  if (tensor == nullptr || values == nullptr || count == nullptr) {
    return failf(ACLNN_ERR_PARAM_NULLPTR, "%s: %s is null", api,
                 tensor == nullptr ? "tensor" : (values == nullptr ? values_name : count_name));
  }
  std::lock_guard<std::mutex> lock(meta_mutex());
  OA_TRY(check_live_locked(api, "aclTensor", "aclCreateTensor", tensor));
  const Shape& source = tensor->*member;
  *values = new int64_t[std::max<size_t>(source.size(), 1)];
  std::copy(source.begin(), source.end(), *values);
  *count = source.size();
  return ACLNN_SUCCESS;
}

template <typename T>
aclnnStatus export_value(const char* api, const aclTensor* tensor, T aclTensor::*member,
                         const char* value_name, T* value) {
  if (tensor == nullptr || value == nullptr) {
    return failf(ACLNN_ERR_PARAM_NULLPTR, "%s: %s is null", api,
                 tensor == nullptr ? "tensor" : value_name);
  }
  std::lock_guard<std::mutex> lock(meta_mutex());
  OA_TRY(check_live_locked(api, "aclTensor", "aclCreateTensor", tensor));
  *value = tensor->*member;
  return ACLNN_SUCCESS;
}

}  // namespace
}  // namespace oa

using oa::failf;

extern "C" {

ACL_FUNC_VISIBILITY aclTensor* aclCreateTensor(const int64_t* viewDims, uint64_t viewDimsNum,
                                               aclDataType dataType, const int64_t* stride,
                                               int64_t offset, aclFormat format,
                                               const int64_t* storageDims, uint64_t storageDimsNum,
                                               void* tensorData) {
  auto tensor = std::make_unique<aclTensor>();
  if (!oa::read_dims("viewDims", viewDims, viewDimsNum, &tensor->shape) ||
      !oa::read_dims("storageDims", storageDims, storageDimsNum, &tensor->storage_shape)) {
    return nullptr;
  }
  if (!oa::dtype_is_known(dataType)) {
    failf(ACLNN_ERR_PARAM_INVALID, "aclCreateTensor: dataType %d is not an aclDataType",
          static_cast<int>(dataType));
    return nullptr;
  }
  if (!oa::format_is_known(format)) {
    failf(ACLNN_ERR_PARAM_INVALID, "aclCreateTensor: format %d is not an aclFormat",
          static_cast<int>(format));
    return nullptr;
  }
  if (offset < 0) {
    failf(ACLNN_ERR_PARAM_INVALID, "aclCreateTensor: offset must be >= 0, got %lld",
          static_cast<long long>(offset));
    return nullptr;
  }
  tensor->strides = stride == nullptr ? oa::contiguous_strides(tensor->shape)
                                      : Shape(stride, stride + viewDimsNum);
  tensor->offset = offset;
  tensor->dtype = dataType;
  tensor->format = format;
  tensor->data = tensorData;
  std::lock_guard<std::mutex> lock(oa::meta_mutex());
  oa::live<aclTensor>().insert(tensor.get());
  return tensor.release();
}

ACL_FUNC_VISIBILITY aclnnStatus aclDestroyTensor(const aclTensor* tensor) {
  if (tensor == nullptr) {
    return ACLNN_SUCCESS;
  }
  if (const aclTensorList* list = oa::owning_list(tensor)) {
    return failf(ACLNN_ERR_PARAM_INVALID,
                 "aclDestroyTensor: tensor %p belongs to aclTensorList %p, which destroys it "
                 "(aclDestroyTensorList)",
                 static_cast<const void*>(tensor), static_cast<const void*>(list));
  }
  {
    std::lock_guard<std::mutex> lock(oa::meta_mutex());
    OA_TRY(oa::check_live_locked("aclDestroyTensor", "aclTensor", "aclCreateTensor", tensor));
    oa::live<aclTensor>().erase(tensor);
  }
  delete tensor;
  return ACLNN_SUCCESS;
}

ACL_FUNC_VISIBILITY aclnnStatus aclGetViewShape(const aclTensor* tensor, int64_t** viewDims,
                                                uint64_t* viewDimsNum) {
  return oa::export_array("aclGetViewShape", tensor, &aclTensor::shape, "viewDims", viewDims,
                          "viewDimsNum", viewDimsNum);
}

ACL_FUNC_VISIBILITY aclnnStatus aclGetStorageShape(const aclTensor* tensor, int64_t** storageDims,
                                                   uint64_t* storageDimsNum) {
  return oa::export_array("aclGetStorageShape", tensor, &aclTensor::storage_shape, "storageDims",
                          storageDims, "storageDimsNum", storageDimsNum);
}

ACL_FUNC_VISIBILITY aclnnStatus aclGetViewStrides(const aclTensor* tensor, int64_t** stridesValue,
                                                  uint64_t* stridesNum) {
  return oa::export_array("aclGetViewStrides", tensor, &aclTensor::strides, "stridesValue",
                          stridesValue, "stridesNum", stridesNum);
}

ACL_FUNC_VISIBILITY aclnnStatus aclGetViewOffset(const aclTensor* tensor, int64_t* offset) {
  return oa::export_value("aclGetViewOffset", tensor, &aclTensor::offset, "offset", offset);
}

ACL_FUNC_VISIBILITY aclnnStatus aclGetFormat(const aclTensor* tensor, aclFormat* format) {
  return oa::export_value("aclGetFormat", tensor, &aclTensor::format, "format", format);
}

ACL_FUNC_VISIBILITY aclnnStatus aclGetDataType(const aclTensor* tensor, aclDataType* dataType) {
  return oa::export_value("aclGetDataType", tensor, &aclTensor::dtype, "dataType", dataType);
}

ACL_FUNC_VISIBILITY aclScalar* aclCreateScalar(void* value, aclDataType dataType) {
  if (value == nullptr) {
    failf(ACLNN_ERR_PARAM_NULLPTR, "aclCreateScalar: value is null");
    return nullptr;
  }
  int bits = oa::dtype_bits(dataType);
  if (bits < 8 || bits % 8 != 0) {
    failf(ACLNN_ERR_PARAM_INVALID, "aclCreateScalar: dataType %s cannot be a scalar",
          oa::dtype_name(dataType).c_str());
    return nullptr;
  }
  auto scalar = std::make_unique<aclScalar>();
  scalar->dtype = dataType;
  std::memcpy(scalar->bytes, value, static_cast<size_t>(bits / 8));
  std::lock_guard<std::mutex> lock(oa::meta_mutex());
  oa::live<aclScalar>().insert(scalar.get());
  return scalar.release();
}

ACL_FUNC_VISIBILITY aclnnStatus aclDestroyScalar(const aclScalar* scalar) {
  if (scalar == nullptr) {
    return ACLNN_SUCCESS;
  }
  if (const aclScalarList* list = oa::owning_list(scalar)) {
    return failf(ACLNN_ERR_PARAM_INVALID,
                 "aclDestroyScalar: scalar %p belongs to aclScalarList %p, which destroys it "
                 "(aclDestroyScalarList)",
                 static_cast<const void*>(scalar), static_cast<const void*>(list));
  }
  {
    std::lock_guard<std::mutex> lock(oa::meta_mutex());
    OA_TRY(oa::check_live_locked("aclDestroyScalar", "aclScalar", "aclCreateScalar", scalar));
    oa::live<aclScalar>().erase(scalar);
  }
  delete scalar;
  return ACLNN_SUCCESS;
}

ACL_FUNC_VISIBILITY aclIntArray* aclCreateIntArray(const int64_t* value, uint64_t size) {
  if (value == nullptr && size != 0) {
    failf(ACLNN_ERR_PARAM_NULLPTR, "aclCreateIntArray: value is null but size is %llu",
          static_cast<unsigned long long>(size));
    return nullptr;
  }
  try {
    auto array = std::make_unique<aclIntArray>();
    array->values.assign(value, value + size);
    std::lock_guard<std::mutex> lock(oa::meta_mutex());
    oa::live<aclIntArray>().insert(array.get());
    return array.release();
  } catch (const std::bad_alloc&) {
    failf(ACLNN_ERR_PARAM_INVALID, "aclCreateIntArray: size %llu is too large",
          static_cast<unsigned long long>(size));
    return nullptr;
  }
}

ACL_FUNC_VISIBILITY aclnnStatus aclDestroyIntArray(const aclIntArray* array) {
  if (array == nullptr) {
    return ACLNN_SUCCESS;
  }
  {
    std::lock_guard<std::mutex> lock(oa::meta_mutex());
    OA_TRY(oa::check_live_locked("aclDestroyIntArray", "aclIntArray", "aclCreateIntArray", array));
    oa::live<aclIntArray>().erase(array);
  }
  delete array;
  return ACLNN_SUCCESS;
}

ACL_FUNC_VISIBILITY aclnnStatus aclGetIntArraySize(const aclIntArray* array, uint64_t* size) {
  if (array == nullptr || size == nullptr) {
    return failf(ACLNN_ERR_PARAM_NULLPTR, "aclGetIntArraySize: %s is null",
                 array == nullptr ? "array" : "size");
  }
  std::lock_guard<std::mutex> lock(oa::meta_mutex());
  OA_TRY(oa::check_live_locked("aclGetIntArraySize", "aclIntArray", "aclCreateIntArray", array));
  *size = array->values.size();
  return ACLNN_SUCCESS;
}

}  // extern "C"
