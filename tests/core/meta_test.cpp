// The meta C API: aclCreateTensor and its getters, scalars and integer arrays (SPEC section 3).
#include <complex>
#include <cstdint>
#include <cstring>
#include <vector>

#include "core/tensor.h"
#include "core/values.h"
#include "test_env.h"

namespace {

using oa_test::expect_error;
using oa_test::expect_message;
using Dims = std::vector<int64_t>;

aclTensor* create(const Dims& view, aclDataType dtype, const int64_t* strides, int64_t offset,
                  const Dims& storage, void* data = nullptr) {
  return aclCreateTensor(view.data(), view.size(), dtype, strides, offset, ACL_FORMAT_ND,
                         storage.data(), storage.size(), data);
}

// The getters' arrays, released with delete[] as a CANN caller does.
Dims view_shape(const aclTensor* tensor) {
  int64_t* values = nullptr;
  uint64_t count = 99;
  EXPECT_EQ(aclGetViewShape(tensor, &values, &count), ACLNN_SUCCESS);
  Dims dims(values, values + count);
  delete[] values;
  return dims;
}

Dims storage_shape(const aclTensor* tensor) {
  int64_t* values = nullptr;
  uint64_t count = 99;
  EXPECT_EQ(aclGetStorageShape(tensor, &values, &count), ACLNN_SUCCESS);
  Dims dims(values, values + count);
  delete[] values;
  return dims;
}

Dims view_strides(const aclTensor* tensor) {
  int64_t* values = nullptr;
  uint64_t count = 99;
  EXPECT_EQ(aclGetViewStrides(tensor, &values, &count), ACLNN_SUCCESS);
  Dims dims(values, values + count);
  delete[] values;
  return dims;
}

TEST(CreateTensor, NullStrideMeansContiguous) {
  int dummy = 0;
  aclTensor* tensor = aclCreateTensor(Dims{2, 3, 4}.data(), 3, ACL_FLOAT16, nullptr, 5,
                                      ACL_FORMAT_NCHW, Dims{29}.data(), 1, &dummy);
  ASSERT_NE(tensor, nullptr) << aclGetRecentErrMsg();
  EXPECT_EQ(view_shape(tensor), (Dims{2, 3, 4}));
  EXPECT_EQ(view_strides(tensor), (Dims{12, 4, 1}));
  EXPECT_EQ(storage_shape(tensor), (Dims{29}));
  int64_t offset = -1;
  EXPECT_EQ(aclGetViewOffset(tensor, &offset), ACLNN_SUCCESS);
  EXPECT_EQ(offset, 5);
  aclFormat format = ACL_FORMAT_UNDEFINED;
  EXPECT_EQ(aclGetFormat(tensor, &format), ACLNN_SUCCESS);
  EXPECT_EQ(format, ACL_FORMAT_NCHW);
  aclDataType dtype = ACL_DT_UNDEFINED;
  EXPECT_EQ(aclGetDataType(tensor, &dtype), ACLNN_SUCCESS);
  EXPECT_EQ(dtype, ACL_FLOAT16);
  EXPECT_EQ(tensor->data, &dummy);
  EXPECT_EQ(aclDestroyTensor(tensor), ACLNN_SUCCESS);
}

TEST(CreateTensor, ContiguousStridesSkipEmptyDims) {
  aclTensor* tensor = create({2, 0, 3}, ACL_FLOAT, nullptr, 0, {0});
  ASSERT_NE(tensor, nullptr);
  EXPECT_EQ(view_strides(tensor), (Dims{3, 3, 1}));
  aclDestroyTensor(tensor);
}

TEST(CreateTensor, ArraysAreCopied) {
  Dims view{4, 2};
  Dims strides{1, 4};
  Dims storage{8};
  aclTensor* tensor = create(view, ACL_INT32, strides.data(), 0, storage);
  ASSERT_NE(tensor, nullptr);
  view[0] = strides[0] = storage[0] = 77;
  EXPECT_EQ(view_shape(tensor), (Dims{4, 2}));
  EXPECT_EQ(view_strides(tensor), (Dims{1, 4}));
  EXPECT_EQ(storage_shape(tensor), (Dims{8}));
  aclDestroyTensor(tensor);
}

TEST(CreateTensor, ZeroDimensional) {
  aclTensor* tensor =
      aclCreateTensor(nullptr, 0, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, nullptr, 0, nullptr);
  ASSERT_NE(tensor, nullptr) << aclGetRecentErrMsg();
  EXPECT_EQ(view_shape(tensor), Dims{});
  EXPECT_EQ(view_strides(tensor), Dims{});
  EXPECT_EQ(storage_shape(tensor), Dims{});
  aclDestroyTensor(tensor);
}

TEST(CreateTensor, NegativeDimIsRejected) {
  EXPECT_EQ(create({2, -3}, ACL_FLOAT, nullptr, 0, {6}), nullptr);
  expect_message({"aclCreateTensor", "viewDims[1]", "got -3"});
  EXPECT_EQ(create({2, 3}, ACL_FLOAT, nullptr, 0, {-6}), nullptr);
  expect_message({"aclCreateTensor", "storageDims[0]", "got -6"});
}

TEST(CreateTensor, NullArrayWithLengthIsRejected) {
  Dims dims{2, 3};
  EXPECT_EQ(
      aclCreateTensor(nullptr, 2, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, dims.data(), 2, nullptr),
      nullptr);
  expect_message({"aclCreateTensor", "viewDims is null", "viewDimsNum is 2"});
  EXPECT_EQ(
      aclCreateTensor(dims.data(), 2, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, nullptr, 3, nullptr),
      nullptr);
  expect_message({"aclCreateTensor", "storageDims is null", "storageDimsNum is 3"});
}

TEST(CreateTensor, RankLimit) {
  Dims ones65(65, 1);
  EXPECT_EQ(create(ones65, ACL_FLOAT, nullptr, 0, {1}), nullptr);
  expect_message({"aclCreateTensor", "viewDimsNum", "<= 64", "got 65"});
  EXPECT_EQ(create({1}, ACL_FLOAT, nullptr, 0, ones65), nullptr);
  expect_message({"aclCreateTensor", "storageDimsNum", "<= 64", "got 65"});

  Dims ones64(64, 1);
  aclTensor* rank64 = create(ones64, ACL_FLOAT, nullptr, 0, ones64);
  ASSERT_NE(rank64, nullptr) << aclGetRecentErrMsg();
  EXPECT_EQ(view_shape(rank64).size(), 64u);
  aclDestroyTensor(rank64);
  Dims rank9_dims{1, 2, 1, 2, 1, 2, 1, 2, 1};
  aclTensor* rank9 = create(rank9_dims, ACL_FLOAT, nullptr, 0, rank9_dims);
  ASSERT_NE(rank9, nullptr) << aclGetRecentErrMsg();
  EXPECT_EQ(view_shape(rank9), rank9_dims);
  aclDestroyTensor(rank9);
}

TEST(CreateTensor, UnknownDtypeIsRejected) {
  for (int dtype : {-1, 5, 14, 100}) {
    EXPECT_EQ(create({2}, static_cast<aclDataType>(dtype), nullptr, 0, {2}), nullptr) << dtype;
    expect_message({"aclCreateTensor", "dataType " + std::to_string(dtype)});
  }
}

TEST(CreateTensor, UnknownFormatIsRejected) {
  int64_t dims[] = {2};
  // 60 is no aclFormat but inside the enum's range (a value outside it is undefined behaviour).
  EXPECT_EQ(
      aclCreateTensor(dims, 1, ACL_FLOAT, nullptr, 0, static_cast<aclFormat>(60), dims, 1, nullptr),
      nullptr);
  expect_message({"aclCreateTensor", "format 60"});
}

TEST(CreateTensor, EveryKnownDtypeIsAccepted) {
  for (aclDataType dtype :
       {ACL_FLOAT,       ACL_FLOAT16,       ACL_INT8,        ACL_INT32,       ACL_UINT8,
        ACL_INT16,       ACL_UINT16,        ACL_UINT32,      ACL_INT64,       ACL_UINT64,
        ACL_DOUBLE,      ACL_BOOL,          ACL_STRING,      ACL_COMPLEX64,   ACL_COMPLEX128,
        ACL_BF16,        ACL_INT4,          ACL_UINT1,       ACL_COMPLEX32,   ACL_HIFLOAT8,
        ACL_FLOAT8_E5M2, ACL_FLOAT8_E4M3FN, ACL_FLOAT8_E8M0, ACL_FLOAT6_E3M2, ACL_FLOAT6_E2M3,
        ACL_FLOAT4_E2M1, ACL_FLOAT4_E1M2}) {
    aclTensor* tensor = create({2}, dtype, nullptr, 0, {2});
    EXPECT_NE(tensor, nullptr) << dtype << ": " << aclGetRecentErrMsg();
    aclDestroyTensor(tensor);
  }
}

TEST(CreateTensor, NegativeOffsetIsRejected) {
  EXPECT_EQ(create({2}, ACL_FLOAT, nullptr, -1, {2}), nullptr);
  expect_message({"aclCreateTensor", "offset", "got -1"});
}

TEST(CreateTensor, DestroyNullIsFine) { EXPECT_EQ(aclDestroyTensor(nullptr), ACLNN_SUCCESS); }

TEST(TensorGetters, NullArguments) {
  oa_test::TensorPtr tensor = oa_test::make_tensor({2, 2}, ACL_FLOAT, nullptr);
  int64_t* values = nullptr;
  uint64_t count = 0;
  expect_error(aclGetViewShape(nullptr, &values, &count), ACLNN_ERR_PARAM_NULLPTR,
               {"aclGetViewShape", "tensor"});
  expect_error(aclGetViewShape(tensor.get(), nullptr, &count), ACLNN_ERR_PARAM_NULLPTR,
               {"aclGetViewShape", "viewDims is null"});
  expect_error(aclGetViewShape(tensor.get(), &values, nullptr), ACLNN_ERR_PARAM_NULLPTR,
               {"aclGetViewShape", "viewDimsNum is null"});
  expect_error(aclGetStorageShape(nullptr, &values, &count), ACLNN_ERR_PARAM_NULLPTR,
               {"aclGetStorageShape", "tensor"});
  expect_error(aclGetStorageShape(tensor.get(), nullptr, &count), ACLNN_ERR_PARAM_NULLPTR,
               {"aclGetStorageShape", "storageDims is null"});
  expect_error(aclGetStorageShape(tensor.get(), &values, nullptr), ACLNN_ERR_PARAM_NULLPTR,
               {"aclGetStorageShape", "storageDimsNum is null"});
  expect_error(aclGetViewStrides(nullptr, &values, &count), ACLNN_ERR_PARAM_NULLPTR,
               {"aclGetViewStrides", "tensor"});
  expect_error(aclGetViewStrides(tensor.get(), nullptr, &count), ACLNN_ERR_PARAM_NULLPTR,
               {"aclGetViewStrides", "stridesValue is null"});
  expect_error(aclGetViewStrides(tensor.get(), &values, nullptr), ACLNN_ERR_PARAM_NULLPTR,
               {"aclGetViewStrides", "stridesNum is null"});
  EXPECT_EQ(values, nullptr);  // nothing was allocated by the failed calls

  int64_t offset = 0;
  aclFormat format = ACL_FORMAT_ND;
  aclDataType dtype = ACL_FLOAT;
  expect_error(aclGetViewOffset(nullptr, &offset), ACLNN_ERR_PARAM_NULLPTR,
               {"aclGetViewOffset", "tensor"});
  expect_error(aclGetViewOffset(tensor.get(), nullptr), ACLNN_ERR_PARAM_NULLPTR,
               {"aclGetViewOffset", "offset is null"});
  expect_error(aclGetFormat(nullptr, &format), ACLNN_ERR_PARAM_NULLPTR, {"aclGetFormat", "tensor"});
  expect_error(aclGetFormat(tensor.get(), nullptr), ACLNN_ERR_PARAM_NULLPTR,
               {"aclGetFormat", "format is null"});
  expect_error(aclGetDataType(nullptr, &dtype), ACLNN_ERR_PARAM_NULLPTR,
               {"aclGetDataType", "tensor"});
  expect_error(aclGetDataType(tensor.get(), nullptr), ACLNN_ERR_PARAM_NULLPTR,
               {"aclGetDataType", "dataType is null"});
}

template <typename T>
T scalar_value(const aclScalar* scalar) {
  T value;
  std::memcpy(&value, scalar->bytes, sizeof(T));
  return value;
}

TEST(Scalar, ValueIsCopied) {
  float f = 1.5f;
  aclScalar* scalar = aclCreateScalar(&f, ACL_FLOAT);
  ASSERT_NE(scalar, nullptr) << aclGetRecentErrMsg();
  f = -2.0f;
  EXPECT_EQ(scalar->dtype, ACL_FLOAT);
  EXPECT_EQ(scalar_value<float>(scalar), 1.5f);
  EXPECT_EQ(aclDestroyScalar(scalar), ACLNN_SUCCESS);

  double d = 0.1;
  scalar = aclCreateScalar(&d, ACL_DOUBLE);
  ASSERT_NE(scalar, nullptr);
  EXPECT_EQ(scalar_value<double>(scalar), 0.1);
  aclDestroyScalar(scalar);

  int64_t i = -(int64_t{1} << 40);
  scalar = aclCreateScalar(&i, ACL_INT64);
  ASSERT_NE(scalar, nullptr);
  EXPECT_EQ(scalar_value<int64_t>(scalar), i);
  aclDestroyScalar(scalar);

  uint16_t half_one = 0x3c00;
  scalar = aclCreateScalar(&half_one, ACL_FLOAT16);
  ASSERT_NE(scalar, nullptr);
  EXPECT_EQ(scalar_value<uint16_t>(scalar), 0x3c00);
  aclDestroyScalar(scalar);

  std::complex<double> c(1.0, -2.0);
  scalar = aclCreateScalar(&c, ACL_COMPLEX128);
  ASSERT_NE(scalar, nullptr);
  EXPECT_EQ(scalar_value<std::complex<double>>(scalar), c);
  aclDestroyScalar(scalar);

  uint8_t flag = 1;
  scalar = aclCreateScalar(&flag, ACL_BOOL);
  ASSERT_NE(scalar, nullptr);
  EXPECT_EQ(scalar_value<uint8_t>(scalar), 1);
  aclDestroyScalar(scalar);
}

TEST(Scalar, NullValueIsRejected) {
  EXPECT_EQ(aclCreateScalar(nullptr, ACL_FLOAT), nullptr);
  expect_message({"aclCreateScalar", "value is null"});
}

TEST(Scalar, DtypeWithoutWholeBytesIsRejected) {
  int64_t value = 0;
  for (aclDataType dtype : {ACL_INT4, ACL_UINT1, ACL_FLOAT4_E2M1, ACL_STRING, ACL_DT_UNDEFINED,
                            static_cast<aclDataType>(5)}) {
    EXPECT_EQ(aclCreateScalar(&value, dtype), nullptr) << dtype;
    expect_message({"aclCreateScalar", "dataType"});
  }
  EXPECT_EQ(aclCreateScalar(&value, ACL_INT4), nullptr);
  expect_message({"aclCreateScalar", "dataType INT4", "cannot be a scalar"});
  EXPECT_EQ(aclCreateScalar(&value, static_cast<aclDataType>(5)), nullptr);
  expect_message({"aclCreateScalar", "dataType DT_5"});
}

TEST(Scalar, DestroyNullIsFine) { EXPECT_EQ(aclDestroyScalar(nullptr), ACLNN_SUCCESS); }

TEST(IntArray, ValuesAreCopied) {
  Dims values{3, -1, 7};
  aclIntArray* array = aclCreateIntArray(values.data(), values.size());
  ASSERT_NE(array, nullptr) << aclGetRecentErrMsg();
  values[0] = 99;
  EXPECT_EQ(array->values, (Dims{3, -1, 7}));
  EXPECT_EQ(aclDestroyIntArray(array), ACLNN_SUCCESS);
}

TEST(IntArray, NullWithSizeIsRejected) {
  EXPECT_EQ(aclCreateIntArray(nullptr, 3), nullptr);
  expect_message({"aclCreateIntArray", "value is null", "size is 3"});
}

TEST(IntArray, EmptyWithNullIsFine) {
  aclIntArray* array = aclCreateIntArray(nullptr, 0);
  ASSERT_NE(array, nullptr) << aclGetRecentErrMsg();
  EXPECT_TRUE(array->values.empty());
  aclDestroyIntArray(array);
  EXPECT_EQ(aclDestroyIntArray(nullptr), ACLNN_SUCCESS);
}

}  // namespace

