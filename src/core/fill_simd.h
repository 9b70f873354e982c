// Filling memory with one byte value, the way that is fastest for the size of the whole output.
// Measured with bench case runtime/memset (docs/perf/adaptive_max_pool2d.md has the numbers): on
// a Zen 5 server with a 32 MiB last-level cache, for an output that stays in that cache plain
// 512-bit stores ran 1.2-1.4x faster than glibc's memset, which uses `rep stosb` there; for an
// output of 64 MiB and more, streaming (non-temporal) stores, which write whole lines without
// reading them first, ran 1.6x faster than plain stores and somewhat faster than memset. The bytes
// written are the same either way, so OPENACLNN_CPU_ISA=scalar does not change the choice.
#pragma once

#include <cstdint>

namespace oa::simd {

// Up to this many bytes an output counts as cache-resident (plain and streaming stores tie at
// about 48 MiB on the machine above).
inline constexpr int64_t kCachedOutputBytes = int64_t{48} << 20;

// Sets bytes [dst, dst + bytes) to value; they are part of an output of output_bytes in all, which
// decides between plain and streaming stores. Streaming stores are fenced before it returns.
void fill_bytes(void* dst, uint8_t value, int64_t bytes, int64_t output_bytes);

}  // namespace oa::simd
