// Process-wide state of the CPU device: initialization, the device's reference count, and the lock
// that serializes changes to the registries of allocations, streams and contexts.
#pragma once

#include <cstdint>
#include <mutex>
#include <string>

namespace oa {

std::mutex& runtime_mutex();

// Caller holds runtime_mutex(). ACL_SUCCESS when the device is set; otherwise fails with
// ACL_ERROR_RT_CONTEXT_NULL and a message naming api.
int require_device_locked(const char* api);

// Caller holds runtime_mutex(). Releases every allocation, stream and event (device reset).
void release_memory_locked();
void release_streams_locked();
void release_events_locked();

// Caller holds runtime_mutex(). Whether handle is a live object of each kind (null never is).
bool stream_is_live_locked(void* handle);
bool context_is_live_locked(void* handle);
bool event_is_live_locked(void* handle);

// Caller holds runtime_mutex(). For a message about a handle of the wrong kind: " (it is a
// stream)" and the like when handle is a live object of some kind, else "".
std::string handle_kind_locked(void* handle);

// Caller holds runtime_mutex(). Whether stream is null (the default stream) or a live stream.
bool stream_is_valid_locked(void* stream);

// ACL_SUCCESS when stream is usable by api (null, the default stream, or live), else the code
// with the failure recorded. The _locked form expects the caller to hold runtime_mutex().
int check_stream(const char* api, void* stream);
int check_stream_locked(const char* api, void* stream);

// ACL_SUCCESS for a wait's timeout: -1 or 0 (no limit), or > 0 milliseconds.
int check_timeout(const char* api, int32_t timeout_ms);

}  // namespace oa
