#include "ops/conv/work.h"

#include <algorithm>

namespace oa::conv {

namespace {

constexpr int64_t kPieceFloats = 16384;

}  // namespace

void RowLoops::add(int id, int64_t rows, int64_t row_floats) {
  if (rows <= 0) {
    return;
  }
  const int64_t step = rows_per_piece(row_floats);
  loops_.reserve(kLoopsReserved);
  loops_.push_back({id, rows, step, pieces_});
  pieces_ += (rows + step - 1) / step;
  floats_ += rows * std::max<int64_t>(row_floats, 1);
}

bool RowLoops::parallel() const { return floats_ >= 4 * kPieceFloats; }

RowLoops::Piece RowLoops::piece(int64_t index) const {
  auto later = std::upper_bound(loops_.begin(), loops_.end(), index,
                                [](int64_t i, const Loop& loop) { return i < loop.first_piece; });
  const Loop& loop = *(later - 1);
  const int64_t begin = (index - loop.first_piece) * loop.step;
  return {loop.id, begin, std::min(loop.rows, begin + loop.step)};
}

int64_t rows_per_piece(int64_t row_floats) {
  return std::max<int64_t>(1, kPieceFloats / std::max<int64_t>(row_floats, 1));
}

}  // namespace oa::conv
