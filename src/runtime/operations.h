// The runtime's operations behind both C layers: CANN's aclrt* functions and the lower rt* layer
// (libruntime.so) call the same code, so they share one device, one set of registries, the same
// checks and the same messages. Each takes the public function's name for its messages.
// (Internal headers here must not take the names of the public include/runtime/*.h.)
#pragma once

#include <cstddef>
#include <cstdint>

#include "acl/acl_rt.h"

namespace oa {

// Device 0. `needs_init`: aclrtSetDevice needs aclInit first; rtSetDevice, a layer below, does
// not. Each set is counted; the device is released when resets have matched every set.
int set_device(const char* api, int32_t device_id, bool needs_init);
int reset_device(const char* api, int32_t device_id);

int create_context(const char* api, void** context, int32_t device_id);
int destroy_context(const char* api, void* context);
int set_current_context(const char* api, void* context);

// priority and flags are recorded only (work runs as it is launched).
int create_stream(const char* api, void** stream, uint32_t priority, uint32_t flags);
int destroy_stream(const char* api, void* stream);
// A stream's work is done when launched, so synchronizing validates the stream (null: the
// default stream) and the timeout: -1 or 0 wait without limit, > 0 is in milliseconds.
int synchronize_stream(const char* api, void* stream, int32_t timeout_ms);

// The device's floating-point overflow mode; INFNAN until set, and again after a reset.
int set_sat_mode(const char* api, int mode);
int get_sat_mode(const char* api, int* mode);

// Device memory. policy chooses the pages as for aclrtMalloc; pair_api names the allocator a
// pointer should have come from, for the message when it did not.
int allocate_device_memory(const char* api, void** ptr, size_t size, aclrtMemMallocPolicy policy);
int free_device_memory(const char* api, void* ptr, const char* pair_api);
int copy_memory(const char* api, void* dst, size_t dest_max, const void* src, size_t count,
                aclrtMemcpyKind kind, void* stream);

}  // namespace oa
