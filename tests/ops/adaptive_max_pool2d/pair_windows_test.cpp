// The kernel of 2x2 windows whose indices all lie in their own windows
// (ops/pooling/pair_windows_simd.h), on every SIMD target the CPU has, with plain
// and with streaming stores: each position holds 0 + gradOutput where its window's index names it
// and +0 elsewhere, rounded into gradInput's dtype, and nothing outside the planes is written, for
// rows of fewer outputs than a vector holds, exactly a vector's worth and more, starting on a
// vector boundary or off it.
#include "ops/pooling/pair_windows_simd.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "core/isa.h"
#include "ops/pooling/pool_views.h"
#include "simd_targets.h"

namespace {

constexpr uint8_t kGuard = 0xA5;
constexpr int64_t kMargin = 128;

// The bits of 0 + g in gradInput's dtype, for the bits g of a gradient.
uint32_t sum_bits(uint32_t g, aclDataType dtype) {
  if (dtype == ACL_FLOAT) {
    float f;
    std::memcpy(&f, &g, sizeof f);
    f += 0.0f;
    std::memcpy(&g, &f, sizeof f);
    return g;
  }
  if (dtype == ACL_FLOAT16) {
    const float f = oa::pooling::to_float(oa::pooling::Half{static_cast<uint16_t>(g)}) + 0.0f;
    return oa::pooling::from_float<oa::pooling::Half>(f).bits;
  }
  const float f = oa::pooling::to_float(oa::pooling::Bf16{static_cast<uint16_t>(g)}) + 0.0f;
  return oa::pooling::from_float<oa::pooling::Bf16>(f).bits;
}

// Random gradient bits, with -0, +-inf and NaNs among them.
uint32_t random_bits(std::mt19937_64& rng, aclDataType dtype) {
  const uint32_t specials32[] = {0x80000000u, 0x7f800000u, 0xff800000u, 0x7fa00001u, 0xffc00000u};
  const uint32_t specials16[] = {0x8000u, 0x7c00u, 0x7f80u, 0x7d01u, 0xffc1u};
  const bool special = rng() % 4 == 0;
  if (dtype == ACL_FLOAT) {
    return special ? specials32[rng() % 5] : static_cast<uint32_t>(rng());
  }
  return special ? specials16[rng() % 5] : static_cast<uint32_t>(rng() & 0xffff);
}

void check_planes(int64_t wo, aclDataType dtype, bool stream, int64_t misalign,
                  std::mt19937_64& rng) {
  SCOPED_TRACE("wo " + std::to_string(wo) + ", dtype " + std::to_string(dtype) + ", stream " +
               std::to_string(stream) + ", misaligned by " + std::to_string(misalign));
  const int64_t element = dtype == ACL_FLOAT ? 4 : 2;
  oa::pooling::BackwardPlan plan;
  oa::pooling::Dims& d = plan.dims;
  d = {2, 3, 6, 2 * wo, 3, wo};
  const int64_t planes = d.n * d.c;
  const int64_t outputs = d.ho * d.wo;
  const int64_t positions = d.h * d.w;
  std::vector<uint32_t> grad(planes * outputs);
  std::vector<uint16_t> indices(planes * outputs);
  for (int64_t k = 0; k < planes * outputs; ++k) {
    grad[k] = random_bits(rng, dtype);
    const int64_t i = k / d.wo % d.ho;
    const int64_t j = k % d.wo;
    indices[k] = static_cast<uint16_t>((2 * i + rng() % 2) * d.w + 2 * j + rng() % 2);
  }
  std::vector<uint8_t> grad_bytes(grad.size() * element);
  for (size_t k = 0; k < grad.size(); ++k) {
    std::memcpy(grad_bytes.data() + k * element, &grad[k], element);
  }
  const int64_t bytes = planes * positions * element;
  alignas(64) static uint8_t buffer[2 * kMargin + 3 * 6 * 2 * 66 * 4 * 2];
  ASSERT_LE(2 * kMargin + bytes, static_cast<int64_t>(sizeof buffer));
  std::memset(buffer, kGuard, sizeof buffer);
  uint8_t* out = buffer + kMargin + misalign * element;
  plan.grad_output = {grad_bytes.data(), d.c * outputs, outputs, d.wo, 1};
  plan.grad_input = {out, d.c * positions, positions, d.w, 1};
  plan.stream_output = stream;
  oa::pooling::write_pair_planes(plan, 0, planes, indices.data(), dtype);
  oa::store_fence();
  for (int64_t k = 0; k < kMargin + misalign * element; ++k) {
    ASSERT_EQ(buffer[k], kGuard) << "written before the planes";
  }
  for (const uint8_t* p = out + bytes; p < buffer + sizeof buffer; ++p) {
    ASSERT_EQ(*p, kGuard) << "written after the planes";
  }
  for (int64_t unit = 0; unit < planes; ++unit) {
    for (int64_t p = 0; p < positions; ++p) {
      const int64_t i = p / d.w / 2;
      const int64_t j = p % d.w / 2;
      const int64_t k = unit * outputs + i * d.wo + j;
      const uint32_t expected = indices[k] == p ? sum_bits(grad[k], dtype) : 0;
      uint32_t got = 0;
      std::memcpy(&got, out + (unit * positions + p) * element, element);
      ASSERT_EQ(got, expected) << "plane " << unit << ", position " << p;
    }
  }
}

TEST(PairWindows, EveryPositionOnEverySimdTarget) {
  std::mt19937_64 rng(3);
  oa_test::for_each_simd_target([&] {
    for (int64_t wo : {1, 3, 7, 8, 9, 16, 17, 32, 33}) {
      for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
        for (bool stream : {false, true}) {
          for (int64_t misalign : {0, 1}) {
            check_planes(wo, dtype, stream, misalign, rng);
          }
        }
      }
    }
  });
}

}  // namespace
