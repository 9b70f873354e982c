// The vector body of the traffic-matched loop (traffic.h), compiled for every Highway target
// and dispatched at run time (the bench itself is compiled for baseline x86-64).
#pragma once

#include <cstddef>
#include <cstdint>

namespace oa::bench {

// Every stream's buffer starts on a 64-byte boundary. The loop's `blocks` cut every stream: block
// g of a stream of n bytes is [block_begin(n, g, blocks), block_begin(n, g + 1, blocks)).
struct Streams {
  const uint8_t* const* in;
  const size_t* in_bytes;
  int inputs;
  uint8_t* const* out;
  const size_t* out_bytes;
  int outputs;
  int64_t blocks;
};

// Block g's first byte: the fraction g / blocks of n, down to a cache line; n for g == blocks.
// Interior boundaries are multiples of 64 bytes, so every block but a stream's last is made of
// whole, aligned vectors on every x86 target.
inline size_t block_begin(size_t n, int64_t g, int64_t blocks) {
  if (g >= blocks) {
    return n;
  }
  return static_cast<size_t>(static_cast<uint64_t>(n) * static_cast<uint64_t>(g) /
                             static_cast<uint64_t>(blocks)) /
         64 * 64;
}

// Runs blocks [first, end) of `streams`, with streaming stores when `streaming` (not fenced: the
// caller fences once after its last call). Returns the sum of what it read (modulo 2^32), which
// the caller stores, so that the reads of a loop without outputs are consumed too.
uint32_t traffic_blocks(const Streams& streams, int64_t first, int64_t end, bool streaming);

}  // namespace oa::bench
