// Arrays for the tool's process tests: written to files with the tool's own writer and read back
// with its reader (their byte-level correctness is checked separately in files_test.cpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "openaclnn/array.h"

namespace oa::test {

// An array of dtype holding `values` converted (rounded to nearest) to it.
tool::Array make_array(aclDataType dtype, const std::vector<int64_t>& shape,
                       const std::vector<double>& values);

// The elements of an array as doubles.
std::vector<double> array_values(const tool::Array& array);

}  // namespace oa::test
