// Highway compiles this file once per SIMD target (foreach_target.h re-includes it); HWY_ONCE
// holds the dispatching entry point.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "traffic_simd.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "traffic_simd.h"

HWY_BEFORE_NAMESPACE();
namespace oa::bench {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

using D = hn::ScalableTag<uint32_t>;
using V = hn::Vec<D>;

// Adds bytes [begin, end) of p, begin on a 64-byte boundary, to *sum as 32-bit lanes, and the bytes
// after the last whole vector to *tail. Four sums, so that the adds do not wait on each other.
HWY_INLINE void Read(const uint8_t* p, size_t begin, size_t end, V* sum, uint32_t* tail) {
  const D d;
  const size_t vector = hn::Lanes(d) * sizeof(uint32_t);
  V a0 = hn::Zero(d);
  V a1 = hn::Zero(d);
  V a2 = hn::Zero(d);
  V a3 = hn::Zero(d);
  const auto at = [p](size_t i) { return reinterpret_cast<const uint32_t*>(p + i); };
  size_t i = begin;
  for (; i + 4 * vector <= end; i += 4 * vector) {
    a0 = hn::Add(a0, hn::Load(d, at(i)));
    a1 = hn::Add(a1, hn::Load(d, at(i + vector)));
    a2 = hn::Add(a2, hn::Load(d, at(i + 2 * vector)));
    a3 = hn::Add(a3, hn::Load(d, at(i + 3 * vector)));
  }
  for (; i + vector <= end; i += vector) {
    a0 = hn::Add(a0, hn::Load(d, at(i)));
  }
  for (; i < end; ++i) {
    *tail += p[i];
  }
  *sum = hn::Add(*sum, hn::Add(hn::Add(a0, a1), hn::Add(a2, a3)));
}

// Writes v over bytes [begin, end) of p, begin on a 64-byte boundary; the bytes after the last
// whole vector get v's first lane's low byte.
template <bool kStream>
HWY_INLINE void Write(uint8_t* p, size_t begin, size_t end, V v) {
  const D d;
  const size_t vector = hn::Lanes(d) * sizeof(uint32_t);
  const auto store = [&](size_t i) {
    auto* to = reinterpret_cast<uint32_t*>(p + i);
    if constexpr (kStream) {
      hn::Stream(v, d, to);
    } else {
      hn::Store(v, d, to);
    }
  };
  size_t i = begin;
  for (; i + 4 * vector <= end; i += 4 * vector) {
    store(i);
    store(i + vector);
    store(i + 2 * vector);
    store(i + 3 * vector);
  }
  for (; i + vector <= end; i += vector) {
    store(i);
  }
  for (; i < end; ++i) {
    p[i] = static_cast<uint8_t>(hn::GetLane(v));
  }
}

// Per block: every input's block read and summed, then that sum stored over every output's block,
// as an elementwise kernel reads its operands' blocks before it writes its result's.
template <bool kStream>
uint32_t Blocks(const Streams& s, int64_t first, int64_t end) {
  const D d;
  V total = hn::Zero(d);
  uint32_t tail = 0;
  for (int64_t g = first; g < end; ++g) {
    V sum = hn::Zero(d);
    for (int k = 0; k < s.inputs; ++k) {
      const size_t n = s.in_bytes[k];
      Read(s.in[k], block_begin(n, g, s.blocks), block_begin(n, g + 1, s.blocks), &sum, &tail);
    }
    sum = hn::Add(sum, hn::Set(d, tail));
    for (int k = 0; k < s.outputs; ++k) {
      const size_t n = s.out_bytes[k];
      Write<kStream>(s.out[k], block_begin(n, g, s.blocks), block_begin(n, g + 1, s.blocks), sum);
    }
    total = hn::Add(total, sum);
  }
  return hn::GetLane(hn::SumOfLanes(d, total));
}

uint32_t PlainBlocks(const Streams& s, int64_t first, int64_t end) {
  return Blocks<false>(s, first, end);
}
uint32_t StreamingBlocks(const Streams& s, int64_t first, int64_t end) {
  return Blocks<true>(s, first, end);
}

}  // namespace HWY_NAMESPACE
}  // namespace oa::bench
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace oa::bench {

HWY_EXPORT(PlainBlocks);
HWY_EXPORT(StreamingBlocks);

uint32_t traffic_blocks(const Streams& streams, int64_t first, int64_t end, bool streaming) {
  return streaming ? HWY_DYNAMIC_DISPATCH(StreamingBlocks)(streams, first, end)
                   : HWY_DYNAMIC_DISPATCH(PlainBlocks)(streams, first, end);
}

}  // namespace oa::bench
#endif
