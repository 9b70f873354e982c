// Filling and copying memory, with plain or with streaming (non-temporal) stores.
// Streaming stores write whole cache lines without reading them first but leave nothing in cache:
// they pay off when the output would not be in cache anyway by the time it is used again. What
// decides that is everything a launch touches, not its output alone. How much of a 32 MiB
// last-level cache a launch keeps depends on what the host's other machines do with it
// (docs/perf/runtime.md): on the 2-core AVX2 EPYC VM plain stores filled 16-32 MiB 1.2-3.4x
// faster than streaming ones on one day and 20-32 MiB 1.6-2.7x slower on another; on a Zen 5 VM
// plain stores were faster up to 32 MiB. The rule is fixed at the cache size (never learned from
// the times of earlier launches), the same in tests and in use. The bytes written are the same
// either way, so OPENACLNN_CPU_ISA=scalar does not change the choice.
#pragma once

#include <cstdint>

namespace oa::simd {

// A launch that reads and writes more than this many bytes in all counts as too large for its
// output to stay in cache until it is used again: the 32 MiB last-level cache of the VMs above.
inline constexpr int64_t kCachedBytes = int64_t{32} << 20;

// Whether a launch that reads and writes `touched_bytes` in all should write its output with
// streaming stores.
inline bool streams_output(int64_t touched_bytes) { return touched_bytes > kCachedBytes; }

// Sets bytes [dst, dst + bytes) to value, with streaming stores when `streaming` (fenced before
// it returns), else with plain stores.
void fill_bytes(void* dst, uint8_t value, int64_t bytes, bool streaming);

// Copies bytes [src, src + bytes) to dst (the two not overlapping), with streaming stores when
// `streaming` (fenced before it returns), else with memcpy.
void copy_bytes(void* dst, const void* src, int64_t bytes, bool streaming);

// Sets bytes [dst, dst + bytes) to zero except `count` elements of element_bytes (2 or 4) bytes:
// element k, whose bits are the low element_bytes bytes of bits[k], at byte offset offsets[k]
// (increasing multiples of element_bytes below bytes; dst aligned to element_bytes). One pass,
// each vector stored once, with streaming stores when `streaming` (fenced before it returns), else
// with plain stores.
void fill_sparse(void* dst, int64_t bytes, const int64_t* offsets, const uint32_t* bits,
                 int64_t count, int element_bytes, bool streaming);

// Copies bytes [src, src + bytes) to dst with streaming stores (plain ones for a head up to dst's
// first vector boundary and for the tail) and sets them to zero in src, for a block built in cache
// and then written out. The streaming stores are not fenced (store_fence in core/isa.h does that).
void stream_bytes_and_clear(void* src, int64_t bytes, void* dst);

}  // namespace oa::simd
