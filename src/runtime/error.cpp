#include "runtime/error.h"

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "acl/acl_base.h"

namespace oa {
namespace {

thread_local std::string g_recent_error;

const char* level_name(LogLevel level) {
  switch (level) {
    case LogLevel::debug:
      return "DEBUG";
    case LogLevel::info:
      return "INFO";
    case LogLevel::warning:
      return "WARNING";
    default:
      return "ERROR";
  }
}

// Writes one line to stderr; the caller has checked the level.
void print(LogLevel level, const std::string& message) {
  std::fprintf(stderr, "[%s] openaclnn: %s\n", level_name(level), message.c_str());
}

}  // namespace

LogLevel log_level() {
  const char* text = std::getenv("ASCEND_GLOBAL_LOG_LEVEL");
  if (text == nullptr || text[0] < '0' || text[0] > '4' || text[1] != '\0') {
    return LogLevel::error;
  }
  return static_cast<LogLevel>(text[0] - '0');
}

bool log_enabled(LogLevel level) {
  const LogLevel threshold = log_level();
  return threshold != LogLevel::off && level >= threshold;
}

void log(LogLevel level, const std::string& message) {
  if (log_enabled(level)) {
    print(level, message);
  }
}

void logf(LogLevel level, const char* format, ...) {
  // Most calls are debug lines nobody asked for: skip the formatting, not just the printing.
  if (!log_enabled(level)) {
    return;
  }
  va_list args;
  va_start(args, format);
  const std::string message = vformat(format, args);
  va_end(args);
  print(level, message);
}

int fail(int code, const std::string& message) {
  g_recent_error = message;
  if (log_enabled(LogLevel::error)) {
    print(LogLevel::error, message + " (code " + std::to_string(code) + ")");
  }
  return code;
}

int failf(int code, const char* format, ...) {
  va_list args;
  va_start(args, format);
  std::string message = vformat(format, args);
  va_end(args);
  return fail(code, message);
}

const char* recent_error() { return g_recent_error.c_str(); }

std::string vformat(const char* format, va_list args) {
  va_list copy;
  va_copy(copy, args);
  int length = std::vsnprintf(nullptr, 0, format, copy);
  va_end(copy);
  if (length <= 0) {
    return {};
  }
  std::string text(static_cast<size_t>(length) + 1, '\0');
  std::vsnprintf(text.data(), text.size(), format, args);
  text.resize(static_cast<size_t>(length));
  return text;
}

std::string format(const char* format, ...) {
  va_list args;
  va_start(args, format);
  std::string text = vformat(format, args);
  va_end(args);
  return text;
}

}  // namespace oa

extern "C" ACL_FUNC_VISIBILITY const char* aclGetRecentErrMsg(void) { return oa::recent_error(); }
