// The operator definitions as Python values: what the package generates its functions from, and
// the samples its tests run.
#pragma once

#include <pybind11/pybind11.h>

#include "core/op/definition.h"

namespace oa::python {

namespace py = pybind11;

// The definition of aclnn<name> or <name>; KeyError when there is none.
const OpDef& definition(const std::string& name);

// Every definition: {name, api, header, summary, params, checks, impls}, each param
// {name, kind, dtypes (aclDataType codes), rule, optional, names ([(name, value)]), default
// (absent when there is none)}.
py::list definitions_list();

// def's sample calls: one list per sample, one value per parameter (a tensor as {shape, dtype,
// format, strides, offset, alias_of}, null ones None; attributes as Python values).
py::list samples_list(const OpDef& def);

// The values def.input_values gives for parameter `param` of sample `index` (empty when any
// values will do).
py::list sample_input_values(const OpDef& def, size_t index, int param);

// Every aclDataType the library knows: [(code, CANN name, bits)]; every aclFormat: [(code, name)].
py::list dtypes_list();
py::list formats_list();

}  // namespace oa::python
