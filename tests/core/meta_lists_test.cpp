// Tensor and scalar lists, float and bool arrays (the meta C API beyond SPEC section 3): a list
// owns its elements, every handle is checked against a registry.
#include <cstdint>
#include <vector>

#include "core/lists.h"
#include "core/values.h"
#include "test_env.h"

namespace {

using oa_test::expect_error;
using oa_test::expect_message;

aclTensor* host_tensor(std::vector<int64_t> shape) {
  aclTensor* tensor = aclCreateTensor(shape.data(), shape.size(), ACL_FLOAT, nullptr, 0,
                                      ACL_FORMAT_ND, shape.data(), shape.size(), nullptr);
  EXPECT_NE(tensor, nullptr) << aclGetRecentErrMsg();
  return tensor;
}

aclScalar* float_scalar(float value) {
  aclScalar* scalar = aclCreateScalar(&value, ACL_FLOAT);
  EXPECT_NE(scalar, nullptr) << aclGetRecentErrMsg();
  return scalar;
}

TEST(TensorList, HoldsItsTensorsAndDestroysThem) {
  aclTensor* a = host_tensor({2});
  aclTensor* b = host_tensor({3, 4});
  const aclTensor* tensors[] = {a, nullptr, b};
  aclTensorList* list = aclCreateTensorList(tensors, 3);
  ASSERT_NE(list, nullptr) << aclGetRecentErrMsg();
  uint64_t size = 0;
  ASSERT_EQ(aclGetTensorListSize(list, &size), ACLNN_SUCCESS);
  EXPECT_EQ(size, 3u);
  EXPECT_EQ(list->tensors[0], a);
  EXPECT_EQ(list->tensors[1], nullptr);
  EXPECT_EQ(list->tensors[2], b);
  EXPECT_TRUE(oa::is_live(list));
  EXPECT_EQ(oa::owning_list(a), list);
  // The list owns them: destroying one on its own is refused (it would be destroyed twice).
  expect_error(aclDestroyTensor(a), ACLNN_ERR_PARAM_INVALID,
               {"aclDestroyTensor", "belongs to aclTensorList", "aclDestroyTensorList"});
  ASSERT_EQ(aclDestroyTensorList(list), ACLNN_SUCCESS);  // ASan: a and b are freed here
  EXPECT_FALSE(oa::is_live(list));
  EXPECT_EQ(oa::owning_list(a), nullptr);
}

TEST(TensorList, EmptyAndNull) {
  aclTensorList* empty = aclCreateTensorList(nullptr, 0);
  ASSERT_NE(empty, nullptr) << aclGetRecentErrMsg();
  uint64_t size = 9;
  ASSERT_EQ(aclGetTensorListSize(empty, &size), ACLNN_SUCCESS);
  EXPECT_EQ(size, 0u);
  EXPECT_EQ(aclDestroyTensorList(empty), ACLNN_SUCCESS);
  EXPECT_EQ(aclDestroyTensorList(nullptr), ACLNN_SUCCESS);
  EXPECT_EQ(aclCreateTensorList(nullptr, 2), nullptr);
  expect_message({"aclCreateTensorList", "value is null but size is 2"});
}

TEST(TensorList, AnElementCannotBeInTwoListsOrTwiceInOne) {
  aclTensor* a = host_tensor({1});
  const aclTensor* twice[] = {a, a};
  EXPECT_EQ(aclCreateTensorList(twice, 2), nullptr);
  expect_message({"aclCreateTensorList", "value[1] is the same tensor as value[0]"});
  aclTensorList* first = aclCreateTensorList(twice, 1);
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(aclCreateTensorList(twice, 1), nullptr);
  expect_message({"aclCreateTensorList", "value[0]", "already belongs to aclTensorList"});
  EXPECT_EQ(aclDestroyTensorList(first), ACLNN_SUCCESS);
}

TEST(TensorList, DestroyedOrForeignHandlesAreReported) {
  aclTensorList* list = aclCreateTensorList(nullptr, 0);
  ASSERT_EQ(aclDestroyTensorList(list), ACLNN_SUCCESS);
  expect_error(aclDestroyTensorList(list), ACLNN_ERR_PARAM_INVALID,
               {"aclDestroyTensorList", "not a live aclTensorList", "aclCreateTensorList"});
  uint64_t size = 0;
  expect_error(aclGetTensorListSize(list, &size), ACLNN_ERR_PARAM_INVALID,
               {"aclGetTensorListSize", "not a live aclTensorList"});
  int not_a_list = 0;
  expect_error(aclDestroyTensorList(reinterpret_cast<aclTensorList*>(&not_a_list)),
               ACLNN_ERR_PARAM_INVALID, {"aclDestroyTensorList", "not a live aclTensorList"});
  expect_error(aclGetTensorListSize(nullptr, &size), ACLNN_ERR_PARAM_NULLPTR,
               {"aclGetTensorListSize", "tensorList is null"});
  aclTensorList* live = aclCreateTensorList(nullptr, 0);
  expect_error(aclGetTensorListSize(live, nullptr), ACLNN_ERR_PARAM_NULLPTR,
               {"aclGetTensorListSize", "size is null"});
  EXPECT_EQ(aclDestroyTensorList(live), ACLNN_SUCCESS);
}

TEST(TensorList, TooLargeIsReported) {
  aclTensor* a = host_tensor({1});
  const aclTensor* one[] = {a};
  EXPECT_EQ(aclCreateTensorList(one, UINT64_MAX / 2), nullptr);
  expect_message({"aclCreateTensorList", "too large"});
  EXPECT_EQ(aclDestroyTensor(a), ACLNN_SUCCESS);  // still the caller's
}

TEST(ScalarList, HoldsItsScalarsAndDestroysThem) {
  aclScalar* a = float_scalar(1.5f);
  aclScalar* b = float_scalar(-2.0f);
  const aclScalar* scalars[] = {a, b};
  aclScalarList* list = aclCreateScalarList(scalars, 2);
  ASSERT_NE(list, nullptr) << aclGetRecentErrMsg();
  uint64_t size = 0;
  ASSERT_EQ(aclGetScalarListSize(list, &size), ACLNN_SUCCESS);
  EXPECT_EQ(size, 2u);
  EXPECT_EQ(list->scalars[1], b);
  expect_error(aclDestroyScalar(b), ACLNN_ERR_PARAM_INVALID,
               {"aclDestroyScalar", "belongs to aclScalarList", "aclDestroyScalarList"});
  const aclScalar* again[] = {b};
  EXPECT_EQ(aclCreateScalarList(again, 1), nullptr);
  expect_message({"aclCreateScalarList", "already belongs to aclScalarList"});
  ASSERT_EQ(aclDestroyScalarList(list), ACLNN_SUCCESS);
  expect_error(aclDestroyScalarList(list), ACLNN_ERR_PARAM_INVALID,
               {"aclDestroyScalarList", "not a live aclScalarList", "aclCreateScalarList"});
  expect_error(aclGetScalarListSize(list, &size), ACLNN_ERR_PARAM_INVALID,
               {"aclGetScalarListSize", "not a live aclScalarList"});
  expect_error(aclGetScalarListSize(nullptr, &size), ACLNN_ERR_PARAM_NULLPTR,
               {"aclGetScalarListSize", "scalarList is null"});
  EXPECT_EQ(aclDestroyScalarList(nullptr), ACLNN_SUCCESS);
  EXPECT_EQ(aclCreateScalarList(nullptr, 1), nullptr);
  expect_message({"aclCreateScalarList", "value is null but size is 1"});
}

TEST(FloatArray, CopiesItsValues) {
  std::vector<float> values = {0.5f, -1.0f, 3.25f};
  aclFloatArray* array = aclCreateFloatArray(values.data(), values.size());
  ASSERT_NE(array, nullptr) << aclGetRecentErrMsg();
  values[0] = 99;  // a copy: the array keeps the values it was given
  EXPECT_EQ(array->values, (std::vector<float>{0.5f, -1.0f, 3.25f}));
  uint64_t size = 0;
  ASSERT_EQ(aclGetFloatArraySize(array, &size), ACLNN_SUCCESS);
  EXPECT_EQ(size, 3u);
  ASSERT_EQ(aclDestroyFloatArray(array), ACLNN_SUCCESS);
  expect_error(aclDestroyFloatArray(array), ACLNN_ERR_PARAM_INVALID,
               {"aclDestroyFloatArray", "not a live aclFloatArray", "aclCreateFloatArray"});
  expect_error(aclGetFloatArraySize(array, &size), ACLNN_ERR_PARAM_INVALID,
               {"aclGetFloatArraySize", "not a live aclFloatArray"});
  expect_error(aclGetFloatArraySize(nullptr, &size), ACLNN_ERR_PARAM_NULLPTR,
               {"aclGetFloatArraySize", "array is null"});
  EXPECT_EQ(aclCreateFloatArray(nullptr, 4), nullptr);
  expect_message({"aclCreateFloatArray", "value is null but size is 4"});
  EXPECT_EQ(aclCreateFloatArray(values.data(), UINT64_MAX / 2), nullptr);
  expect_message({"aclCreateFloatArray", "too large"});
  EXPECT_EQ(aclDestroyFloatArray(nullptr), ACLNN_SUCCESS);
  aclFloatArray* empty = aclCreateFloatArray(nullptr, 0);
  ASSERT_NE(empty, nullptr);
  EXPECT_EQ(aclDestroyFloatArray(empty), ACLNN_SUCCESS);
}

TEST(BoolArray, CopiesItsValues) {
  bool values[] = {true, false, true, true};
  aclBoolArray* array = aclCreateBoolArray(values, 4);
  ASSERT_NE(array, nullptr) << aclGetRecentErrMsg();
  EXPECT_EQ(array->values, (std::vector<bool>{true, false, true, true}));
  uint64_t size = 0;
  ASSERT_EQ(aclGetBoolArraySize(array, &size), ACLNN_SUCCESS);
  EXPECT_EQ(size, 4u);
  expect_error(aclGetBoolArraySize(array, nullptr), ACLNN_ERR_PARAM_NULLPTR,
               {"aclGetBoolArraySize", "size is null"});
  ASSERT_EQ(aclDestroyBoolArray(array), ACLNN_SUCCESS);
  expect_error(aclDestroyBoolArray(array), ACLNN_ERR_PARAM_INVALID,
               {"aclDestroyBoolArray", "not a live aclBoolArray", "aclCreateBoolArray"});
  int not_an_array = 0;
  expect_error(aclGetBoolArraySize(reinterpret_cast<aclBoolArray*>(&not_an_array), &size),
               ACLNN_ERR_PARAM_INVALID, {"aclGetBoolArraySize", "not a live aclBoolArray"});
  EXPECT_EQ(aclCreateBoolArray(nullptr, 1), nullptr);
  expect_message({"aclCreateBoolArray", "value is null but size is 1"});
}

TEST(IntArray, Size) {
  int64_t values[] = {4, 5};
  aclIntArray* array = aclCreateIntArray(values, 2);
  ASSERT_NE(array, nullptr);
  uint64_t size = 0;
  ASSERT_EQ(aclGetIntArraySize(array, &size), ACLNN_SUCCESS);
  EXPECT_EQ(size, 2u);
  expect_error(aclGetIntArraySize(nullptr, &size), ACLNN_ERR_PARAM_NULLPTR,
               {"aclGetIntArraySize", "array is null"});
  expect_error(aclGetIntArraySize(array, nullptr), ACLNN_ERR_PARAM_NULLPTR,
               {"aclGetIntArraySize", "size is null"});
  EXPECT_EQ(aclDestroyIntArray(array), ACLNN_SUCCESS);
}

}  // namespace
