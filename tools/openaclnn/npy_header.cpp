#include "npy_header.h"

#include <cctype>
#include <limits>

#include "array.h"

namespace oa::tool {
namespace {

// A recursive-descent parser for the small subset of Python literals that numpy's header uses.
class HeaderParser {
 public:
  HeaderParser(const std::string& path, const std::string& text) : path_(path), text_(text) {}

  NpyHeader parse() {
    NpyHeader header;
    bool has_descr = false;
    bool has_order = false;
    bool has_shape = false;
    expect('{');
    while (!accept('}')) {
      const std::string key = parse_string();
      expect(':');
      if (key == "descr" && !has_descr) {
        header.descr = parse_string();
        has_descr = true;
      } else if (key == "fortran_order" && !has_order) {
        header.fortran_order = parse_bool();
        has_order = true;
      } else if (key == "shape" && !has_shape) {
        header.shape = parse_shape();
        has_shape = true;
      } else {
        error("unexpected or repeated key '" + key + "'");
      }
      if (!accept(',')) {
        expect('}');
        break;
      }
    }
    skip_spaces();
    if (pos_ != text_.size()) {
      error("unexpected text after the dict");
    }
    if (!has_descr) {
      error("missing key 'descr'");
    }
    if (!has_order) {
      error("missing key 'fortran_order'");
    }
    if (!has_shape) {
      error("missing key 'shape'");
    }
    return header;
  }

 private:
  [[noreturn]] void error(const std::string& what) {
    constexpr size_t kShown = 200;
    std::string shown = text_.substr(0, kShown);
    while (!shown.empty() && std::isspace(static_cast<unsigned char>(shown.back()))) {
      shown.pop_back();
    }
    for (char& c : shown) {
      c = std::isprint(static_cast<unsigned char>(c)) ? c : '?';
    }
    throw UsageError(path_ + ": malformed .npy header (" + what + " at offset " +
                     std::to_string(pos_) + "): " + shown + (text_.size() > kShown ? "..." : ""));
  }

  void skip_spaces() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t' ||
                                   text_[pos_] == '\r' || text_[pos_] == '\n')) {
      ++pos_;
    }
  }

  // Skips whitespace and consumes c if it comes next.
  bool accept(char c) {
    skip_spaces();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }

  void expect(char c) {
    if (!accept(c)) {
      error(std::string("expected '") + c + "'");
    }
  }

  std::string parse_string() {
    skip_spaces();
    if (pos_ >= text_.size() || (text_[pos_] != '\'' && text_[pos_] != '"')) {
      error("expected a string");
    }
    const char quote = text_[pos_++];
    const size_t start = pos_;
    while (pos_ < text_.size() && text_[pos_] != quote) {
      // numpy's keys and dtype strings never need escapes or line breaks.
      if (text_[pos_] == '\\' || text_[pos_] == '\n') {
        error("unsupported character in a string");
      }
      ++pos_;
    }
    if (pos_ >= text_.size()) {
      error("unterminated string");
    }
    return text_.substr(start, pos_++ - start);
  }

  bool parse_bool() {
    skip_spaces();
    const size_t start = pos_;
    while (pos_ < text_.size() && std::isalnum(static_cast<unsigned char>(text_[pos_]))) {
      ++pos_;
    }
    const std::string word = text_.substr(start, pos_ - start);
    if (word != "True" && word != "False") {
      pos_ = start;
      error("expected True or False");
    }
    return word == "True";
  }

  int64_t parse_dim() {
    skip_spaces();
    const size_t start = pos_;
    int64_t value = 0;
    while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
      const int digit = text_[pos_] - '0';
      if (value > (std::numeric_limits<int64_t>::max() - digit) / 10) {
        error("dimension too large");
      }
      value = value * 10 + digit;
      ++pos_;
    }
    if (pos_ == start) {
      error("expected a non-negative integer");
    }
    return value;
  }

  // "()", "(3,)", "(2, 3)", "(2, 3,)"; "(3)" is not a tuple in Python, so it is refused.
  std::vector<int64_t> parse_shape() {
    std::vector<int64_t> shape;
    expect('(');
    if (accept(')')) {
      return shape;
    }
    shape.push_back(parse_dim());
    if (!accept(',')) {
      error("shape is not a tuple (a one-element tuple needs a trailing comma)");
    }
    while (!accept(')')) {
      shape.push_back(parse_dim());
      if (!accept(',')) {
        expect(')');
        break;
      }
    }
    return shape;
  }

  const std::string& path_;
  const std::string& text_;
  size_t pos_ = 0;
};

}  // namespace

NpyHeader parse_npy_header(const std::string& path, const std::string& text) {
  return HeaderParser(path, text).parse();
}

}  // namespace oa::tool
