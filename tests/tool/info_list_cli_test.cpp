// `openaclnn info` and `openaclnn list`, as processes.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

#include "base/dtype.h"
#include "core/op/definition.h"
#include "test_env.h"
#include "tool_process.h"

namespace oa::test {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

TEST(InfoCli, ShowsVersionBuildFeaturesPathThreadsAndGemm) {
  const ToolRun r = run_tool({"info"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr(std::string("openaclnn ") + OPENACLNN_TEST_VERSION + " ("));
  EXPECT_THAT(r.out, HasSubstr("CPU features: "));
  EXPECT_THAT(r.out, HasSubstr("SIMD targets: "));
  EXPECT_THAT(r.out, HasSubstr("SIMD path:    "));
  EXPECT_THAT(r.out, HasSubstr("GEMM library: oneDNN "));
}

TEST(InfoCli, FollowsTheEnvironment) {
  oa_test::ScopedEnv isa("OPENACLNN_CPU_ISA", "scalar");
  oa_test::ScopedEnv threads("OPENACLNN_NUM_THREADS", "3");
  const ToolRun r = run_tool({"info"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("SIMD path:    scalar (OPENACLNN_CPU_ISA=scalar)"));
  EXPECT_THAT(r.out, HasSubstr("threads:      3 "));
}

// The line of `listing` that describes parameter `name`; empty when there is none.
std::string param_line(const std::string& listing, const std::string& name) {
  std::istringstream lines(listing);
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream words(line);
    std::string kind, word;
    if (words >> kind >> word && word == name) {
      return line;
    }
  }
  return "";
}

TEST(ListCli, ShowsEveryDefinitionsParametersChecksAndImplementations) {
  for (const OpDef* op : definitions()) {
    const ToolRun r = run_tool({"list", op->name});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_THAT(r.out, HasSubstr(op->name + ": " + op->summary));
    for (const Param& p : op->params) {
      const std::string line = param_line(r.out, p.name);
      ASSERT_FALSE(line.empty()) << op->name << " " << p.name << " missing in\n" << r.out;
      EXPECT_THAT(line, HasSubstr(p.rule));
      if (is_tensor(p.kind)) {
        EXPECT_THAT(line, HasSubstr(dtype_list(p.dtypes) + ": "));
      }
    }
    for (size_t k = 0; k < op->checks.size(); ++k) {
      EXPECT_THAT(r.out, HasSubstr(std::to_string(k + 1) + ". " + op->checks[k].rule));
    }
    EXPECT_THAT(r.out, HasSubstr("implementations, in order: "));
    EXPECT_THAT(r.out, HasSubstr("reference\n"));
  }
}

TEST(ListCli, ShowsWhatTheChecksAccept) {
  const ToolRun r = run_tool({"list"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(param_line(r.out, "gradWeight"),
              HasSubstr("{FLOAT, FLOAT16, BF16, HIFLOAT8, FLOAT8_E4M3FN}"));
  EXPECT_THAT(param_line(r.out, "indices"), HasSubstr("{INT32, INT64}"));
  EXPECT_THAT(param_line(r.out, "outputSize"), HasSubstr("--output-size (required)"));
  EXPECT_THAT(param_line(r.out, "reduction"), HasSubstr("--reduction (default mean)"));
  EXPECT_THAT(param_line(r.out, "pad"), HasSubstr("int64 >= 0"));
}

TEST(ListCli, OneOperatorByLooseName) {
  const ToolRun r = run_tool({"list", "aclnn_conv_tbc_backward"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("ConvTbcBackward: "));
  EXPECT_THAT(r.out, Not(HasSubstr("SmoothL1Loss")));
}

TEST(ListCli, UnknownOperatorIsAUsageError) {
  const ToolRun r = run_tool({"list", "Softmax"});
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("unknown operator 'Softmax' (operators: AdaptiveMaxPool2d, "));
}

TEST(Cli, NoSubcommandIsAUsageError) {
  const ToolRun r = run_tool({});
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("subcommand"));
}

TEST(Cli, HelpExitsZero) {
  const ToolRun r = run_tool({"run", "--help"});
  EXPECT_EQ(r.status, 0);
  EXPECT_THAT(r.out, HasSubstr("--output-size"));
}

}  // namespace
}  // namespace oa::test
