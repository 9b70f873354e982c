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

namespace {

// The comma-separated items of text (empty ones included); none for "".
std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> items;
  if (text.empty()) {
    return items;
  }
  size_t start = 0;
  while (true) {
    const size_t comma = text.find(',', start);
    items.push_back(text.substr(start, comma == std::string::npos ? comma : comma - start));
    if (comma == std::string::npos) {
      return items;
    }
    start = comma + 1;
  }
}

}  // namespace

std::vector<int64_t> parse_int_list(const std::string& what, const std::string& text) {
  std::vector<int64_t> values;
  for (const std::string& item : split_list(text)) {
    char* end = nullptr;
    errno = 0;
    const long long value = std::strtoll(item.c_str(), &end, 10);
    if (item.empty() || *end != '\0' || errno != 0 ||
        std::isspace(static_cast<unsigned char>(item[0]))) {
      throw UsageError(what + " expects comma-separated integers, got '" + text + "'");
    }
    values.push_back(value);
  }
  return values;
}

std::vector<int64_t> parse_shape(const std::string& text) {
  std::vector<int64_t> shape;
  for (const std::string& dim : split_list(text)) {
    // 18 digits always fit in int64_t; larger dims could never be read anyway.
    const bool valid =
        !dim.empty() && dim.size() <= 18 &&
        std::all_of(dim.begin(), dim.end(), [](unsigned char c) { return std::isdigit(c) != 0; });
    if (!valid) {
      throw UsageError("bad shape '" + text +
                       "': expected comma-separated non-negative dims such as 2,3 (\"\" for 0-d)");
    }
    shape.push_back(std::stoll(dim));
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
