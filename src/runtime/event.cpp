// Events of the CPU device. Work on a stream runs when it is launched (stream.cpp), so when a
// record is issued every earlier task of its stream has completed: the record completes at once
// and is stamped with the steady clock then. A wait, or a synchronize, is therefore satisfied at
// once, and the time between two records is the host time between the two calls. Events live in
// a registry, so a destroyed or foreign handle is reported, never dereferenced; a device reset
// releases them all.
#include <chrono>
#include <map>
#include <memory>

#include "acl/acl_rt.h"
#include "runtime/error.h"
#include "runtime/runtime.h"

namespace oa {
namespace {

using Clock = std::chrono::steady_clock;

constexpr uint32_t kKnownEventFlags = ACL_EVENT_SYNC | ACL_EVENT_CAPTURE_STREAM_PROGRESS |
                                      ACL_EVENT_TIME_LINE | ACL_EVENT_DEVICE_USE_ONLY |
                                      ACL_EVENT_EXTERNAL | ACL_EVENT_IPC;

struct Event {
  uint32_t flags = 0;  // recorded only: every event can be timed and waited on
  bool recorded = false;
  Clock::time_point recorded_at;
};

// Guarded by runtime_mutex().
std::map<void*, std::unique_ptr<Event>>& events() {
  static std::map<void*, std::unique_ptr<Event>> live;
  return live;
}

// The live event, or null with the failure recorded. name is the parameter's name. Caller holds
// the lock.
Event* find_event_locked(const char* api, const char* name, void* handle) {
  if (handle == nullptr) {
    failf(ACL_ERROR_RT_PARAM_INVALID, "%s: %s is null", api, name);
    return nullptr;
  }
  auto it = events().find(handle);
  if (it == events().end()) {
    failf(ACL_ERROR_RT_PARAM_INVALID,
          "%s: %s %p is not a live event (destroyed, or not from aclrtCreateEvent)%s", api, name,
          handle, handle_kind_locked(handle).c_str());
    return nullptr;
  }
  return it->second.get();
}

int create_event(const char* api, void** event, uint32_t flags) {
  if (event == nullptr) {
    return failf(ACL_ERROR_RT_PARAM_INVALID, "%s: event is null", api);
  }
  if ((flags & ~kKnownEventFlags) != 0) {
    return failf(ACL_ERROR_RT_PARAM_INVALID,
                 "%s: flag 0x%x has bits that are no ACL_EVENT_* flag (known: 0x%x)", api, flags,
                 kKnownEventFlags);
  }
  std::lock_guard<std::mutex> lock(runtime_mutex());
  if (int code = require_device_locked(api); code != ACL_SUCCESS) {
    return code;
  }
  auto created = std::make_unique<Event>();
  created->flags = flags;
  *event = created.get();
  events().emplace(created.get(), std::move(created));
  return ACL_SUCCESS;
}

// Records (or, with `record` false, resets) event in stream's order.
int mark_event(const char* api, void* handle, void* stream, bool record) {
  std::lock_guard<std::mutex> lock(runtime_mutex());
  Event* event = find_event_locked(api, "event", handle);
  if (event == nullptr) {
    return ACL_ERROR_RT_PARAM_INVALID;
  }
  if (int code = check_stream_locked(api, stream); code != ACL_SUCCESS) {
    return code;
  }
  event->recorded = record;
  event->recorded_at = record ? Clock::now() : Clock::time_point{};
  return ACL_SUCCESS;
}

// A synchronize or a wait: nothing is ever pending, so validating the handles is all there is.
int check_event(const char* api, void* handle) {
  std::lock_guard<std::mutex> lock(runtime_mutex());
  return find_event_locked(api, "event", handle) == nullptr ? ACL_ERROR_RT_PARAM_INVALID
                                                            : ACL_SUCCESS;
}

}  // namespace

bool event_is_live_locked(void* handle) { return handle != nullptr && events().count(handle); }

void release_events_locked() { events().clear(); }

}  // namespace oa

using oa::failf;

