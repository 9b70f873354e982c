// acl_base.h's value helpers: element sizes and the float16 conversions, from the project's one
// dtype table (base/dtype) and one float16 conversion (base/float_convert).
#include "acl/acl_base.h"
#include "base/dtype.h"
#include "base/float_convert.h"
#include "runtime/error.h"

extern "C" {

ACL_FUNC_VISIBILITY size_t aclDataTypeSize(aclDataType dataType) {
  if (!oa::dtype_is_known(dataType)) {
    oa::failf(ACL_ERROR_INVALID_PARAM, "aclDataTypeSize: dataType %d is not an aclDataType",
              static_cast<int>(dataType));
    return 0;
  }
  const int bits = oa::dtype_bits(dataType);
  if (bits == 0 || bits % 8 != 0) {
    oa::failf(ACL_ERROR_INVALID_PARAM,
              "aclDataTypeSize: dataType %s has no whole number of bytes per element",
              oa::dtype_name(dataType).c_str());
    return 0;
  }
  return static_cast<size_t>(bits / 8);
}

ACL_FUNC_VISIBILITY float aclFloat16ToFloat(aclFloat16 value) { return oa::half_to_float(value); }

ACL_FUNC_VISIBILITY aclFloat16 aclFloatToFloat16(float value) { return oa::float_to_half(value); }

}  // extern "C"
