#include "base/dtype.h"

#include <algorithm>
#include <cctype>
#include <cstring>

namespace oa {
namespace {

struct DtypeInfo {
  aclDataType dtype;
  const char* name;
  int bits;
};

constexpr DtypeInfo kDtypes[] = {
    {ACL_FLOAT, "FLOAT", 32},
    {ACL_FLOAT16, "FLOAT16", 16},
    {ACL_INT8, "INT8", 8},
    {ACL_INT32, "INT32", 32},
    {ACL_UINT8, "UINT8", 8},
    {ACL_INT16, "INT16", 16},
    {ACL_UINT16, "UINT16", 16},
    {ACL_UINT32, "UINT32", 32},
    {ACL_INT64, "INT64", 64},
    {ACL_UINT64, "UINT64", 64},
    {ACL_DOUBLE, "DOUBLE", 64},
    {ACL_BOOL, "BOOL", 8},
    {ACL_STRING, "STRING", 0},
    {ACL_COMPLEX64, "COMPLEX64", 64},
    {ACL_COMPLEX128, "COMPLEX128", 128},
    {ACL_BF16, "BF16", 16},
    {ACL_INT4, "INT4", 4},
    {ACL_UINT1, "UINT1", 1},
    {ACL_COMPLEX32, "COMPLEX32", 32},
    {ACL_HIFLOAT8, "HIFLOAT8", 8},
    {ACL_FLOAT8_E5M2, "FLOAT8_E5M2", 8},
    {ACL_FLOAT8_E4M3FN, "FLOAT8_E4M3FN", 8},
    {ACL_FLOAT8_E8M0, "FLOAT8_E8M0", 8},
    // CANN stores the 6-bit formats one element per byte.
    {ACL_FLOAT6_E3M2, "FLOAT6_E3M2", 8},
    {ACL_FLOAT6_E2M3, "FLOAT6_E2M3", 8},
    {ACL_FLOAT4_E2M1, "FLOAT4_E2M1", 4},
    {ACL_FLOAT4_E1M2, "FLOAT4_E1M2", 4},
};

struct FormatInfo {
  aclFormat format;
  const char* name;
  bool is_private;
};

constexpr FormatInfo kFormats[] = {
    {ACL_FORMAT_NCHW, "NCHW", false},
    {ACL_FORMAT_NHWC, "NHWC", false},
    {ACL_FORMAT_ND, "ND", false},
    {ACL_FORMAT_NC1HWC0, "NC1HWC0", true},
    {ACL_FORMAT_FRACTAL_Z, "FRACTAL_Z", true},
    {ACL_FORMAT_NC1HWC0_C04, "NC1HWC0_C04", true},
    {ACL_FORMAT_HWCN, "HWCN", false},
    {ACL_FORMAT_NDHWC, "NDHWC", false},
    {ACL_FORMAT_FRACTAL_NZ, "FRACTAL_NZ", true},
    {ACL_FORMAT_NCDHW, "NCDHW", false},
    {ACL_FORMAT_NDC1HWC0, "NDC1HWC0", true},
    {ACL_FRACTAL_Z_3D, "FRACTAL_Z_3D", true},
    {ACL_FORMAT_NC, "NC", false},
    {ACL_FORMAT_NCL, "NCL", false},
    {ACL_FORMAT_FRACTAL_NZ_C0_16, "FRACTAL_NZ_C0_16", true},
    {ACL_FORMAT_FRACTAL_NZ_C0_32, "FRACTAL_NZ_C0_32", true},
    {ACL_FORMAT_FRACTAL_NZ_C0_2, "FRACTAL_NZ_C0_2", true},
    {ACL_FORMAT_FRACTAL_NZ_C0_4, "FRACTAL_NZ_C0_4", true},
    {ACL_FORMAT_FRACTAL_NZ_C0_8, "FRACTAL_NZ_C0_8", true},
};

const DtypeInfo* find_dtype(aclDataType dtype) {
  for (const auto& info : kDtypes) {
    if (info.dtype == dtype) {
      return &info;
    }
  }
  return nullptr;
}

const FormatInfo* find_format(aclFormat format) {
  for (const auto& info : kFormats) {
    if (info.format == format) {
      return &info;
    }
  }
  return nullptr;
}

}  // namespace

bool dtype_is_known(aclDataType dtype) { return find_dtype(dtype) != nullptr; }

int dtype_bits(aclDataType dtype) {
  const DtypeInfo* info = find_dtype(dtype);
  return info == nullptr ? 0 : info->bits;
}

std::string dtype_name(aclDataType dtype) {
  const DtypeInfo* info = find_dtype(dtype);
  return info == nullptr ? "DT_" + std::to_string(static_cast<int>(dtype)) : info->name;
}

std::string dtype_list(const DtypeSet& dtypes) {
  std::string text = "{";
  for (aclDataType dtype : dtypes) {
    text += (text.size() > 1 ? ", " : "") + dtype_name(dtype);
  }
  return text + "}";
}

aclDataType promote_float(aclDataType a, aclDataType b) { return a == b ? a : ACL_FLOAT; }

std::string format_name(aclFormat format) {
  const FormatInfo* info = find_format(format);
  return info == nullptr ? "FORMAT_" + std::to_string(static_cast<int>(format)) : info->name;
}

aclFormat format_named(const std::string& name) {
  for (const auto& info : kFormats) {
    if (std::equal(
            name.begin(), name.end(), info.name, info.name + std::strlen(info.name),
            [](char a, char b) { return std::toupper(static_cast<unsigned char>(a)) == b; })) {
      return info.format;
    }
  }
  return ACL_FORMAT_UNDEFINED;
}

std::string public_format_names() {
  std::string names;
  for (const auto& info : kFormats) {
    if (!info.is_private) {
      names += (names.empty() ? "" : ", ") + std::string(info.name);
    }
  }
  return names;
}

bool format_is_known(aclFormat format) { return find_format(format) != nullptr; }

bool format_is_private(aclFormat format) {
  const FormatInfo* info = find_format(format);
  return info != nullptr && info->is_private;
}

}  // namespace oa
