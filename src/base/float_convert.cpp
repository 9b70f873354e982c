#include "base/float_convert.h"

#include <array>
#include <cstdint>

namespace oa {

namespace {

constexpr uint32_t kQuietNan = 0x7FC00000u;
constexpr uint32_t kInf = 0x7F800000u;

// Float32 bits of an E4M3FN code, from its fields: 1 sign, 4 exponent (bias 7), 3 mantissa.
constexpr uint32_t e4m3fn_bits(uint32_t code) {
  const uint32_t sign = (code & 0x80u) << 24;
  const uint32_t exp = (code >> 3) & 0xFu;
  const uint32_t mant = code & 0x7u;
  if ((code & 0x7Fu) == 0x7Fu) {
    return sign | kQuietNan;
  }
  if (exp != 0) {
    return sign | ((exp + 120u) << 23) | (mant << 20);
  }
  if (mant == 0) {
    return sign;
  }
  // Subnormal mant * 2^-9: the leading set bit p becomes the implicit one.
  const uint32_t p = mant >= 4 ? 2 : (mant >= 2 ? 1 : 0);
  return sign | ((p + 118u) << 23) | ((mant - (1u << p)) << (23 - p));
}

// Float32 bits of a HiFloat8 code. After the sign, the dot prefix selects the layout:
//   0000 mmm   denormal 2^(m-23)          0001 MMM   E = 0
//   001 e MMM  |E| = 1                    01 ee MMM  |E| = 2..3
//   10 eee MM  |E| = 4..7                 11 eeee M  |E| = 8..15
// The exponent field's top bit is the sign of E; the rest, behind an implicit 1, is |E|.
constexpr uint32_t hif8_bits(uint32_t code) {
  const uint32_t sign = (code & 0x80u) << 24;
  const uint32_t low = code & 0x7Fu;
  if (code == 0x80u) {
    return kQuietNan;
  }
  if (low == 0x6Fu) {
    return sign | kInf;
  }
  if (low == 0) {
    return 0;
  }
  if (low < 0x08u) {
    return sign | ((low + 104u) << 23);  // 2^(m - 23)
  }
  uint32_t exp_field = 0;  // exponent field, including its sign bit
  uint32_t exp_width = 0;
  uint32_t mant = 0;
  uint32_t mant_width = 0;
  if (low < 0x10u) {
    mant = low & 0x7u;
    mant_width = 3;
  } else if (low < 0x20u) {
    exp_field = (low >> 3) & 0x1u;
    exp_width = 1;
    mant = low & 0x7u;
    mant_width = 3;
  } else if (low < 0x40u) {
    exp_field = (low >> 3) & 0x3u;
    exp_width = 2;
    mant = low & 0x7u;
    mant_width = 3;
  } else if (low < 0x60u) {
    exp_field = (low >> 2) & 0x7u;
    exp_width = 3;
    mant = low & 0x3u;
    mant_width = 2;
  } else {
    exp_field = (low >> 1) & 0xFu;
    exp_width = 4;
    mant = low & 0x1u;
    mant_width = 1;
  }
  int32_t exp = 0;
  if (exp_width != 0) {
    const uint32_t magnitude_bits = exp_width - 1;
    const uint32_t magnitude = (1u << magnitude_bits) | (exp_field & ((1u << magnitude_bits) - 1));
    const bool negative = ((exp_field >> magnitude_bits) & 1u) != 0;
    exp = negative ? -static_cast<int32_t>(magnitude) : static_cast<int32_t>(magnitude);
  }
  return sign | (static_cast<uint32_t>(exp + 127) << 23) | (mant << (23 - mant_width));
}

template <uint32_t (*Decode)(uint32_t)>
constexpr std::array<uint32_t, 256> make_table() {
  std::array<uint32_t, 256> table{};
  for (uint32_t code = 0; code < 256; ++code) {
    table[code] = Decode(code);
  }
  return table;
}

constexpr std::array<uint32_t, 256> kE4m3fnTable = make_table<e4m3fn_bits>();
constexpr std::array<uint32_t, 256> kHif8Table = make_table<hif8_bits>();

static_assert(kE4m3fnTable[0x7E] == 0x43E00000u, "E4M3FN max is 448");
static_assert(kE4m3fnTable[0x01] == 0x3B000000u, "E4M3FN smallest subnormal is 2^-9");
static_assert(kHif8Table[0x08] == 0x3F800000u, "HiF8 0x08 is 1.0");
static_assert(kHif8Table[0x6E] == 0x47000000u, "HiF8 max finite is 32768");
static_assert(kHif8Table[0x7E] == 0x38000000u, "HiF8 smallest normal is 2^-15");
static_assert(kHif8Table[0x01] == 0x34800000u, "HiF8 smallest denormal is 2^-22");

// HiFloat8 mantissa width for a value whose binary exponent is `exp` (-23..15).
inline uint32_t hif8_mant_width(int32_t exp) {
  const int32_t m = exp < 0 ? -exp : exp;
  if (exp < -15) {
    return 0;  // denormals are powers of two
  }
  if (m <= 3) {
    return 3;
  }
  if (m <= 7) {
    return 2;
  }
  return 1;
}

}  // namespace

float e4m3fn_to_float(uint8_t bits) { return detail::bits_float(kE4m3fnTable[bits]); }

uint8_t float_to_e4m3fn(float value) {
  const uint32_t bits = detail::float_bits(value);
  const uint32_t sign = (bits >> 24) & 0x80u;
  const uint32_t a = bits & 0x7FFFFFFFu;
  if (a > kInf) {
    return 0x7F;
  }
  if (a >= 0x43E00000u) {
    return static_cast<uint8_t>(sign | 0x7Eu);  // >= 448, Inf: saturate
  }
  const uint32_t e = a >> 23;
  if (e >= 121) {  // >= 2^-6: normal; the carry of RNE may step into the next binade
    const uint32_t r = a - (120u << 23) + 0x7FFFFu + ((a >> 20) & 1u);
    return static_cast<uint8_t>(sign | (r >> 20));
  }
  if (e < 117) {
    return static_cast<uint8_t>(sign);  // < 2^-10: half the smallest subnormal
  }
  // Subnormal: count units of 2^-9; a result of 8 is exactly the smallest normal code 0x08.
  const uint32_t mant = (a & 0x7FFFFFu) | 0x800000u;
  return static_cast<uint8_t>(sign | detail::shift_right_rne(mant, 141u - e));
}

float hif8_to_float(uint8_t bits) { return detail::bits_float(kHif8Table[bits]); }

uint8_t float_to_hif8(float value) {
  const uint32_t bits = detail::float_bits(value);
  const uint32_t sign = (bits >> 24) & 0x80u;
  const uint32_t a = bits & 0x7FFFFFFFu;
  if (a > kInf) {
    return 0x80;
  }
  if (a >= 0x47200000u) {
    return static_cast<uint8_t>(sign | 0x6Fu);  // >= 40960 -> Inf
  }
  if (a < 0x34000000u) {
    return 0x00;  // < 2^-23 -> the only zero
  }
  const int32_t exp = static_cast<int32_t>(a >> 23) - 127;
  if (exp < -22) {
    return static_cast<uint8_t>(sign | 0x01u);  // [2^-23, 2^-22) -> 2^-22
  }
  // Round half away from zero at the binade's step: add half a step, drop the bits below it.
  // A carry lands on the next power of two, whose mantissa is zero in any layout.
  const uint32_t drop = 23 - hif8_mant_width(exp);
  const uint32_t r = (a + (1u << (drop - 1))) & ~((1u << drop) - 1);
  const int32_t e = static_cast<int32_t>(r >> 23) - 127;
  const uint32_t mant = (r & 0x7FFFFFu) >> drop;
  if (e < -15) {
    return static_cast<uint8_t>(sign | static_cast<uint32_t>(e + 23));
  }
  const uint32_t neg = e < 0 ? 0x10u : 0u;
  const uint32_t m = static_cast<uint32_t>(e < 0 ? -e : e);
  uint32_t code;
  if (m == 0) {
    code = 0x08u | mant;
  } else if (m == 1) {
    code = 0x10u | (neg >> 1) | mant;
  } else if (m <= 3) {
    code = 0x20u | neg | ((m & 1u) << 3) | mant;
  } else if (m <= 7) {
    code = 0x40u | neg | ((m & 3u) << 2) | mant;
  } else {
    code = 0x60u | neg | ((m & 7u) << 1) | mant;
  }
  return static_cast<uint8_t>(sign | code);
}

}  // namespace oa
