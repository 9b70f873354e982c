#include "ops/pooling/pool_plan.h"

#include <algorithm>

#include "base/dtype.h"

namespace oa::pooling {
namespace {

constexpr int64_t kScratchBudget = int64_t{8} << 20;
// Chunk counts are multiples of this (where there are enough units), so that 2, 4 or 8 threads
// get as many chunks each: 5 chunks on 2 threads, 3 on one and 2 on the other, ran 0.83-0.88x of 8
// (float32 and bfloat16 16x64x32x32 to 16x16 backward, in-process A/B).
constexpr int64_t kChunkMultiple = 8;
constexpr int64_t kMinScratchChunks = kChunkMultiple;

}  // namespace

View view_of(const aclTensor& tensor) {
  const Shape& s = tensor.strides;
  View v;
  // An empty view is never read: its offset and strides, which no memory check bounds, stay out
  // of every address a kernel forms (they overflowed one).
  if (numel(tensor) == 0) {
    v.data = tensor.data;
    return v;
  }
  v.data = first_element(tensor);
  const size_t rank = s.size();
  v.sn = rank == 4 ? s[0] : 0;
  v.sc = s[rank - 3];
  v.sh = s[rank - 2];
  v.sw = s[rank - 1];
  return v;
}

Dims dims_of(const aclTensor& self, int64_t ho, int64_t wo) {
  const Shape& s = self.shape;
  const size_t rank = s.size();
  Dims d;
  d.n = rank == 4 ? s[0] : 1;
  d.c = s[rank - 3];
  d.h = s[rank - 2];
  d.w = s[rank - 1];
  d.ho = ho;
  d.wo = wo;
  return d;
}

bool channels_innermost(const View& v, const Dims& dims) {
  if (dims.c <= 1 || v.sc != 1 || dims.h * dims.w <= 1) {
    return false;
  }
  return (dims.w > 1 ? v.sw : v.sh) != 1;
}

Split split_work(int64_t units, int64_t unit_work, int64_t slot_bytes, int64_t chunk_work) {
  Split split;
  split.units = units;
  split.slot_bytes = slot_bytes;
  if (units == 0) {
    return split;
  }
  const __int128 work = static_cast<__int128>(units) * std::max<int64_t>(unit_work, 1);
  int64_t chunks = static_cast<int64_t>(std::min<__int128>(work / chunk_work, kMaxChunks));
  if (chunks > 1) {
    chunks = (chunks + kChunkMultiple - 1) / kChunkMultiple * kChunkMultiple;
  }
  if (slot_bytes > 0) {
    const int64_t budget_chunks = kScratchBudget / slot_bytes / kChunkMultiple * kChunkMultiple;
    chunks = std::min(chunks, std::max(kMinScratchChunks, budget_chunks));
  }
  chunks = std::min(chunks, units);
  split.chunks = std::max<int64_t>(chunks, 1);
  return split;
}

}  // namespace oa::pooling
