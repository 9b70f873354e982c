#include "core/op/build.h"

#include <cstdlib>

#include "runtime/error.h"

namespace oa::build {
namespace {

Param tensor_param(std::string name, ParamKind kind, DtypeSet dtypes, std::string rule,
                   bool optional) {
  Param p;
  p.name = std::move(name);
  p.key = param_key(p.name);
  p.kind = kind;
  p.dtypes = std::move(dtypes);
  p.rule = std::move(rule);
  p.optional = optional;
  return p;
}

Param attribute(std::string name, ParamKind kind, std::string rule) {
  Param p;
  p.name = std::move(name);
  p.key = param_key(p.name);
  p.kind = kind;
  p.rule = std::move(rule);
  return p;
}

}  // namespace

Param input(std::string name, DtypeSet dtypes, std::string rule) {
  return tensor_param(std::move(name), ParamKind::input, std::move(dtypes), std::move(rule), false);
}

Param optional_input(std::string name, DtypeSet dtypes, std::string rule) {
  return tensor_param(std::move(name), ParamKind::input, std::move(dtypes), std::move(rule), true);
}

Param output(std::string name, DtypeSet dtypes, std::string rule) {
  return tensor_param(std::move(name), ParamKind::output, std::move(dtypes), std::move(rule),
                      false);
}

Param optional_output(std::string name, DtypeSet dtypes, std::string rule) {
  return tensor_param(std::move(name), ParamKind::output, std::move(dtypes), std::move(rule), true);
}

Param integer(std::string name, std::string rule,
              std::vector<std::pair<std::string, int64_t>> names, int64_t default_value) {
  Param p = attribute(std::move(name), ParamKind::integer, std::move(rule));
  p.names = std::move(names);
  p.has_default = true;
  p.default_value = integer(default_value);
  return p;
}

Param real(std::string name, std::string rule, double default_value) {
  Param p = attribute(std::move(name), ParamKind::real, std::move(rule));
  p.has_default = true;
  p.default_value = real(default_value);
  return p;
}

Param flag(std::string name, std::string rule, bool default_value) {
  Param p = attribute(std::move(name), ParamKind::flag, std::move(rule));
  p.has_default = true;
  p.default_value = flag(default_value);
  return p;
}

Param int_array(std::string name, std::string rule) {
  return attribute(std::move(name), ParamKind::int_array, std::move(rule));
}

Param bool_array(std::string name, std::string rule) {
  return attribute(std::move(name), ParamKind::bool_array, std::move(rule));
}

ArgSpec tensor(Shape shape, aclDataType dtype, aclFormat format) {
  ArgSpec arg;
  arg.tensor = {std::move(shape), dtype, format};
  return arg;
}

ArgSpec integer(int64_t value) {
  ArgSpec arg;
  arg.integer = value;
  return arg;
}

ArgSpec real(double value) {
  ArgSpec arg;
  arg.real = value;
  return arg;
}

ArgSpec flag(bool value) {
  ArgSpec arg;
  arg.flag = value;
  arg.integer = value ? 1 : 0;
  return arg;
}

ArgSpec ints(std::vector<int64_t> values) {
  ArgSpec arg;
  arg.ints = std::move(values);
  return arg;
}

ArgSpec bools(std::vector<bool> values) {
  ArgSpec arg;
  arg.bools = std::move(values);
  return arg;
}

ArgSpec null() {
  ArgSpec arg;
  arg.null = true;
  return arg;
}

CallSpec sample(const OpDef& def, std::vector<std::pair<std::string, ArgSpec>> given) {
  CallSpec spec;
  spec.args.resize(def.params.size());
  for (size_t i = 0; i < def.params.size(); ++i) {
    const Param& p = def.params[i];
    if (p.has_default) {
      spec.args[i] = p.default_value;
    } else if (p.optional) {
      spec.args[i] = null();
    }
  }
  for (auto& [name, value] : given) {
    const int i = def.param_index(name);
    if (i < 0) {
      logf(LogLevel::error, "%s: a sample names no parameter %s", def.api.c_str(), name.c_str());
      std::abort();
    }
    spec.args[static_cast<size_t>(i)] = std::move(value);
  }
  if (def.infer && !def.infer(def, &spec)) {
    logf(LogLevel::error, "%s: a sample's outputs cannot be inferred", def.api.c_str());
    std::abort();
  }
  return spec;
}

Param reduction() {
  return integer("reduction", "0 none, 1 mean, 2 sum", {{"none", 0}, {"mean", 1}, {"sum", 2}}, 1);
}

}  // namespace oa::build
