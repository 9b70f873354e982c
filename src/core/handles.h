// The registry of live meta handles (tensors, scalars, arrays, lists): each aclCreate* records its
// handle, each aclDestroy* removes it, so that a destroyed or foreign handle given to the meta API
// or to an operator is reported (161002) instead of dereferenced.
#pragma once

#include <mutex>
#include <unordered_set>

#include "runtime/error.h"

namespace oa {

// Guards every registry of handles (and the lists' ownership of their elements).
inline std::mutex& meta_mutex() {
  static std::mutex mutex;
  return mutex;
}

// The live handles of one type. Guarded by meta_mutex().
template <typename T>
std::unordered_set<const T*>& live() {
  static std::unordered_set<const T*> handles;
  return handles;
}

// Caller holds meta_mutex(). 161002 with a message unless handle is a live T (of the named type,
// made by create).
template <typename T>
int check_live_locked(const char* api, const char* type, const char* create, const T* handle) {
  if (live<T>().count(handle) == 0) {
    return failf(161002, "%s: %p is not a live %s (destroyed, or not from %s)", api,
                 static_cast<const void*>(handle), type, create);
  }
  return 0;
}

// Whether handle is a live T; null is not.
template <typename T>
bool is_live_handle(const T* handle) {
  std::lock_guard<std::mutex> lock(meta_mutex());
  return handle != nullptr && live<T>().count(handle) != 0;
}

}  // namespace oa
