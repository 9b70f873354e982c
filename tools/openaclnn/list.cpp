// `openaclnn list [OP]`: the operators, their parameters and the dtypes their checks accept.
#include <iomanip>
#include <iostream>
#include <memory>

#include "array.h"
#include "commands.h"
#include "core/dtype.h"
#include "operators.h"

namespace oa::tool {
namespace {

const char* kind_label(ops::ParamKind kind) {
  switch (kind) {
    case ops::ParamKind::input:
      return "in";
    case ops::ParamKind::output:
      return "out";
    case ops::ParamKind::attribute:
      break;
  }
  return "attr";
}

void print_op(const ops::OpInfo& op) {
  std::cout << op.name << ": " << op.summary << "\n  aclnn" << op.name << "GetWorkspaceSize / aclnn"
            << op.name << " in <" << op.header << ">\n";
  for (const ops::OpParam& p : op.params) {
    std::cout << "  " << std::left << std::setw(5) << kind_label(p.kind) << std::setw(13) << p.name;
    if (p.kind == ops::ParamKind::attribute) {
      const std::string fallback = attribute_default(p.name);
      std::cout << attribute_option(p.name) << " ("
                << (fallback == "required" ? fallback : "default " + fallback) << "): " << p.rule
                << "\n";
    } else {
      std::cout << dtype_list(p.dtypes) << ": " << p.rule << "\n";
    }
  }
}

void list(const std::string& filter) {
  if (!filter.empty()) {
    print_op(find_operator(filter));
    return;
  }
  const char* separator = "";
  for (const ops::OpInfo& op : ops::operator_catalog()) {
    std::cout << separator;
    print_op(op);
    separator = "\n";
  }
}

}  // namespace

void add_list_command(CLI::App& app, int* status) {
  auto filter = std::make_shared<std::string>();
  CLI::App* cmd = app.add_subcommand(
      "list", "List the operators with their inputs, outputs, attributes and accepted dtypes");
  cmd->add_option("op", *filter, "show only this operator");
  cmd->callback([filter, status] {
    list(*filter);
    *status = 0;
  });
}

}  // namespace oa::tool
