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
  const auto v = hn::Set(d, value);
  auto store = [&](int64_t at) {
    if constexpr (kStream) {
      hn::Stream(v, d, dst + at);
    } else {
      hn::Store(v, d, dst + at);
    }
  };
  auto i = static_cast<int64_t>(head);
  for (; i + 4 * lanes <= bytes; i += 4 * lanes) {
    store(i);
    store(i + lanes);
    store(i + 2 * lanes);
    store(i + 3 * lanes);
  }
  for (; i + lanes <= bytes; i += lanes) {
    store(i);
  }
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

// fill_sparse (fill_simd.h): vectors between dst's first vector boundary and its last, bytes before
// and after them.
void FillSparse(uint8_t* dst, int64_t bytes, const int64_t* offsets, const uint32_t* bits,
                int64_t count, int element_bytes) {
  const hn::ScalableTag<uint8_t> d;
  const auto lanes = static_cast<int64_t>(hn::Lanes(d));
  int64_t k = 0;
  auto put = [&](uint8_t* base, int64_t at) {
    if (element_bytes == 2) {
      const auto b = static_cast<uint16_t>(bits[k]);
      std::memcpy(base + at, &b, 2);
    } else {
      std::memcpy(base + at, &bits[k], 4);
    }
  };
  // Bytes [from, to) with plain stores.
  auto plain = [&](int64_t from, int64_t to) {
    if (to <= from) {
      return;
    }
    std::memset(dst + from, 0, static_cast<size_t>(to - from));
    for (; k < count && offsets[k] < to; ++k) {
      put(dst, offsets[k]);
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
  const auto zero = hn::Zero(d);
  HWY_ALIGN uint8_t vector[HWY_MAX_BYTES];
  for (int64_t i = head; i < body_end; i += lanes) {
    auto v = zero;
    if (k < count && offsets[k] < i + lanes) {
      hn::Store(zero, d, vector);
      for (; k < count && offsets[k] < i + lanes; ++k) {
        put(vector, offsets[k] - i);
      }
      v = hn::Load(d, vector);
    }
    hn::Store(v, d, dst + i);
  }
  plain(body_end, bytes);
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
HWY_EXPORT(FillSparse);
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
                 int64_t count, int element_bytes) {
  HWY_DYNAMIC_DISPATCH(FillSparse)
  (static_cast<uint8_t*>(dst), bytes, offsets, bits, count, element_bytes);
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
