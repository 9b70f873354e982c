#include "names.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>

#include "array.h"

namespace oa::tool {

std::pair<std::string, std::string> split_assignment(const std::string& option,
                                                     const std::string& text) {
  const size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0) {
    throw UsageError(option + " expects NAME=VALUE, got '" + text + "'");
  }
  return {text.substr(0, eq), text.substr(eq + 1)};
}

std::vector<int64_t> parse_int_list(const std::string& what, const std::string& text) {
  std::vector<int64_t> values;
  if (text.empty()) {
    return values;
  }
  size_t start = 0;
  while (true) {
    const size_t comma = text.find(',', start);
    const std::string item =
        text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    char* end = nullptr;
    errno = 0;
    const long long value = std::strtoll(item.c_str(), &end, 10);
    if (item.empty() || *end != '\0' || errno != 0 ||
        std::isspace(static_cast<unsigned char>(item[0]))) {
      throw UsageError(what + " expects comma-separated integers, got '" + text + "'");
    }
    values.push_back(value);
    if (comma == std::string::npos) {
      return values;
    }
    start = comma + 1;
  }
}

std::vector<int64_t> parse_shape(const std::string& text) {
  std::vector<int64_t> shape;
  size_t start = 0;
  while (!text.empty() && start <= text.size()) {
    const size_t end = std::min(text.find(',', start), text.size());
    const std::string dim = text.substr(start, end - start);
    // 18 digits always fit in int64_t; larger dims could never be read anyway.
    const bool valid =
        !dim.empty() && dim.size() <= 18 &&
        std::all_of(dim.begin(), dim.end(), [](unsigned char c) { return std::isdigit(c) != 0; });
    if (!valid) {
      throw UsageError("bad shape '" + text +
                       "': expected comma-separated non-negative dims such as 2,3 (\"\" for 0-d)");
    }
    shape.push_back(std::stoll(dim));
    start = end + 1;
  }
  return shape;
}

std::string loose_name(const std::string& name) {
  std::string loose;
  for (const char ch : name) {
    if (ch != '_' && ch != '-') {
      loose += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    }
  }
  return loose;
}

}  // namespace oa::tool
