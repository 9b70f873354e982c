// What a handle is, for messages about a handle passed where another kind was expected.
#include "runtime/runtime.h"

namespace oa {

std::string handle_kind_locked(void* handle) {
  if (stream_is_live_locked(handle)) {
    return " (it is a stream)";
  }
  if (event_is_live_locked(handle)) {
    return " (it is an event)";
  }
  if (context_is_live_locked(handle)) {
    return " (it is a context)";
  }
  return "";
}

}  // namespace oa
