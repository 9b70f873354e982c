// `openaclnn compare` run as a process: its report, its exit status and its errors.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "base/float_convert.h"
#include "openaclnn/files.h"
#include "tool_process.h"

namespace oa::tool {
namespace {

using oa::test::run_tool;
using oa::test::ScratchDir;
using oa::test::ToolRun;

template <typename T>
Array array_of(aclDataType dtype, std::vector<int64_t> shape, const std::vector<T>& values) {
  Array array;
  array.dtype = dtype;
  array.shape = std::move(shape);
  const auto* bytes = reinterpret_cast<const uint8_t*>(values.data());
  array.bytes.assign(bytes, bytes + values.size() * sizeof(T));
  return array;
}

Array floats(std::vector<int64_t> shape, const std::vector<float>& values) {
  return array_of(ACL_FLOAT, std::move(shape), values);
}

std::string last_line(const std::string& text) {
  const size_t end = text.find_last_not_of('\n');
  const size_t start = text.rfind('\n', end);
  return text.substr(start == std::string::npos ? 0 : start + 1, end - start);
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

class CompareCliTest : public ::testing::Test {
 protected:
  ScratchDir dir_;
  std::string expected_ = dir_.file("expected.npy");
  std::string actual_ = dir_.file("actual.npy");
};

TEST_F(CompareCliTest, EqualArraysPass) {
  write_npy(expected_, floats({2, 3}, {1, 2, 3, 4, 5, 6}));
  write_npy(actual_, floats({2, 3}, {1, 2, 3, 4, 5, 6.0001f}));
  const ToolRun run = run_tool({"compare", expected_, actual_});
  EXPECT_EQ(run.status, 0) << run.out << run.err;
  EXPECT_EQ(last_line(run.out), "PASS: 0 of 6 elements outside rtol=0.0001 atol=0.0001");
  EXPECT_TRUE(has(run.out, "cosine similarity:  1.000000000"));
  EXPECT_EQ(run.err, "");
}

TEST_F(CompareCliTest, DifferencesFailWithTheirPositions) {
  write_npy(expected_, floats({2, 3}, {1, 2, 3, 4, 5, 0}));
  write_npy(actual_, floats({2, 3}, {1, 2, 3.5f, 4, std::nanf(""), 0.00005f}));
  const ToolRun run = run_tool({"compare", expected_, actual_});
  EXPECT_EQ(run.status, 1) << run.out << run.err;
  EXPECT_TRUE(has(run.out, "max abs error:      0.5 at [0, 2]")) << run.out;
  EXPECT_TRUE(has(run.out, "NaN mismatches:     1")) << run.out;
  EXPECT_TRUE(has(run.out,
                  "first 2 outside tolerance:\n"
                  "  [0, 2] expected 3 actual 3.5\n"
                  "  [1, 1] expected 5 actual nan\n"))
      << run.out;
  EXPECT_EQ(last_line(run.out), "FAIL: 2 of 6 elements outside rtol=0.0001 atol=0.0001");
}

TEST_F(CompareCliTest, ListsTheFirstTenOutsideElements) {
  write_npy(expected_, floats({4, 5}, std::vector<float>(20, 1)));
  write_npy(actual_, floats({4, 5}, std::vector<float>(20, 2)));
  const ToolRun run = run_tool({"compare", expected_, actual_});
  EXPECT_EQ(run.status, 1);
  EXPECT_TRUE(has(run.out, "first 10 outside tolerance:")) << run.out;
  EXPECT_TRUE(has(run.out, "  [1, 4] expected 1 actual 2\n")) << run.out;
  EXPECT_FALSE(has(run.out, "[2, 0]")) << run.out;
  EXPECT_EQ(last_line(run.out), "FAIL: 20 of 20 elements outside rtol=0.0001 atol=0.0001");
}

TEST_F(CompareCliTest, GivenTolerancesReplaceTheDefaults) {
  write_npy(expected_, floats({2}, {1, 2}));
  write_npy(actual_, floats({2}, {1.25f, 2}));
  EXPECT_EQ(run_tool({"compare", expected_, actual_}).status, 1);
  const ToolRun loose = run_tool({"compare", expected_, actual_, "--rtol", "0.25", "--atol", "0"});
  EXPECT_EQ(loose.status, 0) << loose.out << loose.err;
  EXPECT_EQ(last_line(loose.out), "PASS: 0 of 2 elements outside rtol=0.25 atol=0");
  // atol follows a given rtol unless it is given too.
  const ToolRun rtol_only = run_tool({"compare", expected_, actual_, "--rtol", "0.125"});
  EXPECT_EQ(rtol_only.status, 0) << rtol_only.out;
  EXPECT_EQ(run_tool({"compare", expected_, actual_, "--rtol", "-1"}).status, 2);
}

TEST_F(CompareCliTest, IntegersMustMatchExactly) {
  write_npy(expected_, array_of<int32_t>(ACL_INT32, {3}, {1, 2, 3}));
  write_npy(actual_, array_of<int32_t>(ACL_INT32, {3}, {1, 2, 4}));
  const ToolRun run = run_tool({"compare", expected_, actual_});
  EXPECT_EQ(run.status, 1);
  EXPECT_EQ(last_line(run.out), "FAIL: 1 of 3 elements outside rtol=0 atol=0");
}

TEST_F(CompareCliTest, ShapeMismatchIsAUsageError) {
  write_npy(expected_, floats({2, 3}, {1, 2, 3, 4, 5, 6}));
  write_npy(actual_, floats({3, 2}, {1, 2, 3, 4, 5, 6}));
  const ToolRun run = run_tool({"compare", expected_, actual_});
  EXPECT_EQ(run.status, 2);
  EXPECT_TRUE(has(run.err, "the shapes differ")) << run.err;
  EXPECT_TRUE(has(run.err, "[3, 2]")) << run.err;
  write_npy(actual_, floats({4}, {1, 2, 3, 4}));
  EXPECT_EQ(run_tool({"compare", expected_, actual_}).status, 2);
}

TEST_F(CompareCliTest, UnreadableInputsAreUsageErrors) {
  write_npy(expected_, floats({2, 3}, {1, 2, 3, 4, 5, 6}));
  const ToolRun missing = run_tool({"compare", expected_, dir_.file("none.npy")});
  EXPECT_EQ(missing.status, 2);
  EXPECT_TRUE(has(missing.err, dir_.file("none.npy") + ": no such file")) << missing.err;

  std::string bytes = oa::test::read_file_bytes(expected_);
  bytes.resize(bytes.size() - 4);
  oa::test::write_file_bytes(actual_, bytes);
  const ToolRun truncated = run_tool({"compare", expected_, actual_});
  EXPECT_EQ(truncated.status, 2);
  EXPECT_TRUE(has(truncated.err, actual_ + ": truncated data")) << truncated.err;
  EXPECT_TRUE(has(truncated.err, "needs 24 bytes after the header, the file has 20 bytes"));
}

TEST_F(CompareCliTest, BinInputsTakeShapeAndDtype) {
  write_npy(expected_, floats({2, 3}, {1, 2, 3, 4, 5, 6}));
  const std::string bin = dir_.file("actual.bin");
  write_bin(bin, floats({6}, {1, 2, 3, 4, 5, 6}));
  const ToolRun run = run_tool({"compare", expected_, bin, "--shape", "2,3", "--dtype", "float32"});
  EXPECT_EQ(run.status, 0) << run.out << run.err;
  EXPECT_TRUE(has(run.out, "actual:             " + bin + " (float32 [2, 3])")) << run.out;

  std::vector<uint16_t> bf16;
  for (float value : {1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f}) {
    bf16.push_back(oa::float_to_bf16(value));
  }
  write_bin(bin, array_of(ACL_BF16, {6}, bf16));
  const ToolRun mixed =
      run_tool({"compare", expected_, bin, "--shape", "2,3", "--dtype", "actual=bf16"});
  EXPECT_EQ(mixed.status, 0) << mixed.out << mixed.err;
  EXPECT_EQ(last_line(mixed.out), "PASS: 0 of 6 elements outside rtol=0.004 atol=0.004");

  const ToolRun no_shape = run_tool({"compare", expected_, bin, "--dtype", "actual=bf16"});
  EXPECT_EQ(no_shape.status, 2);
  EXPECT_TRUE(has(no_shape.err, "give its shape and dtype")) << no_shape.err;
  const ToolRun wrong_size =
      run_tool({"compare", expected_, bin, "--shape", "3,3", "--dtype", "actual=bf16"});
  EXPECT_EQ(wrong_size.status, 2);
  EXPECT_TRUE(has(wrong_size.err, "has 12 bytes, but shape [3, 3] of bf16 needs exactly 18"));
  EXPECT_EQ(
      run_tool({"compare", expected_, bin, "--shape", "2,x", "--dtype", "actual=bf16"}).status, 2);
  EXPECT_EQ(run_tool({"compare", expected_, bin, "--shape", "2,3", "--dtype", "other=bf16"}).status,
            2);
}

TEST_F(CompareCliTest, Bf16NpyNeedsItsDtype) {
  write_npy(expected_, array_of<uint16_t>(ACL_BF16, {2}, {0x3F80, 0x4000}));
  write_npy(actual_, array_of<uint16_t>(ACL_BF16, {2}, {0x3F80, 0x4000}));
  const ToolRun run = run_tool({"compare", expected_, actual_});
  EXPECT_EQ(run.status, 2);
  EXPECT_TRUE(has(run.err, "--dtype NAME=bf16")) << run.err;
  const ToolRun with_dtype = run_tool({"compare", expected_, actual_, "--dtype", "bf16"});
  EXPECT_EQ(with_dtype.status, 0) << with_dtype.out << with_dtype.err;
  EXPECT_EQ(last_line(with_dtype.out), "PASS: 0 of 2 elements outside rtol=0.004 atol=0.004");
}

TEST_F(CompareCliTest, EmptyAndZeroDimensionalArrays) {
  write_npy(expected_, floats({0, 3}, {}));
  write_npy(actual_, floats({0, 3}, {}));
  const ToolRun empty = run_tool({"compare", expected_, actual_});
  EXPECT_EQ(empty.status, 0) << empty.out << empty.err;
  EXPECT_EQ(last_line(empty.out), "PASS: the arrays are empty, nothing to compare");

  write_npy(expected_, floats({}, {2}));
  write_npy(actual_, floats({}, {3}));
  const ToolRun scalar = run_tool({"compare", expected_, actual_});
  EXPECT_EQ(scalar.status, 1);
  EXPECT_TRUE(has(scalar.out, "  [] expected 2 actual 3\n")) << scalar.out;
}

}  // namespace
}  // namespace oa::tool
