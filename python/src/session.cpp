#include "session.h"

#include <cstdlib>

#include "acl/acl.h"

namespace oa::python {
namespace {

std::mutex& call_mutex() {
  static std::mutex mutex;
  return mutex;
}

// aclInit once per process, aclrtSetDevice once per thread that calls (CANN's current context is
// per thread); the device stays set for the life of the process.
std::optional<Failure> ensure_device() {
  static bool initialized = false;
  thread_local bool device_set = false;
  if (!initialized) {
    const aclError status = aclInit(nullptr);
    if (status != ACL_SUCCESS && status != ACL_ERROR_REPEAT_INITIALIZE) {
      return failure("aclInit", status);
    }
    initialized = true;
  }
  if (!device_set) {
    if (auto failed = failure("aclrtSetDevice", aclrtSetDevice(0))) {
      return failed;
    }
    device_set = true;
  }
  return std::nullopt;
}

}  // namespace

std::optional<Failure> failure(const std::string& api, int status) {
  if (status == 0) {
    return std::nullopt;
  }
  return Failure{api, status, aclGetRecentErrMsg()};
}

CallScope::CallScope(const std::string& impl, int threads) : lock_(call_mutex()) {
  if (!impl.empty()) {
    set(&impl_, impl);
  }
  if (threads > 0) {
    set(&threads_, std::to_string(threads));
  }
  device_failure_ = ensure_device();
}

CallScope::~CallScope() {
  restore(impl_);
  restore(threads_);
}

void CallScope::set(Saved* saved, const std::string& value) {
  if (const char* previous = std::getenv(saved->name)) {
    saved->previous = previous;
  }
  saved->set = true;
  setenv(saved->name, value.c_str(), 1);
}

void CallScope::restore(const Saved& saved) {
  if (!saved.set) {
    return;
  }
  if (saved.previous) {
    setenv(saved.name, saved.previous->c_str(), 1);
  } else {
    unsetenv(saved.name);
  }
}

}  // namespace oa::python
