// What every call of the package holds while it runs: one process-wide lock, the environment that
// selects the implementation and the thread count, and a device on the calling thread.
#pragma once

#include <mutex>
#include <optional>
#include <string>

#include "aclnn/aclnn_base.h"

namespace oa::python {

// A failed step: the function that failed, its code and the library's message.
struct Failure {
  std::string api;
  int code = 0;
  std::string message;
};

// Takes the lock, sets OPENACLNN_IMPL and OPENACLNN_NUM_THREADS for the call (empty / 0: left as
// the process has them) and makes device 0 current on this thread; restores both variables and
// releases the lock when it goes. The library reads the variables in phase 1 (the implementation)
// and at each launch (the threads), so the whole call runs under the lock: no other call of the
// package sees them, and no two calls interleave their phases.
class CallScope {
 public:
  CallScope(const std::string& impl, int threads);
  ~CallScope();
  CallScope(const CallScope&) = delete;
  CallScope& operator=(const CallScope&) = delete;

  // Set when aclInit or aclrtSetDevice failed; nothing may run then.
  const std::optional<Failure>& device_failure() const { return device_failure_; }

 private:
  struct Saved {
    explicit Saved(const char* variable) : name(variable) {}
    const char* name;
    bool set = false;
    std::optional<std::string> previous;
  };
  void set(Saved* saved, const std::string& value);
  static void restore(const Saved& saved);

  std::lock_guard<std::mutex> lock_;
  Saved impl_{"OPENACLNN_IMPL"};
  Saved threads_{"OPENACLNN_NUM_THREADS"};
  std::optional<Failure> device_failure_;
};

// The failure of status (nullopt for success), with aclGetRecentErrMsg().
std::optional<Failure> failure(const std::string& api, int status);

}  // namespace oa::python
