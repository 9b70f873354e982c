// What the adaptive max pooling implementations share: strided [N, C, H, W] views, the windows,
// the storage types with their float32 conversions, and the split of the work into chunks.
#pragma once

#include <cstdint>
#include <type_traits>

#include "base/float_convert.h"

namespace oa::pooling {

// A strided view of an [N, C, H, W] tensor (a 3-D [C, H, W] tensor is one with N = 1): the address
// of element (0, 0, 0, 0) and the strides, in elements.
struct View {
  void* data = nullptr;
  int64_t sn = 0;
  int64_t sc = 0;
  int64_t sh = 0;
  int64_t sw = 0;
};

// Whether the view, over [n, c, rows, cols], is one dense row-major block of memory.
inline bool dense_block(const View& v, int64_t n, int64_t c, int64_t rows, int64_t cols) {
  return (cols == 1 || v.sw == 1) && (rows == 1 || v.sh == cols) &&
         (c == 1 || v.sc == rows * cols) && (n == 1 || v.sn == c * rows * cols);
}

// The sizes the kernels loop over: input planes [N, C, H, W], output planes [N, C, Ho, Wo].
struct Dims {
  int64_t n = 0;
  int64_t c = 0;
  int64_t h = 0;
  int64_t w = 0;
  int64_t ho = 0;
  int64_t wo = 0;
};

// Which loop nest a kernel runs. planes: one (n, c) plane at a time, vectorised along W (any
// strides; fastest when W is contiguous). channels_last: vectorised across channels, for views
// whose channel stride is 1 (NHWC memory).
enum class Layout { planes, channels_last };

// How the work is cut: `units` independent units (see each kernel), split into `chunks`
// contiguous ranges of units, each with `slot_bytes` of workspace of its own. The split depends
// only on the problem, never on the thread count, and no result depends on it.
struct Split {
  int64_t units = 0;
  int64_t chunks = 0;
  int64_t slot_bytes = 0;
};

// Window k of `out` windows over `in` positions (SPEC section 7):
// [floor(k * in / out), ceil((k + 1) * in / out)).
inline int64_t window_begin(int64_t k, int64_t in, int64_t out) {
  return static_cast<int64_t>(static_cast<__int128>(k) * in / out);
}
inline int64_t window_end(int64_t k, int64_t in, int64_t out) {
  return static_cast<int64_t>((static_cast<__int128>(k + 1) * in + out - 1) / out);
}

// Workspace slots are whole cache lines.
inline int64_t align64(int64_t bytes) { return (bytes + 63) / 64 * 64; }

struct Range {
  int64_t begin;
  int64_t end;
};

// The units of chunk `chunk`.
inline Range chunk_range(const Split& split, int64_t chunk) {
  auto bound = [&](int64_t k) {
    return static_cast<int64_t>(static_cast<__int128>(split.units) * k / split.chunks);
  };
  return {bound(chunk), bound(chunk + 1)};
}

// Storage types of FLOAT16 and BF16 elements; FLOAT is stored as float. float32 is the compute
// type: widening is exact, narrowing rounds once to nearest-even (SPEC section 4).
struct Half {
  uint16_t bits;
};
struct Bf16 {
  uint16_t bits;
};

// The bits of +infinity, and of the canonical quiet NaN that narrowing gives (base/float_convert.h;
// with the NaN's sign), of the 16-bit type T.
template <typename T>
inline constexpr uint16_t kInfinityBits = std::is_same_v<T, Half> ? 0x7c00 : 0x7f80;
template <typename T>
inline constexpr uint16_t kQuietNanBits = std::is_same_v<T, Half> ? 0x7e00 : 0x7fc0;

inline float to_float(float v) { return v; }
inline float to_float(Half v) { return half_to_float(v.bits); }
inline float to_float(Bf16 v) { return bf16_to_float(v.bits); }

template <typename T>
T from_float(float v);
template <>
inline float from_float<float>(float v) {
  return v;
}
template <>
inline Half from_float<Half>(float v) {
  return Half{float_to_half(v)};
}
template <>
inline Bf16 from_float<Bf16>(float v) {
  return Bf16{float_to_bf16(v)};
}

}  // namespace oa::pooling
