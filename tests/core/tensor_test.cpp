// Views: device-memory bounds, overlap questions, and the shape helpers (SPEC sections 2 and 3).
#include "core/tensor.h"

#include <cstdint>
#include <string>
#include <vector>

#include "core/shape.h"
#include "test_env.h"

namespace {

using oa_test::DeviceBuffer;
using oa_test::make_tensor;

// view_in_device_memory, expecting failure; returns the explanation.
std::string outside_why(const aclTensor& tensor) {
  std::string why;
  EXPECT_FALSE(oa::view_in_device_memory(tensor, &why));
  EXPECT_FALSE(why.empty());
  return why;
}

bool inside(const aclTensor& tensor) {
  std::string why;
  bool ok = oa::view_in_device_memory(tensor, &why);
  EXPECT_TRUE(ok) << why;
  return ok;
}

TEST(ViewInDeviceMemory, ContiguousViewInside) {
  DeviceBuffer buffer(4 * 8 * sizeof(float));
  EXPECT_TRUE(inside(*make_tensor({4, 8}, ACL_FLOAT, buffer.get())));
  EXPECT_TRUE(inside(*make_tensor({4, 7}, ACL_FLOAT, buffer.get(), {}, 4)));
  // Exactly to the last byte, from inside the allocation.
  EXPECT_TRUE(inside(*make_tensor({8}, ACL_FLOAT, buffer.as<float>() + 24)));
}

TEST(ViewInDeviceMemory, OffsetPastTheEnd) {
  DeviceBuffer buffer(4 * 8 * sizeof(float));
  std::string why = outside_why(*make_tensor({4, 8}, ACL_FLOAT, buffer.get(), {}, 1));
  EXPECT_NE(why.find("bytes [4, 132)"), std::string::npos) << why;
  EXPECT_NE(why.find("runs past the end"), std::string::npos) << why;
}

TEST(ViewInDeviceMemory, StridesPastTheEnd) {
  DeviceBuffer buffer(4 * 8 * sizeof(float));
  // Rows 9 elements apart: the last element is 3 * 9 + 7 = 34 > 31.
  std::string why = outside_why(*make_tensor({4, 8}, ACL_FLOAT, buffer.get(), {9, 1}));
  EXPECT_NE(why.find("runs past the end"), std::string::npos) << why;
  EXPECT_TRUE(inside(*make_tensor({4, 8}, ACL_FLOAT, buffer.get(), {8, 1})));
  // A zero stride reaches less, not more.
  EXPECT_TRUE(inside(*make_tensor({100, 8}, ACL_FLOAT, buffer.get(), {0, 1})));
}

TEST(ViewInDeviceMemory, HostPointer) {
  std::vector<float> host(32);
  std::string why = outside_why(*make_tensor({4, 8}, ACL_FLOAT, host.data()));
  EXPECT_NE(why.find("is not device memory"), std::string::npos) << why;
}

TEST(ViewInDeviceMemory, AclrtMallocHostPointer) {
  void* pinned = nullptr;
  ASSERT_EQ(aclrtMallocHost(&pinned, 128), ACL_SUCCESS);
  std::string why = outside_why(*make_tensor({4, 8}, ACL_FLOAT, pinned));
  EXPECT_NE(why.find("host memory from aclrtMallocHost"), std::string::npos) << why;
  EXPECT_EQ(aclrtFreeHost(pinned), ACL_SUCCESS);
}

TEST(ViewInDeviceMemory, FreedPointer) {
  void* memory = nullptr;
  ASSERT_EQ(aclrtMalloc(&memory, 128, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  oa_test::TensorPtr tensor = make_tensor({4, 8}, ACL_FLOAT, memory);
  EXPECT_TRUE(inside(*tensor));
  ASSERT_EQ(aclrtFree(memory), ACL_SUCCESS);
  std::string why = outside_why(*tensor);
  EXPECT_NE(why.find("already freed"), std::string::npos) << why;
}

TEST(ViewInDeviceMemory, NullDataOfANonEmptyView) {
  std::string why = outside_why(*make_tensor({2}, ACL_FLOAT, nullptr));
  EXPECT_NE(why.find("null data pointer"), std::string::npos) << why;
}

TEST(ViewInDeviceMemory, NegativeStrides) {
  DeviceBuffer buffer(8 * sizeof(float));
  // Elements 7, 6, ..., 0 of the buffer.
  EXPECT_TRUE(inside(*make_tensor({8}, ACL_FLOAT, buffer.get(), {-1}, 7)));
  // From a data pointer in the middle: elements 4, 3, ..., 0.
  EXPECT_TRUE(inside(*make_tensor({5}, ACL_FLOAT, buffer.as<float>() + 4, {-1})));
  // One element further reaches 4 bytes before the allocation.
  std::string why = outside_why(*make_tensor({6}, ACL_FLOAT, buffer.as<float>() + 4, {-1}));
  EXPECT_NE(why.find("4 bytes before the start"), std::string::npos) << why;
  why = outside_why(*make_tensor({8}, ACL_FLOAT, buffer.get(), {-1}, 6));
  EXPECT_NE(why.find("before the start"), std::string::npos) << why;
}

TEST(ViewInDeviceMemory, EmptyViewsTouchNothing) {
  EXPECT_TRUE(inside(*make_tensor({0}, ACL_FLOAT, nullptr)));
  EXPECT_TRUE(inside(*make_tensor({3, 0, 5}, ACL_FLOAT, nullptr, {1000, 7, -9}, 12345)));
  std::vector<float> host(4);
  EXPECT_TRUE(inside(*make_tensor({0, 4}, ACL_FLOAT, host.data())));
}

TEST(ViewInDeviceMemory, SubByteDtypesCountBits) {
  DeviceBuffer four_bytes(4);  // 8 INT4 elements
  EXPECT_TRUE(inside(*make_tensor({8}, ACL_INT4, four_bytes.get())));
  std::string why = outside_why(*make_tensor({9}, ACL_INT4, four_bytes.get()));
  EXPECT_NE(why.find("bytes [0, 5)"), std::string::npos) << why;
  EXPECT_TRUE(inside(*make_tensor({7}, ACL_INT4, four_bytes.get(), {}, 1)));
  outside_why(*make_tensor({8}, ACL_INT4, four_bytes.get(), {}, 1));
  EXPECT_TRUE(inside(*make_tensor({2, 4}, ACL_FLOAT4_E2M1, four_bytes.get())));

  DeviceBuffer one_byte(1);  // 8 UINT1 elements
  EXPECT_TRUE(inside(*make_tensor({8}, ACL_UINT1, one_byte.get())));
  outside_why(*make_tensor({9}, ACL_UINT1, one_byte.get()));
}

// Nibble -n lies in byte -ceil(n / 2): the byte range must round outward on both sides.
TEST(ViewInDeviceMemory, SubByteNegativeStrides) {
  DeviceBuffer four_bytes(4);
  char* second_byte = four_bytes.as<char>() + 1;
  // Nibbles 0, -1, -2 from byte 1: bytes 1, 0, 0.
  EXPECT_TRUE(inside(*make_tensor({3}, ACL_INT4, second_byte, {-1})));
  // Nibble -3 is in byte -1 of the allocation.
  std::string why = outside_why(*make_tensor({4}, ACL_INT4, second_byte, {-1}));
  EXPECT_NE(why.find("1 bytes before the start"), std::string::npos) << why;
  // Nibbles 7, 5, 3, 1 of the allocation's start: inside.
  EXPECT_TRUE(inside(*make_tensor({4}, ACL_INT4, four_bytes.get(), {-2}, 7)));
}

TEST(ViewInDeviceMemory, AbsurdViewIsRejected) {
  DeviceBuffer buffer(64);
  std::string why = outside_why(*make_tensor({2}, ACL_FLOAT, buffer.get(), {INT64_MAX}));
  EXPECT_NE(why.find("2^63"), std::string::npos) << why;
}

TEST(ByteRange, CountsTheBytesAViewTouches) {
  oa::ByteRange range;
  ASSERT_TRUE(oa::byte_range(*make_tensor({2, 3}, ACL_FLOAT, nullptr, {}, 1), &range));
  EXPECT_EQ(range.begin, 4);
  EXPECT_EQ(range.end, 28);
  ASSERT_TRUE(oa::byte_range(*make_tensor({3}, ACL_FLOAT16, nullptr, {-2}, 4), &range));
  EXPECT_EQ(range.begin, 0);
  EXPECT_EQ(range.end, 10);
  ASSERT_TRUE(oa::byte_range(*make_tensor({3}, ACL_INT4, nullptr, {}, 1), &range));
  EXPECT_EQ(range.begin, 0);
  EXPECT_EQ(range.end, 2);
}

TEST(ViewsOverlap, SameViewOverlaps) {
  std::vector<float> host(16);
  auto a = make_tensor({4, 4}, ACL_FLOAT, host.data());
  auto b = make_tensor({4, 4}, ACL_FLOAT, host.data());
  EXPECT_TRUE(oa::views_overlap(*a, *b));
  EXPECT_TRUE(oa::same_view(*a, *b));
}

TEST(ViewsOverlap, DisjointHalvesDoNot) {
  std::vector<float> host(16);
  auto low = make_tensor({8}, ACL_FLOAT, host.data());
  auto high = make_tensor({8}, ACL_FLOAT, host.data(), {}, 8);
  auto high_by_pointer = make_tensor({8}, ACL_FLOAT, host.data() + 8);
  EXPECT_FALSE(oa::views_overlap(*low, *high));
  EXPECT_FALSE(oa::views_overlap(*high, *low));
  EXPECT_FALSE(oa::views_overlap(*low, *high_by_pointer));
  EXPECT_TRUE(oa::views_overlap(*high, *high_by_pointer));
  auto straddling = make_tensor({2}, ACL_FLOAT, host.data(), {}, 7);
  EXPECT_TRUE(oa::views_overlap(*low, *straddling));
  EXPECT_TRUE(oa::views_overlap(*straddling, *high));
}

TEST(ViewsOverlap, TransposedViewOfTheSameBufferOverlaps) {
  std::vector<float> host(6);
  auto rows = make_tensor({2, 3}, ACL_FLOAT, host.data());
  auto transposed = make_tensor({3, 2}, ACL_FLOAT, host.data(), {1, 3});
  EXPECT_TRUE(oa::views_overlap(*rows, *transposed));
  EXPECT_FALSE(oa::same_view(*rows, *transposed));
}

// Documented as conservative: the even and odd elements share no element but do share a range.
TEST(ViewsOverlap, InterleavedViewsCountAsOverlapping) {
  std::vector<float> host(16);
  auto even = make_tensor({8}, ACL_FLOAT, host.data(), {2});
  auto odd = make_tensor({8}, ACL_FLOAT, host.data(), {2}, 1);
  EXPECT_TRUE(oa::views_overlap(*even, *odd));
}

TEST(ViewsOverlap, DifferentBuffersAndEmptyViewsDoNot) {
  std::vector<float> first(8);
  std::vector<float> second(8);
  EXPECT_FALSE(oa::views_overlap(*make_tensor({8}, ACL_FLOAT, first.data()),
                                 *make_tensor({8}, ACL_FLOAT, second.data())));
  EXPECT_FALSE(oa::views_overlap(*make_tensor({8}, ACL_FLOAT, first.data()),
                                 *make_tensor({0}, ACL_FLOAT, first.data())));
}

TEST(SameView, EveryFieldCounts) {
  std::vector<float> host(16);
  auto base = make_tensor({2, 4}, ACL_FLOAT, host.data());
  EXPECT_TRUE(oa::same_view(*base, *make_tensor({2, 4}, ACL_FLOAT, host.data(), {4, 1})));
  EXPECT_FALSE(oa::same_view(*base, *make_tensor({2, 4}, ACL_FLOAT, host.data() + 1)));
  EXPECT_FALSE(oa::same_view(*base, *make_tensor({2, 4}, ACL_FLOAT, host.data(), {}, 1)));
  EXPECT_FALSE(oa::same_view(*base, *make_tensor({4, 2}, ACL_FLOAT, host.data())));
  EXPECT_FALSE(oa::same_view(*base, *make_tensor({2, 4}, ACL_FLOAT, host.data(), {5, 1})));
  EXPECT_FALSE(oa::same_view(*base, *make_tensor({2, 4}, ACL_INT32, host.data())));
}

TEST(ViewSelfOverlaps, ContiguousAndTransposedDoNot) {
  EXPECT_FALSE(oa::view_self_overlaps(*make_tensor({2, 3, 4}, ACL_FLOAT, nullptr)));
  EXPECT_FALSE(oa::view_self_overlaps(*make_tensor({3, 2}, ACL_FLOAT, nullptr, {1, 3})));
  EXPECT_FALSE(oa::view_self_overlaps(*make_tensor({4}, ACL_FLOAT, nullptr, {-1}, 3)));
  EXPECT_FALSE(oa::view_self_overlaps(*make_tensor({4, 2}, ACL_FLOAT, nullptr, {3, 1})));
}

TEST(ViewSelfOverlaps, ZeroStrideOnALongDimDoes) {
  EXPECT_TRUE(oa::view_self_overlaps(*make_tensor({3, 4}, ACL_FLOAT, nullptr, {0, 1})));
  // A zero stride on a dim of size 1 reaches nothing twice.
  EXPECT_FALSE(oa::view_self_overlaps(*make_tensor({1, 4}, ACL_FLOAT, nullptr, {0, 1})));
  // Single elements and empty views never do.
  EXPECT_FALSE(oa::view_self_overlaps(*make_tensor({1, 1}, ACL_FLOAT, nullptr, {0, 0})));
  EXPECT_FALSE(oa::view_self_overlaps(*make_tensor({0, 5}, ACL_FLOAT, nullptr, {0, 0})));
}

TEST(ViewSelfOverlaps, StridesTooSmallForTheInnerDimsDo) {
  // Row stride 2 < row length 3: element [0, 2] is element [1, 0].
  EXPECT_TRUE(oa::view_self_overlaps(*make_tensor({2, 3}, ACL_FLOAT, nullptr, {2, 1})));
  EXPECT_TRUE(oa::view_self_overlaps(*make_tensor({2, 2}, ACL_FLOAT, nullptr, {-1, 1})));
}

// Documented as conservative: strides {2, 3} on [3, 2] reach offsets {0, 3, 2, 5, 4, 7}, all
// distinct, but 3 does not step over the reach 4 of the stride-2 dim.
TEST(ViewSelfOverlaps, InterleavedStridesCountAsOverlapping) {
  EXPECT_TRUE(oa::view_self_overlaps(*make_tensor({3, 2}, ACL_FLOAT, nullptr, {2, 3})));
}

TEST(Shape, Numel) {
  EXPECT_EQ(oa::numel(Shape{}), 1);
  EXPECT_EQ(oa::numel(Shape{2, 3, 4}), 24);
  EXPECT_EQ(oa::numel(Shape{2, 0, 4}), 0);
  EXPECT_EQ(oa::numel(Shape{INT64_MAX, 2}), INT64_MAX);
  EXPECT_EQ(oa::numel(Shape{INT64_MAX, 2, 0}), 0);
}

TEST(Shape, ShapeString) {
  EXPECT_EQ(oa::shape_string(Shape{}), "[]");
  EXPECT_EQ(oa::shape_string(Shape{7}), "[7]");
  EXPECT_EQ(oa::shape_string(Shape{4, 0, 2}), "[4, 0, 2]");
}

TEST(Shape, ContiguousStrides) {
  EXPECT_EQ(oa::contiguous_strides(Shape{}), Shape{});
  EXPECT_EQ(oa::contiguous_strides(Shape{5}), Shape{1});
  EXPECT_EQ(oa::contiguous_strides(Shape{2, 3, 4}), (Shape{12, 4, 1}));
  EXPECT_EQ(oa::contiguous_strides(Shape{2, 0, 3}), (Shape{3, 3, 1}));
}

TEST(Shape, BroadcastShapes) {
  Shape out{99};
  ASSERT_TRUE(oa::broadcast_shapes({}, {}, &out));
  EXPECT_EQ(out, Shape{});
  ASSERT_TRUE(oa::broadcast_shapes({}, {3, 4}, &out));
  EXPECT_EQ(out, (Shape{3, 4}));
  ASSERT_TRUE(oa::broadcast_shapes({2, 1}, {3}, &out));
  EXPECT_EQ(out, (Shape{2, 3}));
  ASSERT_TRUE(oa::broadcast_shapes({5, 1, 4}, {3, 1}, &out));
  EXPECT_EQ(out, (Shape{5, 3, 4}));
  ASSERT_TRUE(oa::broadcast_shapes({0}, {1}, &out));
  EXPECT_EQ(out, Shape{0});
  ASSERT_TRUE(oa::broadcast_shapes({1}, {2, 0}, &out));
  EXPECT_EQ(out, (Shape{2, 0}));

  out = Shape{42};
  EXPECT_FALSE(oa::broadcast_shapes({0}, {3}, &out));
  EXPECT_FALSE(oa::broadcast_shapes({2, 3}, {3, 3}, &out));
  EXPECT_FALSE(oa::broadcast_shapes({4}, {2, 3}, &out));
  EXPECT_EQ(out, Shape{42});  // untouched on failure
}

}  // namespace
