// Parameter lookup of the definition layer: by param_key address and by characters alike.
#include "core/op/definition.h"

#include <gtest/gtest.h>

#include <string>

#include "core/op/build.h"

namespace {

oa::OpDef two_params() {
  oa::OpDef def("TestLookup", "aclnnop/aclnn_test.h", "two parameters");
  def.params = {oa::build::input("self", {ACL_FLOAT}, "any"),
                oa::build::integer("reduction", "0..2", {{"none", 0}, {"mean", 1}}, 1)};
  return def;
}

TEST(ParamKey, EqualNamesShareOneAddress) {
  const std::string name = "reduction";
  EXPECT_EQ(oa::param_key(name), oa::param_key("reduction"));
  EXPECT_NE(oa::param_key("self"), oa::param_key("reduction"));
  EXPECT_STREQ(oa::param_key(name), "reduction");
}

TEST(ParamKey, BuiltParamsHoldTheirKey) {
  const oa::OpDef def = two_params();
  EXPECT_EQ(def.params[0].key, oa::param_key("self"));
  EXPECT_EQ(def.params[1].key, oa::param_key("reduction"));
}

TEST(CallIndex, FindsKeysAndOtherStringsOfTheName) {
  const oa::OpDef def = two_params();
  const oa::Call call(def, {oa::Arg(static_cast<const aclTensor*>(nullptr)), oa::Arg(int64_t{2})},
                      nullptr, nullptr);
  EXPECT_EQ(call.index(oa::param_key("self")), 0);
  EXPECT_EQ(call.index(oa::param_key("reduction")), 1);
  const std::string copy = "reduction";  // not the key's address
  EXPECT_EQ(call.index(copy.c_str()), 1);
  EXPECT_EQ(call.integer(copy.c_str()), 2);
}

TEST(CallIndexDeathTest, AnUnknownNameAborts) {
  const oa::OpDef def = two_params();
  const oa::Call call(def, {oa::Arg(static_cast<const aclTensor*>(nullptr)), oa::Arg(int64_t{0})},
                      nullptr, nullptr);
  EXPECT_DEATH(call.index("target"), "no parameter target");
}

}  // namespace
