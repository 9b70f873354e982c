// Failure reporting shared by every API: a thread-local "recent error" message, readable with
// aclGetRecentErrMsg(), and a stderr log that honours ASCEND_GLOBAL_LOG_LEVEL.
#pragma once

#include <cstdarg>
#include <string>

namespace oa {

enum class LogLevel { debug = 0, info = 1, warning = 2, error = 3, off = 4 };

// The level in force: ASCEND_GLOBAL_LOG_LEVEL (0..4), error when unset or malformed. Read at each
// call so that a process can change it.
LogLevel log_level();

// Writes "[LEVEL] openaclnn: message" to stderr when level is at or above the level in force.
// Whether a message at level is printed under the current ASCEND_GLOBAL_LOG_LEVEL.
bool log_enabled(LogLevel level);

void log(LogLevel level, const std::string& message);
void logf(LogLevel level, const char* format, ...) __attribute__((format(printf, 2, 3)));

// Records message as the calling thread's recent error, logs it as an error, and returns code.
int fail(int code, const std::string& message);
int failf(int code, const char* format, ...) __attribute__((format(printf, 2, 3)));

const char* recent_error();

std::string vformat(const char* format, va_list args);
std::string format(const char* format, ...) __attribute__((format(printf, 1, 2)));

}  // namespace oa
