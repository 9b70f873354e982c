// The meta C API for tensor and scalar lists and for float and bool arrays. Every live handle is
// in a registry (one mutex for all of them): destroying or asking about a handle that is not live
// is reported, never dereferenced. A list owns its elements; which list owns each element is
// recorded too, so that one element cannot be put in two lists (or twice in one) and destroyed
// twice.
#include <memory>
#include <mutex>
#include <new>
#include <unordered_map>
#include <unordered_set>

#include "aclnn/aclnn_base.h"
#include "core/handles.h"
#include "core/lists.h"
#include "core/tensor.h"
#include "core/values.h"
#include "runtime/error.h"

namespace oa {
namespace {

// Element -> the live list that owns it. Guarded by meta_mutex().
template <typename Element, typename List>
std::unordered_map<const Element*, const List*>& owners() {
  static std::unordered_map<const Element*, const List*> owned;
  return owned;
}

// What the messages call each type and its functions.
template <typename List>
struct ListTraits;

template <>
struct ListTraits<aclTensorList> {
  using Element = aclTensor;
  static constexpr const char* kType = "aclTensorList";
  static constexpr const char* kCreate = "aclCreateTensorList";
  static constexpr const char* kDestroy = "aclDestroyTensorList";
  static constexpr const char* kGetSize = "aclGetTensorListSize";
  static constexpr const char* kElement = "tensor";
  static constexpr const char* kHandle = "tensorList";
  static std::vector<aclTensor*>& elements(aclTensorList& list) { return list.tensors; }
  static const std::vector<aclTensor*>& elements(const aclTensorList& list) { return list.tensors; }
};

template <>
struct ListTraits<aclScalarList> {
  using Element = aclScalar;
  static constexpr const char* kType = "aclScalarList";
  static constexpr const char* kCreate = "aclCreateScalarList";
  static constexpr const char* kDestroy = "aclDestroyScalarList";
  static constexpr const char* kGetSize = "aclGetScalarListSize";
  static constexpr const char* kElement = "scalar";
  static constexpr const char* kHandle = "scalarList";
  static std::vector<aclScalar*>& elements(aclScalarList& list) { return list.scalars; }
  static const std::vector<aclScalar*>& elements(const aclScalarList& list) { return list.scalars; }
};

template <typename Array>
struct ArrayTraits;

template <>
struct ArrayTraits<aclFloatArray> {
  using Value = float;
  static constexpr const char* kType = "aclFloatArray";
  static constexpr const char* kCreate = "aclCreateFloatArray";
  static constexpr const char* kDestroy = "aclDestroyFloatArray";
  static constexpr const char* kGetSize = "aclGetFloatArraySize";
};

template <>
struct ArrayTraits<aclBoolArray> {
  using Value = bool;
  static constexpr const char* kType = "aclBoolArray";
  static constexpr const char* kCreate = "aclCreateBoolArray";
  static constexpr const char* kDestroy = "aclDestroyBoolArray";
  static constexpr const char* kGetSize = "aclGetBoolArraySize";
};

unsigned long long ull(uint64_t value) { return static_cast<unsigned long long>(value); }

template <typename List>
List* create_list(const typename ListTraits<List>::Element* const* value, uint64_t size) {
  using Traits = ListTraits<List>;
  using Element = typename Traits::Element;
  if (value == nullptr && size != 0) {
    failf(ACLNN_ERR_PARAM_NULLPTR, "%s: value is null but size is %llu", Traits::kCreate,
          ull(size));
    return nullptr;
  }
  if (size > std::vector<Element*>().max_size()) {
    failf(ACLNN_ERR_PARAM_INVALID, "%s: size %llu is too large", Traits::kCreate, ull(size));
    return nullptr;
  }
  try {
    auto list = std::make_unique<List>();
    auto& elements = Traits::elements(*list);
    elements.reserve(size);
    std::lock_guard<std::mutex> lock(meta_mutex());
    auto& owned = owners<Element, List>();
    std::unordered_map<const Element*, uint64_t> seen;
    for (uint64_t i = 0; i < size; ++i) {
      const Element* element = value[i];
      if (element != nullptr) {
        if (auto it = owned.find(element); it != owned.end()) {
          failf(ACLNN_ERR_PARAM_INVALID, "%s: value[%llu] (%p) already belongs to %s %p",
                Traits::kCreate, ull(i), static_cast<const void*>(element), Traits::kType,
                static_cast<const void*>(it->second));
          return nullptr;
        }
        if (auto [it, fresh] = seen.emplace(element, i); !fresh) {
          failf(ACLNN_ERR_PARAM_INVALID, "%s: value[%llu] is the same %s as value[%llu] (%p)",
                Traits::kCreate, ull(i), Traits::kElement, ull(it->second),
                static_cast<const void*>(element));
          return nullptr;
        }
      }
      // The list takes ownership: it destroys its elements, so it holds them as mutable.
      elements.push_back(const_cast<Element*>(element));
    }
    for (const Element* element : elements) {
      if (element != nullptr) {
        owned.emplace(element, list.get());
      }
    }
    live<List>().insert(list.get());
    return list.release();
  } catch (const std::bad_alloc&) {
    failf(ACLNN_ERR_PARAM_INVALID, "%s: size %llu is too large", Traits::kCreate, ull(size));
    return nullptr;
  }
}

template <typename List>
aclnnStatus destroy_list(const List* list) {
  using Traits = ListTraits<List>;
  using Element = typename Traits::Element;
  if (list == nullptr) {
    return ACLNN_SUCCESS;
  }
  std::unique_ptr<List> owned_list;
  {
    std::lock_guard<std::mutex> lock(meta_mutex());
    if (aclnnStatus status =
            check_live_locked(Traits::kDestroy, Traits::kType, Traits::kCreate, list);
        status != ACLNN_SUCCESS) {
      return status;
    }
    live<List>().erase(list);
    owned_list.reset(const_cast<List*>(list));
    for (const Element* element : Traits::elements(*owned_list)) {
      owners<Element, List>().erase(element);
    }
  }
  for (Element* element : Traits::elements(*owned_list)) {
    delete element;
  }
  return ACLNN_SUCCESS;
}

// The element count of a live list or array: 161001 for a null argument, 161002 for a handle
// that is not live. count(handle) is read under the lock.
template <typename T, typename Count>
aclnnStatus get_size(const char* api, const char* type, const char* create, const char* name,
                     const T* handle, uint64_t* size, Count count) {
  if (handle == nullptr || size == nullptr) {
    return failf(ACLNN_ERR_PARAM_NULLPTR, "%s: %s is null", api, handle == nullptr ? name : "size");
  }
  std::lock_guard<std::mutex> lock(meta_mutex());
  if (aclnnStatus status = check_live_locked(api, type, create, handle); status != ACLNN_SUCCESS) {
    return status;
  }
  *size = count(*handle);
  return ACLNN_SUCCESS;
}

template <typename Array>
Array* create_array(const typename ArrayTraits<Array>::Value* value, uint64_t size) {
  using Traits = ArrayTraits<Array>;
  if (value == nullptr && size != 0) {
    failf(ACLNN_ERR_PARAM_NULLPTR, "%s: value is null but size is %llu", Traits::kCreate,
          ull(size));
    return nullptr;
  }
  if (size > std::vector<typename Traits::Value>().max_size()) {
    failf(ACLNN_ERR_PARAM_INVALID, "%s: size %llu is too large", Traits::kCreate, ull(size));
    return nullptr;
  }
  try {
    auto array = std::make_unique<Array>();
    array->values.assign(value, value + size);
    std::lock_guard<std::mutex> lock(meta_mutex());
    live<Array>().insert(array.get());
    return array.release();
  } catch (const std::bad_alloc&) {
    failf(ACLNN_ERR_PARAM_INVALID, "%s: size %llu is too large", Traits::kCreate, ull(size));
    return nullptr;
  }
}

template <typename Array>
aclnnStatus destroy_array(const Array* array) {
  using Traits = ArrayTraits<Array>;
  if (array == nullptr) {
    return ACLNN_SUCCESS;
  }
  std::lock_guard<std::mutex> lock(meta_mutex());
  if (aclnnStatus status =
          check_live_locked(Traits::kDestroy, Traits::kType, Traits::kCreate, array);
      status != ACLNN_SUCCESS) {
    return status;
  }
  live<Array>().erase(array);
  delete array;
  return ACLNN_SUCCESS;
}

template <typename List>
aclnnStatus list_size(const List* list, uint64_t* size) {
  using Traits = ListTraits<List>;
  return get_size(Traits::kGetSize, Traits::kType, Traits::kCreate, Traits::kHandle, list, size,
                  [](const List& l) { return Traits::elements(l).size(); });
}

template <typename Array>
aclnnStatus array_size(const Array* array, uint64_t* size) {
  using Traits = ArrayTraits<Array>;
  return get_size(Traits::kGetSize, Traits::kType, Traits::kCreate, "array", array, size,
                  [](const Array& a) { return a.values.size(); });
}

template <typename Element, typename List>
const List* owner_of(const Element* element) {
  std::lock_guard<std::mutex> lock(meta_mutex());
  auto& owned = owners<Element, List>();
  auto it = owned.find(element);
  return it == owned.end() ? nullptr : it->second;
}

}  // namespace

bool is_live(const aclTensorList* list) { return is_live_handle(list); }
bool is_live(const aclScalarList* list) { return is_live_handle(list); }
bool is_live(const aclFloatArray* array) { return is_live_handle(array); }
bool is_live(const aclBoolArray* array) { return is_live_handle(array); }

const aclTensorList* owning_list(const aclTensor* tensor) {
  return owner_of<aclTensor, aclTensorList>(tensor);
}

const aclScalarList* owning_list(const aclScalar* scalar) {
  return owner_of<aclScalar, aclScalarList>(scalar);
}

}  // namespace oa

