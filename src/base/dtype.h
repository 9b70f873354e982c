// The table of aclDataType and aclFormat facts the checks and kernels need.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "acl/acl_base.h"

namespace oa {

// The dtypes a parameter accepts, in the order messages list them.
using DtypeSet = std::vector<aclDataType>;

// The floating dtypes every operator computes on (in float32).
inline const DtypeSet kFloatDtypes{ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

// Whether dtype is one of the aclDataType values (ACL_DT_UNDEFINED excluded).
bool dtype_is_known(aclDataType dtype);

// Bits per element (4 for INT4 and FLOAT4_*, 1 for UINT1, 0 for STRING and unknown values).
int dtype_bits(aclDataType dtype);

// "FLOAT16", "BF16", ...; "DT_<number>" for unknown values.
std::string dtype_name(aclDataType dtype);

// "{FLOAT, FLOAT16, BF16}".
std::string dtype_list(const DtypeSet& dtypes);

// Promotion of two floating dtypes (SPEC section 4): equal stays, FLOAT16 with BF16 gives FLOAT,
// anything with FLOAT gives FLOAT.
aclDataType promote_float(aclDataType a, aclDataType b);

// "ND", "NCHW", ...; "FORMAT_<number>" for unknown values.
std::string format_name(aclFormat format);

// The format CANN names `name` ("NCHW", "ND", ...; any case); ACL_FORMAT_UNDEFINED for none.
aclFormat format_named(const std::string& name);

// The public formats' names, in aclFormat order: "NCHW, NHWC, ND, ...".
std::string public_format_names();

// Whether format is one of the aclFormat values (ACL_FORMAT_UNDEFINED excluded).
bool format_is_known(aclFormat format);

// Hardware-internal layouts that the CPU device never accepts for an operator (SPEC section 1).
bool format_is_private(aclFormat format);

}  // namespace oa
