// `openaclnn list [OP]`: the operators, their parameters and the dtypes their checks accept.
#include <iomanip>
#include <iostream>
#include <memory>

#include "array.h"
#include "base/dtype.h"
#include "commands.h"
#include "core/op/definition.h"
#include "operators.h"

namespace oa::tool {
namespace {

const char* kind_label(ParamKind kind) {
  switch (kind) {
    case ParamKind::input:
      return "in";
    case ParamKind::output:
      return "out";
    default:
      return "attr";
  }
}

// The operator, its parameters and, with `checks`, its checks in the order they run.
void print_op(const OpDef& op, bool checks) {
  std::cout << op.name << ": " << op.summary << "\n  " << op.api << "GetWorkspaceSize / " << op.api
            << " in <" << op.header << ">\n";
  for (const Param& p : op.params) {
    // Names of 13 characters or more still get a space after them.
    std::cout << "  " << std::left << std::setw(5) << kind_label(p.kind) << std::setw(13) << p.name
              << (p.name.size() >= 13 ? " " : "");
    if (!is_tensor(p.kind)) {
      const std::string fallback = attribute_default(p);
      std::cout << attribute_option(p) << " ("
                << (fallback == "required" || fallback == "optional" ? fallback
                                                                     : "default " + fallback)
                << "): " << p.rule << "\n";
    } else {
      std::cout << dtype_list(p.dtypes) << ": " << p.rule << (p.optional ? " (optional)" : "")
                << "\n";
    }
  }
  if (checks) {
    std::cout << "  checks, in order:\n";
    for (size_t k = 0; k < op.checks.size(); ++k) {
      std::cout << "    " << k + 1 << ". " << op.checks[k].rule << "\n";
    }
    std::cout << "  implementations, in order: ";
    for (size_t k = 0; k < op.impls.size(); ++k) {
      std::cout << (k == 0 ? "" : ", ") << op.impls[k].name;
    }
    std::cout << "\n";
  }
}

void list(const std::string& filter) {
  if (!filter.empty()) {
    print_op(find_operator(filter), true);
    return;
  }
  const char* separator = "";
  for (const OpDef* op : definitions()) {
    std::cout << separator;
    print_op(*op, false);
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