extern "C" {

ACL_FUNC_VISIBILITY aclTensorList* aclCreateTensorList(const aclTensor* const* value,
                                                       uint64_t size) {
  return oa::create_list<aclTensorList>(value, size);
}

ACL_FUNC_VISIBILITY aclnnStatus aclDestroyTensorList(const aclTensorList* array) {
  return oa::destroy_list(array);
}

ACL_FUNC_VISIBILITY aclScalarList* aclCreateScalarList(const aclScalar* const* value,
                                                       uint64_t size) {
  return oa::create_list<aclScalarList>(value, size);
}

ACL_FUNC_VISIBILITY aclnnStatus aclDestroyScalarList(const aclScalarList* array) {
  return oa::destroy_list(array);
}

ACL_FUNC_VISIBILITY aclFloatArray* aclCreateFloatArray(const float* value, uint64_t size) {
  return oa::create_array<aclFloatArray>(value, size);
}

ACL_FUNC_VISIBILITY aclnnStatus aclDestroyFloatArray(const aclFloatArray* array) {
  return oa::destroy_array(array);
}

ACL_FUNC_VISIBILITY aclBoolArray* aclCreateBoolArray(const bool* value, uint64_t size) {
  return oa::create_array<aclBoolArray>(value, size);
}

ACL_FUNC_VISIBILITY aclnnStatus aclDestroyBoolArray(const aclBoolArray* array) {
  return oa::destroy_array(array);
}

ACL_FUNC_VISIBILITY aclnnStatus aclGetTensorListSize(const aclTensorList* tensorList,
                                                     uint64_t* size) {
  return oa::list_size(tensorList, size);
}

ACL_FUNC_VISIBILITY aclnnStatus aclGetScalarListSize(const aclScalarList* scalarList,
                                                     uint64_t* size) {
  return oa::list_size(scalarList, size);
}

ACL_FUNC_VISIBILITY aclnnStatus aclGetFloatArraySize(const aclFloatArray* array, uint64_t* size) {
  return oa::array_size(array, size);
}

ACL_FUNC_VISIBILITY aclnnStatus aclGetBoolArraySize(const aclBoolArray* array, uint64_t* size) {
  return oa::array_size(array, size);
}

}  // extern "C"
