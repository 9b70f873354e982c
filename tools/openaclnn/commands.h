// The subcommands of `openaclnn`. Each add_* function adds its subcommand to app; when the
// subcommand runs it sets *status to the process's exit status, or throws UsageError (status 2).
#pragma once

#include <CLI/CLI.hpp>

namespace oa::tool {

void add_run_command(CLI::App& app, int* status);
void add_compare_command(CLI::App& app, int* status);
void add_info_command(CLI::App& app, int* status);
void add_list_command(CLI::App& app, int* status);

}  // namespace oa::tool
