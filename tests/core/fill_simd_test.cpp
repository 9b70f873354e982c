// fill_bytes: exactly the bytes asked for get the value, for every length and alignment around the
// vector width, in both of its ways (plain stores for cache-resident outputs, streaming stores for
// larger ones), on every SIMD target the CPU has. copy_bytes and stream_bytes_and_clear likewise:
// exactly the bytes asked for are copied (and, by the latter, cleared in the source). fill_sparse:
// exactly the bytes asked for are zero but for the elements given, on every target.
#include "base/fill_simd.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "core/isa.h"
#include "simd_targets.h"

namespace {

constexpr uint8_t kGuard = 0xA5;
constexpr int64_t kMargin = 128;

// Fills [offset, offset + bytes) past a 64-byte boundary of a guarded buffer and checks every byte.
void check_fill(uint8_t value, int64_t offset, int64_t bytes, bool streaming) {
  std::vector<uint8_t> buffer(static_cast<size_t>(kMargin + offset + bytes + kMargin), kGuard);
  const auto base = reinterpret_cast<uintptr_t>(buffer.data());
  const int64_t start = static_cast<int64_t>((64 - base % 64) % 64) + kMargin / 2 + offset;
  oa::simd::fill_bytes(buffer.data() + start, value, bytes, streaming);
  for (int64_t i = 0; i < static_cast<int64_t>(buffer.size()); ++i) {
    const bool inside = i >= start && i < start + bytes;
    ASSERT_EQ(buffer[static_cast<size_t>(i)], inside ? value : kGuard)
        << "byte " << i - start << " of a " << bytes << "-byte fill at offset " << offset
        << (streaming ? ", streaming stores" : ", plain stores");
  }
}

TEST(FillBytes, ExactlyTheBytesAskedFor) {
  oa_test::for_each_simd_target([&] {
    for (uint8_t value : {0x00, 0x3c}) {
      for (bool streaming : {false, true}) {
        for (int64_t offset : {0, 1, 3, 8, 31, 33, 63}) {
          for (int64_t bytes :
               {0, 1, 7, 63, 64, 65, 127, 128, 255, 256, 257, 511, 1000, 4096, 5003}) {
            check_fill(value, offset, bytes, streaming);
          }
        }
      }
    }
  });
}

TEST(FillBytes, LargeStreamingFill) { check_fill(0, 5, int64_t{3} << 20, true); }

enum class Copy { plain, streaming, streaming_and_clear };

// Copies [0, bytes) of a source at `source_offset` past a 64-byte boundary to a destination at
// `offset` past one, in the way given, and checks every byte of both guarded buffers: the source
// is kept, or cleared by stream_bytes_and_clear.
void check_copy(Copy how, int64_t source_offset, int64_t offset, int64_t bytes) {
  auto aligned_start = [](const std::vector<uint8_t>& buffer, int64_t at) {
    const auto base = reinterpret_cast<uintptr_t>(buffer.data());
    return static_cast<int64_t>((64 - base % 64) % 64) + kMargin / 2 + at;
  };
  std::vector<uint8_t> source(static_cast<size_t>(2 * kMargin + source_offset + bytes), kGuard);
  std::vector<uint8_t> buffer(static_cast<size_t>(2 * kMargin + offset + bytes), kGuard);
  const int64_t from = aligned_start(source, source_offset);
  const int64_t start = aligned_start(buffer, offset);
  auto value = [](int64_t i) { return static_cast<uint8_t>(i * 7 + 1); };
  for (int64_t i = 0; i < bytes; ++i) {
    source[static_cast<size_t>(from + i)] = value(i);
  }
  if (how == Copy::streaming_and_clear) {
    oa::simd::stream_bytes_and_clear(source.data() + from, bytes, buffer.data() + start);
    oa::store_fence();
  } else {
    oa::simd::copy_bytes(buffer.data() + start, source.data() + from, bytes,
                         how == Copy::streaming);
  }
  const std::string where = std::to_string(bytes) + " bytes at offsets " +
                            std::to_string(source_offset) + ", " + std::to_string(offset) +
                            ", way " + std::to_string(static_cast<int>(how));
  for (int64_t i = 0; i < static_cast<int64_t>(buffer.size()); ++i) {
    const bool inside = i >= start && i < start + bytes;
    ASSERT_EQ(buffer[static_cast<size_t>(i)], inside ? value(i - start) : kGuard)
        << "destination byte " << i - start << " of " << where;
  }
  for (int64_t i = 0; i < static_cast<int64_t>(source.size()); ++i) {
    const bool inside = i >= from && i < from + bytes;
    uint8_t expected = kGuard;
    if (inside) {
      expected = how == Copy::streaming_and_clear ? 0 : value(i - from);
    }
    ASSERT_EQ(source[static_cast<size_t>(i)], expected)
        << "source byte " << i - from << " of " << where;
  }
}

TEST(CopyBytes, ExactlyTheBytesAskedForInEachWay) {
  oa_test::for_each_simd_target([&] {
    for (Copy how : {Copy::plain, Copy::streaming, Copy::streaming_and_clear}) {
      for (int64_t source_offset : {0, 2, 5}) {
        for (int64_t offset : {0, 1, 2, 30, 62}) {
          for (int64_t bytes : {0, 1, 2, 31, 32, 63, 64, 65, 130, 1000, 4098}) {
            check_copy(how, source_offset, offset, bytes);
          }
        }
      }
    }
  });
}

// Writes [offset, offset + bytes) past a 64-byte boundary of a guarded buffer with fill_sparse:
// every element_bytes-th position of `every` positions gets a value (the first at `first`), and
// checks every byte.
void check_sparse(bool streaming, int element_bytes, int64_t offset, int64_t bytes, int64_t first,
                  int64_t every, std::mt19937* rng) {
  std::vector<uint8_t> buffer(static_cast<size_t>(2 * kMargin + offset + bytes), kGuard);
  const auto base = reinterpret_cast<uintptr_t>(buffer.data());
  const int64_t start = static_cast<int64_t>((64 - base % 64) % 64) + kMargin / 2 + offset;
  std::vector<uint8_t> expected = buffer;
  std::memset(expected.data() + start, 0, static_cast<size_t>(bytes));
  std::vector<int64_t> offsets;
  std::vector<uint32_t> bits;
  for (int64_t at = first * element_bytes; at + element_bytes <= bytes;
       at += every * element_bytes) {
    const uint32_t value = (*rng)() | 1;  // never all zero in the element's low bytes
    offsets.push_back(at);
    bits.push_back(value);
    for (int i = 0; i < element_bytes; ++i) {
      expected[static_cast<size_t>(start + at + i)] = static_cast<uint8_t>(value >> (8 * i));
    }
  }
  oa::simd::fill_sparse(buffer.data() + start, bytes, offsets.data(), bits.data(),
                        static_cast<int64_t>(offsets.size()), element_bytes, streaming);
  for (size_t i = 0; i < buffer.size(); ++i) {
    ASSERT_EQ(buffer[i], expected[i])
        << "byte " << static_cast<int64_t>(i) - start << " of a " << bytes << "-byte "
        << (streaming ? "streamed" : "plain") << " fill at offset " << offset << ", "
        << element_bytes << "-byte elements every " << every << " from " << first;
  }
}

TEST(FillSparse, ZerosAndExactlyTheElementsGiven) {
  std::mt19937 rng(2612);
  oa_test::for_each_simd_target([&] {
    for (bool streaming : {false, true}) {
      for (int element_bytes : {2, 4}) {
        for (int64_t offset : {0, 2, 4, 32, 60, 62}) {
          if (offset % element_bytes != 0) {
            continue;  // fill_sparse's elements are aligned
          }
          for (int64_t bytes : {0, 4, 60, 64, 68, 128, 132, 1000, 4096, 5004}) {
            for (int64_t every : {1, 3, 16, 33, 500, 100000}) {
              check_sparse(streaming, element_bytes, offset, bytes, every % 7, every, &rng);
            }
          }
        }
      }
    }
  });
}

}  // namespace
