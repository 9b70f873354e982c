// Failures are logged to stderr as honoured by ASCEND_GLOBAL_LOG_LEVEL (SPEC section 5):
// 0 debug, 1 info, 2 warning, 3 error (the default), 4 off.
#include <optional>
#include <string>

#include "runtime/error.h"
#include "test_env.h"

namespace {

using oa_test::ScopedEnv;

// The stderr output of one failing call (aclrtGetDevice with a null pointer) under level.
std::string stderr_of_failure(std::optional<std::string> level) {
  ScopedEnv env("ASCEND_GLOBAL_LOG_LEVEL", std::move(level));
  ::testing::internal::CaptureStderr();
  aclError status = aclrtGetDevice(nullptr);
  std::string output = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(status, ACL_ERROR_RT_PARAM_INVALID);
  return output;
}

TEST(Log, ErrorLevelPrintsTheFailure) {
  std::string output = stderr_of_failure("3");
  EXPECT_NE(output.find("[ERROR] openaclnn: aclrtGetDevice: deviceId is null"), std::string::npos)
      << output;
  EXPECT_NE(output.find("107000"), std::string::npos) << output;
}

TEST(Log, OffPrintsNothing) { EXPECT_EQ(stderr_of_failure("4"), ""); }

TEST(Log, UnsetOrMalformedMeansError) {
  for (std::optional<std::string> level :
       {std::optional<std::string>(), std::optional<std::string>("9"),
        std::optional<std::string>("34"), std::optional<std::string>("")}) {
    std::string output = stderr_of_failure(level);
    EXPECT_NE(output.find("[ERROR] openaclnn: aclrtGetDevice"), std::string::npos)
        << "level " << level.value_or("(unset)") << ": " << output;
  }
}

TEST(Log, LowerLevelsPrintErrorsToo) {
  for (const char* level : {"0", "1", "2"}) {
    EXPECT_NE(stderr_of_failure(level).find("[ERROR] openaclnn: aclrtGetDevice"), std::string::npos)
        << level;
  }
}

TEST(Log, LevelsFilterByImportance) {
  auto captured = [](const char* level, oa::LogLevel message_level) {
    ScopedEnv env("ASCEND_GLOBAL_LOG_LEVEL", level);
    ::testing::internal::CaptureStderr();
    oa::log(message_level, "probe");
    return ::testing::internal::GetCapturedStderr();
  };
  EXPECT_EQ(captured("0", oa::LogLevel::debug), "[DEBUG] openaclnn: probe\n");
  EXPECT_EQ(captured("1", oa::LogLevel::debug), "");
  EXPECT_EQ(captured("1", oa::LogLevel::info), "[INFO] openaclnn: probe\n");
  EXPECT_EQ(captured("2", oa::LogLevel::info), "");
  EXPECT_EQ(captured("2", oa::LogLevel::warning), "[WARNING] openaclnn: probe\n");
  EXPECT_EQ(captured("3", oa::LogLevel::warning), "");
  EXPECT_EQ(captured("4", oa::LogLevel::error), "");
}

TEST(Log, TheEnvironmentIsRestored) {
  const char* before = std::getenv("ASCEND_GLOBAL_LOG_LEVEL");
  std::string saved = before == nullptr ? "(unset)" : before;
  stderr_of_failure("4");
  const char* after = std::getenv("ASCEND_GLOBAL_LOG_LEVEL");
  EXPECT_EQ(after == nullptr ? "(unset)" : after, saved);
}

}  // namespace
