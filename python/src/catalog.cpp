#include "catalog.h"

#include <pybind11/stl.h>

#include "base/dtype.h"

namespace oa::python {
namespace {

const char* kind_name(ParamKind kind) {
  switch (kind) {
    case ParamKind::input:
      return "input";
    case ParamKind::output:
      return "output";
    case ParamKind::integer:
      return "integer";
    case ParamKind::real:
      return "real";
    case ParamKind::flag:
      return "flag";
    case ParamKind::int_array:
      return "int_array";
    case ParamKind::bool_array:
      return "bool_array";
  }
  return "unknown";
}

py::object value_of(const Param& p, const ArgSpec& arg) {
  if (arg.null) {
    return py::none();
  }
  switch (p.kind) {
    case ParamKind::input:
    case ParamKind::output: {
      py::dict t;
      t["shape"] = arg.tensor.shape;
      t["dtype"] = static_cast<int>(arg.tensor.dtype);
      t["format"] = static_cast<int>(arg.tensor.format);
      t["strides"] =
          arg.tensor.strides.empty() ? contiguous_strides(arg.tensor.shape) : arg.tensor.strides;
      t["offset"] = arg.tensor.offset;
      t["alias_of"] = arg.alias_of;
      t["on_host"] = arg.on_host;
      return std::move(t);
    }
    case ParamKind::integer:
      return py::int_(arg.integer);
    case ParamKind::flag:
      return py::bool_(arg.integer != 0);
    case ParamKind::real:
      return py::float_(arg.real);
    case ParamKind::int_array:
      return py::cast(arg.ints);
    case ParamKind::bool_array:
      return py::cast(arg.bools);
  }
  return py::none();
}

}  // namespace

const OpDef& definition(const std::string& name) {
  const OpDef* def = find_definition(name);
  if (def == nullptr) {
    throw py::key_error("no operator " + name);
  }
  return *def;
}

py::list definitions_list() {
  py::list defs;
  for (const OpDef* def : definitions()) {
    py::list params;
    for (const Param& p : def->params) {
      py::dict param;
      param["name"] = p.name;
      param["kind"] = kind_name(p.kind);
      py::list dtypes;
      for (const aclDataType dtype : p.dtypes) {
        dtypes.append(static_cast<int>(dtype));
      }
      param["dtypes"] = dtypes;
      param["rule"] = p.rule;
      param["optional"] = p.optional;
      param["names"] = p.names;
      if (p.has_default) {
        param["default"] = value_of(p, p.default_value);
      }
      params.append(param);
    }
    py::list checks;
    for (const Check& check : def->checks) {
      checks.append(check.rule);
    }
    py::list impls;
    for (const Impl& impl : def->impls) {
      impls.append(impl.name);
    }
    py::dict d;
    d["name"] = def->name;
    d["api"] = def->api;
    d["header"] = def->header;
    d["summary"] = def->summary;
    d["params"] = params;
    d["checks"] = checks;
    d["impls"] = impls;
    defs.append(d);
  }
  return defs;
}

py::list samples_list(const OpDef& def) {
  py::list samples;
  for (const CallSpec& spec : def.samples) {
    py::list values;
    for (size_t i = 0; i < def.params.size(); ++i) {
      values.append(value_of(def.params[i], spec.args[i]));
    }
    samples.append(values);
  }
  return samples;
}

py::list sample_input_values(const OpDef& def, size_t index, int param) {
  if (index >= def.samples.size()) {
    throw py::index_error(def.api + " has " + std::to_string(def.samples.size()) + " samples");
  }
  std::vector<double> values;
  if (def.input_values) {
    def.input_values(def.samples[index], param, &values);
  }
  return py::cast(values);
}

py::list dtypes_list() {
  py::list dtypes;
  for (int code = 0; code < 256; ++code) {
    const auto dtype = static_cast<aclDataType>(code);
    if (dtype_is_known(dtype)) {
      dtypes.append(py::make_tuple(code, dtype_name(dtype), dtype_bits(dtype)));
    }
  }
  return dtypes;
}

py::list formats_list() {
  py::list formats;
  for (int code = 0; code < 256; ++code) {
    const auto format = static_cast<aclFormat>(code);
    if (format_is_known(format)) {
      formats.append(py::make_tuple(code, format_name(format)));
    }
  }
  return formats;
}

}  // namespace oa::python
