// Builders for definitions: parameters and sample calls.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "core/op/definition.h"

namespace oa::build {

Param input(std::string name, DtypeSet dtypes, std::string rule);
Param optional_input(std::string name, DtypeSet dtypes, std::string rule);
Param output(std::string name, DtypeSet dtypes, std::string rule);
Param optional_output(std::string name, DtypeSet dtypes, std::string rule);
// An integer attribute; `names` are its named values (reduction's none, mean, sum), may be empty.
Param integer(std::string name, std::string rule,
              std::vector<std::pair<std::string, int64_t>> names, int64_t default_value);
Param real(std::string name, std::string rule, double default_value);
Param flag(std::string name, std::string rule, bool default_value);
// An integer array attribute; without a default when `required`.
Param int_array(std::string name, std::string rule);
Param bool_array(std::string name, std::string rule);

ArgSpec tensor(Shape shape, aclDataType dtype = ACL_FLOAT, aclFormat format = ACL_FORMAT_ND);
ArgSpec integer(int64_t value);
ArgSpec real(double value);
ArgSpec flag(bool value);
ArgSpec ints(std::vector<int64_t> values);
ArgSpec bools(std::vector<bool> values);
ArgSpec null();

// A call of def: the given parameters, every other attribute at its default, and the outputs by
// def.infer (which must succeed: a sample is a valid call).
CallSpec sample(const OpDef& def, std::vector<std::pair<std::string, ArgSpec>> given);

// The reduction attribute of the losses: 0 none, 1 mean, 2 sum; mean by default.
Param reduction();

}  // namespace oa::build
