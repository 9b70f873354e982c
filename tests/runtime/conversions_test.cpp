// aclDataTypeSize and the float16 helpers of acl_base.h.
#include <cmath>
#include <cstring>
#include <limits>

#include "base/float_convert.h"
#include "test_env.h"

namespace {

using oa_test::expect_message;

TEST(DataTypeSize, WholeByteTypes) {
  EXPECT_EQ(aclDataTypeSize(ACL_FLOAT), 4u);
  EXPECT_EQ(aclDataTypeSize(ACL_FLOAT16), 2u);
  EXPECT_EQ(aclDataTypeSize(ACL_BF16), 2u);
  EXPECT_EQ(aclDataTypeSize(ACL_INT8), 1u);
  EXPECT_EQ(aclDataTypeSize(ACL_UINT8), 1u);
  EXPECT_EQ(aclDataTypeSize(ACL_BOOL), 1u);
  EXPECT_EQ(aclDataTypeSize(ACL_INT16), 2u);
  EXPECT_EQ(aclDataTypeSize(ACL_INT32), 4u);
  EXPECT_EQ(aclDataTypeSize(ACL_UINT32), 4u);
  EXPECT_EQ(aclDataTypeSize(ACL_INT64), 8u);
  EXPECT_EQ(aclDataTypeSize(ACL_UINT64), 8u);
  EXPECT_EQ(aclDataTypeSize(ACL_DOUBLE), 8u);
  EXPECT_EQ(aclDataTypeSize(ACL_COMPLEX64), 8u);
  EXPECT_EQ(aclDataTypeSize(ACL_COMPLEX128), 16u);
  EXPECT_EQ(aclDataTypeSize(ACL_HIFLOAT8), 1u);
  EXPECT_EQ(aclDataTypeSize(ACL_FLOAT8_E4M3FN), 1u);
}

TEST(DataTypeSize, SubByteAndUnknownTypesHaveNoSize) {
  EXPECT_EQ(aclDataTypeSize(ACL_INT4), 0u);
  expect_message({"aclDataTypeSize", "INT4", "no whole number of bytes"});
  EXPECT_EQ(aclDataTypeSize(ACL_FLOAT4_E2M1), 0u);
  expect_message({"aclDataTypeSize", "FLOAT4_E2M1"});
  EXPECT_EQ(aclDataTypeSize(ACL_STRING), 0u);
  expect_message({"aclDataTypeSize", "STRING"});
  EXPECT_EQ(aclDataTypeSize(static_cast<aclDataType>(5)), 0u);
  expect_message({"aclDataTypeSize", "dataType 5 is not an aclDataType"});
}

TEST(Float16, RoundTripsAndRounding) {
  EXPECT_EQ(aclFloatToFloat16(1.0f), 0x3C00);
  EXPECT_EQ(aclFloatToFloat16(-2.0f), 0xC000);
  EXPECT_EQ(aclFloatToFloat16(65504.0f), 0x7BFF);
  EXPECT_EQ(aclFloatToFloat16(1e6f), 0x7C00);  // overflow: infinity
  EXPECT_EQ(aclFloatToFloat16(0x1p-24f), 0x0001);
  EXPECT_EQ(aclFloatToFloat16(-0.0f), 0x8000);
  EXPECT_EQ(aclFloat16ToFloat(0x3555), 0x1.554p-2f);
  EXPECT_TRUE(std::isinf(aclFloat16ToFloat(0xFC00)));
  EXPECT_TRUE(std::isnan(aclFloat16ToFloat(0x7E00)));
  // The same bits as the project's conversion for every binary16 value.
  for (uint32_t bits = 0; bits <= 0xFFFF; ++bits) {
    const float value = aclFloat16ToFloat(static_cast<aclFloat16>(bits));
    const float expected = oa::half_to_float(static_cast<uint16_t>(bits));
    ASSERT_EQ(std::memcmp(&value, &expected, sizeof value), 0) << bits;
    if (!std::isnan(value)) {
      ASSERT_EQ(aclFloatToFloat16(value), bits) << bits;
    }
  }
}

}  // namespace