extern "C" {

ACL_FUNC_VISIBILITY aclError aclrtCreateEvent(aclrtEvent* event) {
  return oa::create_event("aclrtCreateEvent", event, 0);
}

ACL_FUNC_VISIBILITY aclError aclrtCreateEventWithFlag(aclrtEvent* event, uint32_t flag) {
  return oa::create_event("aclrtCreateEventWithFlag", event, flag);
}

ACL_FUNC_VISIBILITY aclError aclrtDestroyEvent(aclrtEvent event) {
  std::lock_guard<std::mutex> lock(oa::runtime_mutex());
  if (oa::find_event_locked("aclrtDestroyEvent", "event", event) == nullptr) {
    return ACL_ERROR_RT_PARAM_INVALID;
  }
  oa::events().erase(event);
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream) {
  return oa::mark_event("aclrtRecordEvent", event, stream, true);
}

ACL_FUNC_VISIBILITY aclError aclrtResetEvent(aclrtEvent event, aclrtStream stream) {
  return oa::mark_event("aclrtResetEvent", event, stream, false);
}

ACL_FUNC_VISIBILITY aclError aclrtStreamWaitEvent(aclrtStream stream, aclrtEvent event) {
  std::lock_guard<std::mutex> lock(oa::runtime_mutex());
  if (oa::find_event_locked("aclrtStreamWaitEvent", "event", event) == nullptr) {
    return ACL_ERROR_RT_PARAM_INVALID;
  }
  return oa::check_stream_locked("aclrtStreamWaitEvent", stream);
}

ACL_FUNC_VISIBILITY aclError aclrtSynchronizeEvent(aclrtEvent event) {
  return oa::check_event("aclrtSynchronizeEvent", event);
}

ACL_FUNC_VISIBILITY aclError aclrtSynchronizeEventWithTimeout(aclrtEvent event, int32_t timeout) {
  if (int code = oa::check_timeout("aclrtSynchronizeEventWithTimeout", timeout);
      code != ACL_SUCCESS) {
    return code;
  }
  return oa::check_event("aclrtSynchronizeEventWithTimeout", event);
}

ACL_FUNC_VISIBILITY aclError aclrtQueryEventStatus(aclrtEvent event,
                                                   aclrtEventRecordedStatus* status) {
  if (status == nullptr) {
    return failf(ACL_ERROR_RT_PARAM_INVALID, "aclrtQueryEventStatus: status is null");
  }
  std::lock_guard<std::mutex> lock(oa::runtime_mutex());
  const oa::Event* found = oa::find_event_locked("aclrtQueryEventStatus", "event", event);
  if (found == nullptr) {
    return ACL_ERROR_RT_PARAM_INVALID;
  }
  *status =
      found->recorded ? ACL_EVENT_RECORDED_STATUS_COMPLETE : ACL_EVENT_RECORDED_STATUS_NOT_READY;
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtEventElapsedTime(float* ms, aclrtEvent startEvent,
                                                   aclrtEvent endEvent) {
  constexpr const char* kApi = "aclrtEventElapsedTime";
  if (ms == nullptr) {
    return failf(ACL_ERROR_RT_PARAM_INVALID, "%s: ms is null", kApi);
  }
  std::lock_guard<std::mutex> lock(oa::runtime_mutex());
  const oa::Event* start = oa::find_event_locked(kApi, "startEvent", startEvent);
  if (start == nullptr) {
    return ACL_ERROR_RT_PARAM_INVALID;
  }
  const oa::Event* end = oa::find_event_locked(kApi, "endEvent", endEvent);
  if (end == nullptr) {
    return ACL_ERROR_RT_PARAM_INVALID;
  }
  if (!start->recorded || !end->recorded) {
    return failf(ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID,
                 "%s: %s %p has not been recorded (aclrtRecordEvent), so it has no time", kApi,
                 start->recorded ? "endEvent" : "startEvent",
                 start->recorded ? endEvent : startEvent);
  }
  if (end->recorded_at < start->recorded_at) {
    return failf(ACL_ERROR_RT_EVENT_TIMESTAMP_REVERSAL,
                 "%s: endEvent %p was recorded before startEvent %p", kApi, endEvent, startEvent);
  }
  *ms = std::chrono::duration<float, std::milli>(end->recorded_at - start->recorded_at).count();
  return ACL_SUCCESS;
}

}  // extern "C"
