// The header dict of a .npy file: the Python dict literal numpy writes after the magic string.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace oa::tool {

struct NpyHeader {
  std::string descr;
  bool fortran_order = false;
  std::vector<int64_t> shape;
};

// Parses text, a dict with exactly the keys 'descr' (a string), 'fortran_order' (True or False)
// and 'shape' (a tuple of non-negative ints) in any order, with optional trailing commas, followed
// only by whitespace. UsageError naming path and what is wrong for anything else.
NpyHeader parse_npy_header(const std::string& path, const std::string& text);

}  // namespace oa::tool
