// Process-wide state of the CPU device: initialization, the device's reference count, and the lock
// that serializes changes to the registries of allocations, streams and contexts.
#pragma once

#include <mutex>

namespace oa {

std::mutex& runtime_mutex();

// Caller holds runtime_mutex(). ACL_SUCCESS when the device is set; otherwise fails with
// ACL_ERROR_RT_CONTEXT_NULL and a message naming api.
int require_device_locked(const char* api);

// Caller holds runtime_mutex(). Releases every allocation and stream (device reset).
void release_memory_locked();
void release_streams_locked();

// Caller holds runtime_mutex(). Whether stream is null (the default stream) or a live stream.
bool stream_is_valid_locked(void* stream);

// ACL_SUCCESS when stream is usable by api (null, the default stream, or live), else the code.
int check_stream(const char* api, void* stream);

}  // namespace oa
