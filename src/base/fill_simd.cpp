// Highway compiles this file once per SIMD target (foreach_target.h re-includes it); HWY_ONCE
// holds the dispatching entry point.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "base/fill_simd.cpp"
#include <hwy/cache_control.h>
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <algorithm>
#include <cstring>

#include "base/fill_simd.h"

HWY_BEFORE_NAMESPACE();
namespace oa::simd {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Stores v at dst + from and on while a whole vector fits below dst + to, four at a time first;
// returns where it stopped. dst + from must be at a vector boundary.
template <bool kStream, class D, class V>
int64_t StoreVectors(D d, V v, uint8_t* dst, int64_t from, int64_t to) {
  const auto lanes = static_cast<int64_t>(hn::Lanes(d));
  auto store = [&](int64_t at) {
    if constexpr (kStream) {
      hn::Stream(v, d, dst + at);
    } else {
      hn::Store(v, d, dst + at);
    }
  };
  int64_t i = from;
  for (; i + 4 * lanes <= to; i += 4 * lanes) {
    store(i);
    store(i + lanes);
    store(i + 2 * lanes);
    store(i + 3 * lanes);
  }
  for (; i + lanes <= to; i += lanes) {
    store(i);
  }
  return i;
}

// Aligned full-vector stores between a memset head (up to the first vector boundary) and a memset
// tail; short ranges are left to memset.
template <bool kStream>
void FillWith(uint8_t* dst, uint8_t value, int64_t bytes) {
  const hn::ScalableTag<uint8_t> d;
  const auto lanes = static_cast<int64_t>(hn::Lanes(d));
  if (bytes < 4 * lanes) {
    std::memset(dst, value, static_cast<size_t>(bytes));
    return;
  }
  const size_t head = -reinterpret_cast<uintptr_t>(dst) & static_cast<uintptr_t>(lanes - 1);
  std::memset(dst, value, head);
  const int64_t i =
      StoreVectors<kStream>(d, hn::Set(d, value), dst, static_cast<int64_t>(head), bytes);
  if constexpr (kStream) {
    hwy::FlushStream();
  }
  if (i < bytes) {
    std::memset(dst + i, value, static_cast<size_t>(bytes - i));
  }
}

void FillCached(uint8_t* dst, uint8_t value, int64_t bytes) { FillWith<false>(dst, value, bytes); }
void FillStreaming(uint8_t* dst, uint8_t value, int64_t bytes) {
  FillWith<true>(dst, value, bytes);
}

// fill_sparse (fill_simd.h) for elements of type T: vectors between dst's first vector boundary
// and its last, bytes before and after them. A vector that holds elements is built in registers
// (through memory, its load would wait for every store before it to reach the cache).
template <bool kStream, typename T>
void FillSparseOf(uint8_t* dst, int64_t bytes, const int64_t* offsets, const uint32_t* bits,
                  int64_t count) {
  const hn::ScalableTag<uint8_t> d;
  const hn::Repartition<T, decltype(d)> de;
  const auto lanes = static_cast<int64_t>(hn::Lanes(d));
  int64_t k = 0;
  // Bytes [from, to) with plain stores.
  auto plain = [&](int64_t from, int64_t to) {
    if (to <= from) {
      return;
    }
    std::memset(dst + from, 0, static_cast<size_t>(to - from));
    for (; k < count && offsets[k] < to; ++k) {
      const auto element = static_cast<T>(bits[k]);
      std::memcpy(dst + offsets[k], &element, sizeof(T));
    }
  };
  if (lanes < 4) {
    plain(0, bytes);  // the scalar target: an element would span vectors
    return;
  }
  const auto to_boundary =
      static_cast<int64_t>(-reinterpret_cast<uintptr_t>(dst) & static_cast<uintptr_t>(lanes - 1));
  const int64_t head = std::min(bytes, to_boundary);
  const int64_t body_end = head + (bytes - head) / lanes * lanes;
  plain(0, head);
  // Runs of zero vectors up to each vector that holds elements.
  const auto zero = hn::Zero(d);
  const auto lane_of = hn::Iota(de, 0);
  int64_t i = head;
  while (k < count && offsets[k] < body_end) {
    const int64_t at = head + (offsets[k] - head) / lanes * lanes;
    StoreVectors<kStream>(d, zero, dst, i, at);
    auto v = hn::Zero(de);
    for (; k < count && offsets[k] < at + lanes; ++k) {
      const auto lane = hn::Set(de, static_cast<T>((offsets[k] - at) / sizeof(T)));
      v = hn::IfThenElse(hn::Eq(lane_of, lane), hn::Set(de, static_cast<T>(bits[k])), v);
    }
    StoreVectors<kStream>(d, hn::BitCast(d, v), dst, at, at + lanes);
    i = at + lanes;
  }
  StoreVectors<kStream>(d, zero, dst, i, body_end);
  if constexpr (kStream) {
    hwy::FlushStream();
  }
  plain(body_end, bytes);
}

template <bool kStream>
void FillSparseWith(uint8_t* dst, int64_t bytes, const int64_t* offsets, const uint32_t* bits,
                    int64_t count, int element_bytes) {
  if (element_bytes == 2) {
    FillSparseOf<kStream, uint16_t>(dst, bytes, offsets, bits, count);
  } else {
    FillSparseOf<kStream, uint32_t>(dst, bytes, offsets, bits, count);
  }
}

void FillSparseCached(uint8_t* dst, int64_t bytes, const int64_t* offsets, const uint32_t* bits,
                      int64_t count, int element_bytes) {
  FillSparseWith<false>(dst, bytes, offsets, bits, count, element_bytes);
}
void FillSparseStreaming(uint8_t* dst, int64_t bytes, const int64_t* offsets, const uint32_t* bits,
                         int64_t count, int element_bytes) {
  FillSparseWith<true>(dst, bytes, offsets, bits, count, element_bytes);
}

// Copies [src, src + bytes) to dst with streaming stores between a plain head (up to dst's first
// vector boundary) and a plain tail, and with kClear sets the source bytes to zero.
template <bool kClear>
void StreamCopyWith(uint8_t* dst, uint8_t* src, int64_t bytes) {
  const hn::ScalableTag<uint8_t> d;
  const auto lanes = static_cast<int64_t>(hn::Lanes(d));
  const auto to_boundary =
      static_cast<int64_t>(-reinterpret_cast<uintptr_t>(dst) & static_cast<uintptr_t>(lanes - 1));
  auto plain = [&](int64_t at, int64_t count) {
    if (count <= 0) {
      return;
    }
    std::memcpy(dst + at, src + at, static_cast<size_t>(count));
    if constexpr (kClear) {
      std::memset(src + at, 0, static_cast<size_t>(count));
    }
  };
  const int64_t head = std::min(bytes, to_boundary);
  const int64_t body_end = head + (bytes - head) / lanes * lanes;
  plain(0, head);
  const auto zero = hn::Zero(d);
  for (int64_t i = head; i < body_end; i += lanes) {
    hn::Stream(hn::LoadU(d, src + i), d, dst + i);
    if constexpr (kClear) {
      hn::StoreU(zero, d, src + i);
    }
  }
  plain(body_end, bytes - body_end);
}

void StreamBytesAndClear(uint8_t* src, int64_t bytes, uint8_t* dst) {
  StreamCopyWith<true>(dst, src, bytes);
}

void StreamCopy(uint8_t* dst, const uint8_t* src, int64_t bytes) {
  // The source is only read (kClear is false).
  StreamCopyWith<false>(dst, const_cast<uint8_t*>(src), bytes);
  hwy::FlushStream();
}

}  // namespace HWY_NAMESPACE
}  // namespace oa::simd
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace oa::simd {

HWY_EXPORT(FillCached);
HWY_EXPORT(FillStreaming);
HWY_EXPORT(FillSparseCached);
HWY_EXPORT(FillSparseStreaming);
HWY_EXPORT(StreamBytesAndClear);
HWY_EXPORT(StreamCopy);

void fill_bytes(void* dst, uint8_t value, int64_t bytes, bool streaming) {
  auto* p = static_cast<uint8_t*>(dst);
  if (streaming) {
    HWY_DYNAMIC_DISPATCH(FillStreaming)(p, value, bytes);
  } else {
    HWY_DYNAMIC_DISPATCH(FillCached)(p, value, bytes);
  }
}

void fill_sparse(void* dst, int64_t bytes, const int64_t* offsets, const uint32_t* bits,
                 int64_t count, int element_bytes, bool streaming) {
  auto* p = static_cast<uint8_t*>(dst);
  if (streaming) {
    HWY_DYNAMIC_DISPATCH(FillSparseStreaming)(p, bytes, offsets, bits, count, element_bytes);
  } else {
    HWY_DYNAMIC_DISPATCH(FillSparseCached)(p, bytes, offsets, bits, count, element_bytes);
  }
}

void copy_bytes(void* dst, const void* src, int64_t bytes, bool streaming) {
  if (!streaming) {
    std::memcpy(dst, src, static_cast<size_t>(bytes));
    return;
  }
  HWY_DYNAMIC_DISPATCH(StreamCopy)
  (static_cast<uint8_t*>(dst), static_cast<const uint8_t*>(src), bytes);
}

void stream_bytes_and_clear(void* src, int64_t bytes, void* dst) {
  HWY_DYNAMIC_DISPATCH(StreamBytesAndClear)
  (static_cast<uint8_t*>(src), bytes, static_cast<uint8_t*>(dst));
}

}  // namespace oa::simd
#endif