namespace {

// Handles are checked against the registry of live ones: a destroyed (or never created) handle is
// reported, never read or freed twice.
TEST(Handles, DestroyedTensorIsReported) {
  const Dims shape = {2};
  aclTensor* tensor = create(shape, ACL_FLOAT, nullptr, 0, shape);
  ASSERT_NE(tensor, nullptr);
  ASSERT_EQ(aclDestroyTensor(tensor), ACLNN_SUCCESS);
  expect_error(aclDestroyTensor(tensor), ACLNN_ERR_PARAM_INVALID,
               {"aclDestroyTensor: ",
                "is not a live aclTensor (destroyed, or not from "
                "aclCreateTensor)"});
  aclDataType dtype = ACL_FLOAT;
  expect_error(aclGetDataType(tensor, &dtype), ACLNN_ERR_PARAM_INVALID,
               {"aclGetDataType: ", "is not a live aclTensor"});
  int64_t* dims = nullptr;
  uint64_t count = 0;
  expect_error(aclGetViewShape(tensor, &dims, &count), ACLNN_ERR_PARAM_INVALID,
               {"aclGetViewShape: ", "is not a live aclTensor"});
  EXPECT_EQ(dims, nullptr);
}

TEST(Handles, DestroyedScalarAndIntArrayAreReported) {
  float value = 1;
  aclScalar* scalar = aclCreateScalar(&value, ACL_FLOAT);
  ASSERT_EQ(aclDestroyScalar(scalar), ACLNN_SUCCESS);
  expect_error(aclDestroyScalar(scalar), ACLNN_ERR_PARAM_INVALID,
               {"aclDestroyScalar: ", "is not a live aclScalar"});
  const int64_t values[] = {1, 2};
  aclIntArray* array = aclCreateIntArray(values, 2);
  ASSERT_EQ(aclDestroyIntArray(array), ACLNN_SUCCESS);
  uint64_t size = 0;
  expect_error(aclGetIntArraySize(array, &size), ACLNN_ERR_PARAM_INVALID,
               {"aclGetIntArraySize: ", "is not a live aclIntArray"});
  expect_error(aclDestroyIntArray(array), ACLNN_ERR_PARAM_INVALID,
               {"aclDestroyIntArray: ", "is not a live aclIntArray"});
}

}  // namespace
