// How the ConvTbc work is cut into pieces for oa::parallel_for. Every cut is fixed in phase 1 from
// the problem alone, never from the thread count, and no result depends on it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace oa::conv {

// Several independent copy-like loops over rows run as one parallel_for: loop `id` covers rows
// [0, rows) of row_floats values each, in pieces of about 64 KiB of float32. When all the loops
// together move little, one thread runs them: waking threads would cost more than it saves.
class RowLoops {
 public:
  struct Piece {
    int id;
    int64_t begin;
    int64_t end;
  };

  void add(int id, int64_t rows, int64_t row_floats);
  int64_t pieces() const { return pieces_; }
  Piece piece(int64_t index) const;
  bool parallel() const;

 private:
  struct Loop {
    int id;
    int64_t rows;
    int64_t step;
    int64_t first_piece;
  };
  static constexpr size_t kLoopsReserved = 8;  // more than any plan adds: one allocation
  std::vector<Loop> loops_;
  int64_t pieces_ = 0;
  int64_t floats_ = 0;
};

// The rows a piece of RowLoops holds, for rows of row_floats values.
int64_t rows_per_piece(int64_t row_floats);

// Work below this many FLOPs per slot is not worth another thread.
constexpr double kFlopsPerSlot = 4e6;

}  // namespace oa::conv
