// Reading and writing arrays as .npy files and as raw .bin dumps (the way NPU dumps are stored).
// Every writer writes to a temporary name beside the target and renames it, so a failure leaves
// nothing behind.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "array.h"

namespace oa::tool {

// .npy (format versions 1.0-3.0, little-endian, C order): float32, float16, int32, int64. A file of
// uint16 holds bfloat16 bit patterns and a file of uint8 8-bit float bit patterns; `as` names which
// (ACL_BF16, ACL_HIFLOAT8, ACL_FLOAT8_E4M3FN). When `as` is given, the file's dtype must agree with
// it. UsageError for a missing, unreadable, truncated or malformed file or an unsupported dtype.
Array read_npy(const std::string& path, std::optional<aclDataType> as = std::nullopt);
void write_npy(const std::string& path, const Array& array);

// Raw little-endian elements with no header: the shape and dtype come from the user, and the file
// size must equal numel * element size exactly.
Array read_bin(const std::string& path, aclDataType dtype, const std::vector<int64_t>& shape);
void write_bin(const std::string& path, const Array& array);

// Whether path names a raw dump: its extension is ".bin".
bool is_bin_path(const std::string& path);

// By extension: ".bin" is raw (needs dtype and shape), anything else is .npy (dtype optional as
// above; shape must not be given).
Array read_array(const std::string& path, std::optional<aclDataType> dtype,
                 const std::optional<std::vector<int64_t>>& shape);
void write_array(const std::string& path, const Array& array);

}  // namespace oa::tool
