#include "kernels/conv_tbc/work.h"

#include <algorithm>

namespace oa::tbc {

namespace {

constexpr int64_t kPieceFloats = 16384;

}  // namespace

void RowLoops::add(int id, int64_t rows, int64_t row_floats) {
  if (rows <= 0) {
    return;
  }
  const int64_t step = rows_per_piece(row_floats);
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

Schedule balance(const std::vector<double>& costs, int slots) {
  const auto items = static_cast<int64_t>(costs.size());
  slots = static_cast<int>(std::clamp<int64_t>(slots, 1, std::max<int64_t>(items, 1)));
  double total = 0;
  for (double cost : costs) {
    total += cost;
  }
  // Item i goes to the slot that holds the middle of its cost interval.
  Schedule schedule;
  schedule.first.assign(static_cast<size_t>(slots) + 1, items);
  schedule.first[0] = 0;
  double before = 0;
  int slot = 0;
  for (int64_t i = 0; i < items; ++i) {
    const double middle = before + costs[static_cast<size_t>(i)] / 2;
    const int owner = total > 0 ? std::min(slots - 1, static_cast<int>(middle / total * slots))
                                : static_cast<int>(i * slots / items);
    while (slot < owner) {
      schedule.first[static_cast<size_t>(++slot)] = i;
    }
    before += costs[static_cast<size_t>(i)];
  }
  return schedule;
}

}  // namespace oa::tbc
