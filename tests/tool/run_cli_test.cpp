// `openaclnn run`, as a process: each operator end to end through files, and each bad input.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

#include "openaclnn/files.h"
#include "tool_arrays.h"
#include "tool_process.h"

namespace oa::test {
namespace {

using ::testing::HasSubstr;

class RunCli : public ::testing::Test {
 protected:
  // Writes an array as .npy into the scratch folder and returns its path.
  std::string npy(const std::string& name, aclDataType dtype, const std::vector<int64_t>& shape,
                  const std::vector<double>& values) {
    const std::string path = dir.file(name);
    tool::write_npy(path, make_array(dtype, shape, values));
    return path;
  }

  tool::Array read(const std::string& name, std::optional<aclDataType> as = std::nullopt) {
    return tool::read_npy(dir.file(name), as);
  }

  ScratchDir dir;
};

TEST_F(RunCli, SmoothL1LossBackwardBroadcastsAndMixesDtypes) {
  // gradOutput 0-d, target broadcast along rows and in bf16: every value and result is exact.
  const std::vector<double> x = {0, 0.5, 3, -2, 1, -0.25};
  const std::vector<double> y = {0.25, 0.5, 1};
  const ToolRun r = run_tool({"run", "smooth_l1_loss_backward", "--reduction", "none", "--beta",
                              "1", "--in", "gradOutput=" + npy("g.npy", ACL_FLOAT, {}, {2}), "--in",
                              "self=" + npy("x.npy", ACL_FLOAT, {2, 3}, x), "--in",
                              "target=" + npy("y.npy", ACL_BF16, {3}, y), "--dtype", "target=bf16",
                              "--out", "gradInput=" + dir.file("gi.npy")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("gradInput: float32 [2, 3] -> " + dir.file("gi.npy")));
  const tool::Array gi = read("gi.npy");
  EXPECT_EQ(gi.shape, (std::vector<int64_t>{2, 3}));
  // d = x - y = {-0.25, 0, 2, -2.25, 0.5, -1.25}; grad = clamp(d, -1, 1) * 2.
  EXPECT_EQ(array_values(gi), (std::vector<double>{-0.5, 0, 2, -2, 1, -2}));
}

TEST_F(RunCli, SmoothL1LossMeanIsZeroDimensional) {
  const ToolRun r = run_tool({"run", "SmoothL1Loss", "--reduction", "mean", "--beta", "0.5", "--in",
                              "self=" + npy("x.npy", ACL_FLOAT16, {4}, {0, 1, 2, 0.25}), "--in",
                              "target=" + npy("y.npy", ACL_FLOAT16, {4}, {0, 0, 0, 0}), "--out",
                              "result=" + dir.file("loss.npy")});
  ASSERT_EQ(r.status, 0) << r.err;
  const tool::Array loss = read("loss.npy");
  EXPECT_EQ(loss.dtype, ACL_FLOAT16);
  EXPECT_TRUE(loss.shape.empty());
  // Terms: 0, 1 - 0.25, 2 - 0.25, 0.5 * 0.0625 / 0.5; their mean is 2.5625 / 4.
  EXPECT_EQ(array_values(loss), (std::vector<double>{0.640625}));
}

TEST_F(RunCli, AnOptionalArrayAttributeIsListedAsOptional) {
  // Convolution's outputPadding may be null (CANN passes none when not transposed).
  const ToolRun list = run_tool({"list", "Convolution"});
  ASSERT_EQ(list.status, 0) << list.err;
  EXPECT_NE(list.out.find("--output-padding (optional)"), std::string::npos) << list.out;
}

TEST_F(RunCli, ConvTbcReadsAndWritesRawBin) {
  // T=3, B=1, Cin=2, K=2, Cout=1, pad 1: Tout = 4; small integers, exact in float32.
  const std::vector<double> x = {1, 2, 3, 4, 5, 6};
  const std::vector<double> w = {1, -1, 2, 1};  // w[k][ci][0]
  tool::write_bin(dir.file("x.bin"), make_array(ACL_FLOAT, {3, 1, 2}, x));
  tool::write_bin(dir.file("w.bin"), make_array(ACL_FLOAT, {2, 2, 1}, w));
  const ToolRun r = run_tool({"run",     "ConvTbc",
                              "--pad",   "1",
                              "--in",    "self=" + dir.file("x.bin"),
                              "--shape", "self=3,1,2",
                              "--dtype", "self=float32",
                              "--in",    "weight=" + dir.file("w.bin"),
                              "--shape", "weight=2,2,1",
                              "--dtype", "weight=float32",
                              "--in",    "bias=" + npy("b.npy", ACL_FLOAT, {1}, {10}),
                              "--out",   "output=" + dir.file("y.bin")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("output: float32 [4, 1, 1]"));
  const tool::Array y = tool::read_bin(dir.file("y.bin"), ACL_FLOAT, {4, 1, 1});
  std::vector<double> expected(4, 10);
  for (int t = 0; t < 4; ++t) {
    for (int k = 0; k < 2; ++k) {
      const int s = t + k - 1;
      if (s >= 0 && s < 3) {
        expected[t] += x[s * 2] * w[k * 2] + x[s * 2 + 1] * w[k * 2 + 1];
      }
    }
  }
  EXPECT_EQ(array_values(y), expected);
}

TEST_F(RunCli, ConvTbcBackwardWritesOnlyTheRequestedOutputsInTheRequestedDtype) {
  const ToolRun r = run_tool(
      {"run", "ConvTbcBackward", "--in", "self=" + npy("g.npy", ACL_FLOAT, {2, 1, 1}, {1, 2}),
       "--in", "input=" + npy("x.npy", ACL_FLOAT, {2, 1, 1}, {3, 4}), "--in",
       "weight=" + npy("w.npy", ACL_FLOAT, {1, 1, 1}, {0.5}), "--in",
       "bias=" + npy("b.npy", ACL_FLOAT, {1}, {0}), "--out", "gradWeight=" + dir.file("gw.npy"),
       "--out-dtype", "gradWeight=hif8", "--out", "gradBias=" + dir.file("gb.npy")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(dir.names(),
            (std::vector<std::string>{"b.npy", "g.npy", "gb.npy", "gw.npy", "w.npy", "x.npy"}));
  // gradWeight = 1*3 + 2*4 = 11 (HiFloat8 holds it exactly); gradBias = 1 + 2.
  const tool::Array gw = read("gw.npy", ACL_HIFLOAT8);
  EXPECT_EQ(gw.dtype, ACL_HIFLOAT8);
  EXPECT_EQ(array_values(gw), (std::vector<double>{11}));
  EXPECT_EQ(array_values(read("gb.npy")), (std::vector<double>{3}));
}

TEST_F(RunCli, DtypesTakeCannSpellingsToo) {
  const ToolRun r = run_tool(
      {"run", "conv_tbc_backward", "--in", "self=" + npy("g.npy", ACL_FLOAT, {1, 1, 1}, {2}),
       "--in", "input=" + npy("x.npy", ACL_FLOAT, {1, 1, 1}, {-3}), "--in",
       "weight=" + npy("w.npy", ACL_FLOAT, {1, 1, 1}, {1}), "--in",
       "bias=" + npy("b.npy", ACL_FLOAT, {1}, {0}), "--out", "gradWeight=" + dir.file("gw.bin"),
       "--out-dtype", "gradWeight=FLOAT8_E4M3FN"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("gradWeight: e4m3fn [1, 1, 1]"));
  const tool::Array gw = tool::read_bin(dir.file("gw.bin"), ACL_FLOAT8_E4M3FN, {1, 1, 1});
  EXPECT_EQ(array_values(gw), (std::vector<double>{-6}));
}

TEST_F(RunCli, AdaptiveMaxPool2dForwardFeedsTheBackward) {
  // One 2x3 plane pooled to 1x2: windows are columns [0, 2) and [1, 3).
  const std::vector<double> x = {1, 5, 2, 4, 3, 6};
  ToolRun r =
      run_tool({"run", "AdaptiveMaxPool2d", "--output-size", "1,2", "--in",
                "self=" + npy("x.npy", ACL_BF16, {1, 2, 3}, x), "--dtype", "self=bf16", "--out",
                "outputOut=" + dir.file("y.npy"), "--out", "indicesOut=" + dir.file("i.npy")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(array_values(read("y.npy", ACL_BF16)), (std::vector<double>{5, 6}));
  const tool::Array indices = read("i.npy");
  EXPECT_EQ(indices.dtype, ACL_INT64);
  EXPECT_EQ(array_values(indices), (std::vector<double>{1, 5}));

  r = run_tool({"run", "AdaptiveMaxPool2dBackward", "--in",
                "gradOutput=" + npy("gy.npy", ACL_BF16, {1, 1, 2}, {0.5, 2}), "--dtype",
                "gradOutput=bf16", "--in", "self=" + dir.file("x.npy"), "--dtype", "self=bf16",
                "--in", "indices=" + dir.file("i.npy"), "--out",
                "gradInput=" + dir.file("gx.npy")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(array_values(read("gx.npy", ACL_BF16)), (std::vector<double>{0, 0.5, 0, 0, 0, 2}));
}

// DOUBLE pooling from a float64 .npy, INT64 indices out; every value exact.
TEST_F(RunCli, Float64Pooling) {
  const ToolRun r =
      run_tool({"run", "AdaptiveMaxPool2d", "--output-size", "1,2", "--in",
                "self=" + npy("x.npy", ACL_DOUBLE, {1, 2, 2}, {1, 1 + 1e-12, 5, -3}), "--out",
                "outputOut=" + dir.file("y.npy"), "--out", "indicesOut=" + dir.file("i.npy")});
  ASSERT_EQ(r.status, 0) << r.err;
  const tool::Array y = read("y.npy");
  EXPECT_EQ(y.dtype, ACL_DOUBLE);
  EXPECT_EQ(array_values(y), (std::vector<double>{5, 1 + 1e-12}));
  EXPECT_EQ(array_values(read("i.npy")), (std::vector<double>{2, 1}));
}

// A bare --format gives every 4-d tensor NCHW; the 1-d bias stays ND, the output follows input.
TEST_F(RunCli, ConvolutionTakesAFormatForEveryTensorOfItsRank) {
  const ToolRun r = run_tool(
      {"run", "Convolution", "--in",
       "input=" + npy("x.npy", ACL_FLOAT, {1, 1, 3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9}), "--in",
       "weight=" + npy("w.npy", ACL_FLOAT, {1, 1, 2, 2}, {1, 0, 0, 1}), "--in",
       "bias=" + npy("b.npy", ACL_FLOAT, {1}, {0.5}), "--stride", "1,1", "--padding", "0,0",
       "--dilation", "1,1", "--format", "NCHW", "--out", "output=" + dir.file("y.npy")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("output: float32 [1, 1, 2, 2]"));
  // y[i][j] = x[i][j] + x[i + 1][j + 1] + 0.5.
  EXPECT_EQ(array_values(read("y.npy")), (std::vector<double>{6.5, 8.5, 12.5, 14.5}));
}

// Formats by tensor name; gradInput follows input's, gradWeight weight's, gradBias is ND.
TEST_F(RunCli, ConvolutionBackwardTakesFormatsByName) {
  const ToolRun r = run_tool({"run",
                              "ConvolutionBackward",
                              "--in",
                              "gradOutput=" + npy("g.npy", ACL_FLOAT, {1, 1, 2}, {1, 2}),
                              "--in",
                              "input=" + npy("x.npy", ACL_FLOAT, {1, 1, 3}, {3, 4, 5}),
                              "--in",
                              "weight=" + npy("w.npy", ACL_FLOAT, {1, 1, 2}, {0.5, -1}),
                              "--format",
                              "gradOutput=NCL",
                              "--format",
                              "input=ncl",
                              "--format",
                              "weight=NCL",
                              "--bias-sizes",
                              "1",
                              "--stride",
                              "1",
                              "--padding",
                              "0",
                              "--dilation",
                              "1",
                              "--output-padding",
                              "0",
                              "--output-mask",
                              "1,1,1",
                              "--out",
                              "gradInput=" + dir.file("gi.npy"),
                              "--out",
                              "gradWeight=" + dir.file("gw.npy"),
                              "--out",
                              "gradBias=" + dir.file("gb.npy")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(array_values(read("gi.npy")), (std::vector<double>{0.5, 0, -2}));
  EXPECT_EQ(array_values(read("gw.npy")), (std::vector<double>{11, 14}));
  EXPECT_EQ(array_values(read("gb.npy")), (std::vector<double>{3}));
}

// A failed run exits with 2, says why on stderr and leaves the folder as it was.
class RunCliError : public RunCli {
 protected:
  void expect_failure(const std::vector<std::string>& args, const std::string& message) {
    const std::vector<std::string> before = dir.names();
    const ToolRun r = run_tool(args);
    EXPECT_EQ(r.status, 2) << r.out << r.err;
    EXPECT_THAT(r.err, HasSubstr(message));
    EXPECT_EQ(dir.names(), before);
  }
};

// The forward writes INT64 indices only, as CANN: an INT32 output asked for is the library's
// rejection.
TEST_F(RunCliError, Int32ForwardIndicesAreRejected) {
  expect_failure({"run", "AdaptiveMaxPool2d", "--output-size", "1,1", "--in",
                  "self=" + npy("x.npy", ACL_FLOAT, {1, 1, 2}, {7, 8}), "--out",
                  "indicesOut=" + dir.file("i.npy"), "--out-dtype", "indicesOut=int32"},
                 "161002: aclnnAdaptiveMaxPool2d: indicesOut dtype must be one of {INT64}, got "
                 "INT32");
}

TEST_F(RunCliError, UnknownOperator) {
  expect_failure({"run", "Conv2d", "--out", "y=" + dir.file("y.npy")},
                 "unknown operator 'Conv2d' (operators: AdaptiveMaxPool2d,");
}

TEST_F(RunCliError, MissingInput) {
  expect_failure({"run", "SmoothL1Loss", "--in", "self=" + npy("x.npy", ACL_FLOAT, {1}, {1}),
                  "--out", "result=" + dir.file("r.npy")},
                 "SmoothL1Loss needs --in target=FILE (inputs: self, target)");
}

TEST_F(RunCliError, UnknownInputName) {
  expect_failure({"run", "SmoothL1Loss", "--in", "x=" + npy("x.npy", ACL_FLOAT, {1}, {1}), "--out",
                  "result=" + dir.file("r.npy")},
                 "SmoothL1Loss has no input named 'x' (inputs: self, target)");
}

TEST_F(RunCliError, NoOutputRequested) {
  expect_failure({"run", "SmoothL1Loss", "--in", "self=" + npy("x.npy", ACL_FLOAT, {1}, {1}),
                  "--in", "target=" + dir.file("x.npy")},
                 "SmoothL1Loss needs at least one --out NAME=FILE (outputs: result)");
}

TEST_F(RunCliError, AttributeTheOperatorDoesNotTake) {
  expect_failure(
      {"run", "SmoothL1Loss", "--pad", "1", "--in", "self=" + npy("x.npy", ACL_FLOAT, {1}, {1}),
       "--in", "target=" + dir.file("x.npy"), "--out", "result=" + dir.file("r.npy")},
      "SmoothL1Loss takes no --pad (its attributes: reduction, beta)");
}

TEST_F(RunCliError, BadReductionName) {
  expect_failure({"run", "SmoothL1Loss", "--reduction", "max", "--in",
                  "self=" + npy("x.npy", ACL_FLOAT, {1}, {1}), "--in",
                  "target=" + dir.file("x.npy"), "--out", "result=" + dir.file("r.npy")},
                 "--reduction expects none, mean, sum or an integer, got 'max'");
}

TEST_F(RunCliError, LibraryRejectsAReductionWithItsCodeAndMessage) {
  expect_failure({"run", "SmoothL1Loss", "--reduction", "5", "--in",
                  "self=" + npy("x.npy", ACL_FLOAT, {1}, {1}), "--in",
                  "target=" + dir.file("x.npy"), "--out", "result=" + dir.file("r.npy")},
                 "aclnnSmoothL1LossGetWorkspaceSize failed with 161002: aclnnSmoothL1Loss: "
                 "reduction");
}

TEST_F(RunCliError, LibraryRejectsAShape) {
  expect_failure(
      {"run", "ConvTbc", "--in", "self=" + npy("x.npy", ACL_FLOAT, {3, 1, 2}, {1, 2, 3, 4, 5, 6}),
       "--in", "weight=" + npy("w.npy", ACL_FLOAT, {1, 3, 1}, {1, 1, 1}), "--in",
       "bias=" + npy("b.npy", ACL_FLOAT, {1}, {0}), "--out", "output=" + dir.file("y.npy")},
      "aclnnConvTbcGetWorkspaceSize failed with 161002: aclnnConvTbc: self dim 2 (Cin=2) "
      "must equal weight dim 1 (Cin=3)");
}

TEST_F(RunCliError, LibraryRejectsADtype) {
  expect_failure({"run", "AdaptiveMaxPool2d", "--output-size", "1,1", "--in",
                  "self=" + npy("x.npy", ACL_INT32, {1, 1, 2}, {7, 8}), "--out",
                  "outputOut=" + dir.file("y.npy")},
                 "failed with 161002: aclnnAdaptiveMaxPool2d: self dtype must be one of");
}

TEST_F(RunCliError, OutOfRangeIndexIsADataError) {
  expect_failure({"run", "AdaptiveMaxPool2dBackward", "--in",
                  "gradOutput=" + npy("g.npy", ACL_FLOAT, {1, 1, 1}, {1}), "--in",
                  "self=" + npy("x.npy", ACL_FLOAT, {1, 2, 2}, {1, 2, 3, 4}), "--in",
                  "indices=" + npy("i.npy", ACL_INT64, {1, 1, 1}, {6}), "--out",
                  "gradInput=" + dir.file("gx.npy")},
                 "aclnnAdaptiveMaxPool2dBackward failed with");
}

TEST_F(RunCliError, MissingOutputSize) {
  expect_failure(
      {"run", "AdaptiveMaxPool2d", "--in", "self=" + npy("x.npy", ACL_FLOAT, {1, 1, 2}, {7, 8}),
       "--out", "outputOut=" + dir.file("y.npy")},
      "AdaptiveMaxPool2d needs --output-size ((Ho, Wo)");
}

TEST_F(RunCliError, MissingFile) {
  expect_failure({"run", "SmoothL1Loss", "--in", "self=" + dir.file("none.npy"), "--in",
                  "target=" + dir.file("none.npy"), "--out", "result=" + dir.file("r.npy")},
                 dir.file("none.npy"));
}

TEST_F(RunCliError, TruncatedNpy) {
  const std::string path = npy("x.npy", ACL_FLOAT, {4}, {1, 2, 3, 4});
  const std::string bytes = read_file_bytes(path);
  write_file_bytes(path, bytes.substr(0, bytes.size() - 3));
  expect_failure({"run", "SmoothL1Loss", "--in", "self=" + path, "--in", "target=" + path, "--out",
                  "result=" + dir.file("r.npy")},
                 path);
}

TEST_F(RunCliError, BinSizeDoesNotMatchTheShape) {
  tool::write_bin(dir.file("x.bin"), make_array(ACL_FLOAT, {3}, {1, 2, 3}));
  expect_failure({"run", "SmoothL1Loss", "--in", "self=" + dir.file("x.bin"), "--shape", "self=4",
                  "--dtype", "self=float32", "--in", "target=" + npy("y.npy", ACL_FLOAT, {1}, {0}),
                  "--out", "result=" + dir.file("r.npy")},
                 dir.file("x.bin"));
}

TEST_F(RunCliError, UnwritableOutputLeavesNoOtherOutput) {
  // gradBias can be written, gradWeight cannot (its folder does not exist): neither appears.
  expect_failure(
      {"run", "ConvTbcBackward", "--in", "self=" + npy("g.npy", ACL_FLOAT, {2, 1, 1}, {1, 2}),
       "--in", "input=" + npy("x.npy", ACL_FLOAT, {2, 1, 1}, {3, 4}), "--in",
       "weight=" + npy("w.npy", ACL_FLOAT, {1, 1, 1}, {0.5}), "--in",
       "bias=" + npy("b.npy", ACL_FLOAT, {1}, {0}), "--out", "gradBias=" + dir.file("gb.npy"),
       "--out", "gradWeight=" + dir.file("missing/gw.npy")},
      dir.file("missing/gw.npy"));
}

class ConvolutionCliError : public RunCliError {
 protected:
  // A 1-D convolution of one element with a kernel of one, plus `extra`.
  std::vector<std::string> conv1d(const std::vector<std::string>& extra) {
    std::vector<std::string> args = {
        "run",        "Convolution",
        "--in",       "input=" + npy("x.npy", ACL_FLOAT, {1, 1, 1}, {2}),
        "--in",       "weight=" + npy("w.npy", ACL_FLOAT, {1, 1, 1}, {3}),
        "--stride",   "1",
        "--padding",  "0",
        "--dilation", "1",
        "--out",      "output=" + dir.file("y.npy")};
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
  }
};

TEST_F(ConvolutionCliError, NoFormatIsTheLibrarysRejectionOfNd) {
  expect_failure(conv1d({}), "161002: aclnnConvolution: input format must be NCL");
}

TEST_F(ConvolutionCliError, UnknownFormat) {
  expect_failure(conv1d({"--format", "input=NLC"}),
                 "--format input=NLC: unknown format 'NLC' (formats: NCHW, NHWC, ND,");
}

TEST_F(ConvolutionCliError, UnknownTensorName) {
  expect_failure(conv1d({"--format", "x=NCL"}),
                 "--format x=NCL: Convolution has no tensor named 'x' (inputs: input, weight, "
                 "bias; outputs: output)");
}

TEST_F(ConvolutionCliError, FormatGivenTwice) {
  expect_failure(conv1d({"--format", "input=NCL", "--format", "input=ND"}),
                 "--format names 'input' twice");
  expect_failure(conv1d({"--format", "NCL", "--format", "ND"}),
                 "--format ND: a format for every tensor is given twice");
}

TEST_F(ConvolutionCliError, AnOutputTheMaskLeavesOutIsNotWritten) {
  expect_failure({"run",
                  "ConvolutionBackward",
                  "--in",
                  "gradOutput=" + npy("g.npy", ACL_FLOAT, {1, 1, 1}, {1}),
                  "--in",
                  "input=" + npy("x.npy", ACL_FLOAT, {1, 1, 1}, {2}),
                  "--in",
                  "weight=" + npy("w.npy", ACL_FLOAT, {1, 1, 1}, {3}),
                  "--format",
                  "NCL",
                  "--bias-sizes",
                  "1",
                  "--stride",
                  "1",
                  "--padding",
                  "0",
                  "--dilation",
                  "1",
                  "--output-padding",
                  "0",
                  "--output-mask",
                  "1,0,0",
                  "--out",
                  "gradInput=" + dir.file("gi.npy"),
                  "--out",
                  "gradWeight=" + dir.file("gw.npy")},
                 "this call does not compute gradWeight (see outputMask)");
}

}  // namespace
}  // namespace oa::test
