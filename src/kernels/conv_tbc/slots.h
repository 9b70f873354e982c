// Running the GEMM items of a Schedule: one parallel_for chunk per slot, so that no two threads
// use one slot's oneDNN objects and scratch at a time. Which thread runs a slot never changes a
// result: every item is computed whole by one single-threaded GEMM sequence.
#pragma once

#include <cstdint>

#include "aclnn/aclnn_base.h"
#include "core/parallel.h"
#include "kernels/conv_tbc/work.h"

namespace oa::tbc {

// Where each slot's private space lies in the workspace: slot s has `bytes` bytes at
// base + s * bytes: oneDNN's scratchpad first, then a float32 output tile, then a float32 tile of
// input rows.
struct SlotLayout {
  int64_t bytes = 0;
  int64_t tile_offset = 0;
  int64_t rows_offset = 0;
};

struct SlotSpace {
  void* onednn;
  float* tile;
  float* rows;
};

inline SlotSpace slot_space(char* base, const SlotLayout& layout, int slot) {
  char* own = base + slot * layout.bytes;
  return {own, reinterpret_cast<float*>(own + layout.tile_offset),
          reinterpret_cast<float*>(own + layout.rows_offset)};
}

// body(slot, item) for every item, each slot's items in order on one thread.
template <typename Body>
void for_each_slot(const Schedule& schedule, const Body& body) {
  parallel_for(schedule.slots(), [&](int64_t slot) {
    for (int64_t item = schedule.first[static_cast<size_t>(slot)];
         item < schedule.first[static_cast<size_t>(slot) + 1]; ++item) {
      body(static_cast<int>(slot), item);
    }
  });
}

// body(slot, index) for index < count, cut into `slots` equal contiguous shares.
template <typename Body>
void for_each_share(int slots, int64_t count, const Body& body) {
  parallel_for(slots, [&](int64_t slot) {
    for (int64_t index = count * slot / slots; index < count * (slot + 1) / slots; ++index) {
      body(static_cast<int>(slot), index);
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

// Records and returns the failure of a oneDNN product during op's run (561000).
aclnnStatus gemm_failure(const char* op);

}  // namespace oa::tbc
