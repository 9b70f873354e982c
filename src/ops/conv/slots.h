// Running GEMM items on slots: one parallel_for chunk per slot, so that no two threads use one
// slot's oneDNN objects and space at a time. Each slot claims the next unclaimed item until none
// is left, so a thread that the system slows down takes fewer items. Which slot runs an item
// never changes a result: every item is computed whole, by one single-threaded GEMM sequence,
// into outputs no other item writes.
#pragma once

#include <atomic>
#include <cstdint>

#include "aclnn/aclnn_base.h"
#include "base/parallel.h"
#include "ops/conv/work.h"

namespace oa::conv {

// Where each slot's private space lies in the workspace: slot s has `bytes` bytes at
// base + s * bytes: oneDNN's scratchpad first, then a float32 output tile, then a tile of input
// rows (sized for float32).
struct SlotLayout {
  int64_t bytes = 0;
  int64_t tile_offset = 0;
  int64_t rows_offset = 0;
};

struct SlotSpace {
  void* onednn;
  float* tile;
  char* rows;  // operands of the product's precision
};

inline SlotSpace slot_space(char* base, const SlotLayout& layout, int slot) {
  char* own = base + slot * layout.bytes;
  return {own, reinterpret_cast<float*>(own + layout.tile_offset), own + layout.rows_offset};
}

// parallel_for(chunks, body), but a single chunk runs inline: a small problem then pays for no
// thread-count lookup (a system call in the core's num_threads()) and no thread wake-up.
template <typename Body>
void run_chunks(int64_t chunks, const Body& body) {
  if (chunks == 1) {
    body(0);
  } else {
    parallel_for(chunks, body);
  }
}

// body(slot, item) for every item < items, on `slots` slots.
template <typename Body>
void for_each_item(int slots, int64_t items, const Body& body) {
  std::atomic<int64_t> next{0};
  run_chunks(slots, [&](int64_t slot) {
    for (int64_t item = next.fetch_add(1); item < items; item = next.fetch_add(1)) {
      body(static_cast<int>(slot), item);
    }
  });
}

// body(i) for every piece of the loops, on several threads only when the loops are large.
template <typename Body>
void for_each_piece(const RowLoops& loops, const Body& body) {
  if (!loops.parallel()) {
    for (int64_t i = 0; i < loops.pieces(); ++i) {
      body(loops.piece(i));
    }
    return;
  }
  parallel_for(loops.pieces(), [&](int64_t i) { body(loops.piece(i)); });
}

}  // namespace oa::conv
