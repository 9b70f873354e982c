// Filling and copying memory, with plain or with streaming (non-temporal) stores.
// Streaming stores write whole cache lines without reading them first but leave nothing in cache:
// they pay off when the output would not be in cache anyway by the time it is used again. What
// decides that is everything a launch touches, not its output alone. Measured (in-process A/B,
// docs/perf/runtime.md): on a 2-core EPYC VM whose 32 MiB last-level cache is shared
// with other machines, plain stores filled 8-16 MiB 1.0-1.7x faster, streaming stores 20-48 MiB
// 1.6-3x faster, and pooling backward launches touching 18-32 MiB ran 1.4-2.4x faster streamed,
// while one touching 16 MiB ran 1.6x slower. On a Zen 5 server with that cache to itself, plain
// stores were 1.0-1.3x faster up to 32 MiB and streaming stores faster from 48 MiB, so launches
// of 17-32 MiB may lose up to that much there. The rule is fixed (never learned from the times of
// earlier launches), the same in tests and in use. The bytes written are the same either way, so
// OPENACLNN_CPU_ISA=scalar does not change the choice.
#pragma once

#include <cstdint>

namespace oa::simd {

// A launch that reads and writes more than this many bytes in all counts as too large for its
// output to stay in cache until it is used again: just over half a 32 MiB last-level cache, the
// crossover on the VM above.
inline constexpr int64_t kCachedBytes = int64_t{17} << 20;

// Whether a launch that reads and writes `touched_bytes` in all should write its output with
// streaming stores.
inline bool streams_output(int64_t touched_bytes) { return touched_bytes > kCachedBytes; }

// Sets bytes [dst, dst + bytes) to value, with streaming stores when `streaming` (fenced before
// it returns), else with plain stores.
void fill_bytes(void* dst, uint8_t value, int64_t bytes, bool streaming);

// Copies bytes [src, src + bytes) to dst (the two not overlapping), with streaming stores when
// `streaming` (fenced before it returns), else with memcpy.
void copy_bytes(void* dst, const void* src, int64_t bytes, bool streaming);

// Copies bytes [src, src + bytes) to dst with streaming stores (plain ones for a head up to dst's
// first vector boundary and for the tail) and sets them to zero in src, for a block built in cache
// and then written out. The streaming stores are not fenced (store_fence in core/isa.h does that).
void stream_bytes_and_clear(void* src, int64_t bytes, void* dst);

}  // namespace oa::simd
