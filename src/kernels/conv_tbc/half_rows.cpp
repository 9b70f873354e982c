#include "kernels/conv_tbc/half_rows.h"

#include <immintrin.h>

#include "core/float_convert.h"

namespace oa::tbc {
namespace {

constexpr int64_t kLanes = 8;
constexpr int kNearestEven = _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC;

// vcvtph2ps widens exactly and quiets a NaN keeping its payload, as half_to_float does.
__attribute__((target("avx2,f16c"))) void widen_f16c(const uint16_t* src, int64_t n, float* dst) {
  int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes) {
    const __m128i h = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i));
    _mm256_storeu_ps(dst + i, _mm256_cvtph_ps(h));
  }
  for (; i < n; ++i) {
    dst[i] = half_to_float(src[i]);
  }
}

// vcvtps2ph rounds to nearest-even like float_to_half, but keeps part of a NaN's payload where
// float_to_half gives the canonical 0x7E00 | sign: lanes holding a NaN are redone in scalar.
__attribute__((target("avx2,f16c"))) void narrow_f16c(const float* src, int64_t n, uint16_t* dst) {
  int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes) {
    const __m256 v = _mm256_loadu_ps(src + i);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + i), _mm256_cvtps_ph(v, kNearestEven));
    if (_mm256_movemask_ps(_mm256_cmp_ps(v, v, _CMP_UNORD_Q)) != 0) {
      for (int64_t j = i; j < i + kLanes; ++j) {
        dst[j] = float_to_half(src[j]);
      }
    }
  }
  for (; i < n; ++i) {
    dst[i] = float_to_half(src[i]);
  }
}

__attribute__((target("avx2,f16c"))) void round_f16c(float* row, int64_t n) {
  int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes) {
    const __m256 v = _mm256_loadu_ps(row + i);
    if (_mm256_movemask_ps(_mm256_cmp_ps(v, v, _CMP_UNORD_Q)) != 0) {
      for (int64_t j = i; j < i + kLanes; ++j) {
        row[j] = half_to_float(float_to_half(row[j]));
      }
    } else {
      _mm256_storeu_ps(row + i, _mm256_cvtph_ps(_mm256_cvtps_ph(v, kNearestEven)));
    }
  }
  for (; i < n; ++i) {
    row[i] = half_to_float(float_to_half(row[i]));
  }
}

bool cpu_has_f16c() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("f16c");
}

}  // namespace

bool half_rows_use_f16c() {
  static const bool use = cpu_has_f16c();
  return use;
}

void half_row_to_float_portable(const uint16_t* src, int64_t n, float* dst) {
  for (int64_t i = 0; i < n; ++i) {
    dst[i] = half_to_float(src[i]);
  }
}

void float_row_to_half_portable(const float* src, int64_t n, uint16_t* dst) {
  for (int64_t i = 0; i < n; ++i) {
    dst[i] = float_to_half(src[i]);
  }
}

void half_row_to_float(const uint16_t* src, int64_t n, float* dst) {
  if (half_rows_use_f16c()) {
    widen_f16c(src, n, dst);
  } else {
    half_row_to_float_portable(src, n, dst);
  }
}

void float_row_to_half(const float* src, int64_t n, uint16_t* dst) {
  if (half_rows_use_f16c()) {
    narrow_f16c(src, n, dst);
  } else {
    float_row_to_half_portable(src, n, dst);
  }
}

void round_row_to_half(float* row, int64_t n) {
  if (half_rows_use_f16c()) {
    round_f16c(row, n);
    return;
  }
  for (int64_t i = 0; i < n; ++i) {
    row[i] = half_to_float(float_to_half(row[i]));
  }
}

}  // namespace oa::tbc
