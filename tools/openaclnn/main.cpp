// openaclnn: run any operator on .npy/.bin files, compare arrays, show the build and the operators.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <exception>

#include "array.h"
#include "commands.h"

int main(int argc, char** argv) {
  CLI::App app{"openaclnn: CANN's aclnn operators on the CPU, from the command line"};
  app.require_subcommand(1);
  int status = 0;
  oa::tool::add_run_command(app, &status);
  oa::tool::add_compare_command(app, &status);
  oa::tool::add_info_command(app, &status);
  oa::tool::add_list_command(app, &status);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return 2;
  } catch (const oa::tool::UsageError& e) {
    std::fprintf(stderr, "openaclnn: error: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "openaclnn: internal error: %s\n", e.what());
    return 3;
  }
  return status;
}
