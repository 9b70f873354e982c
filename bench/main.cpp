// openaclnn_bench: runs the machine's ceilings and every registered case (openaclnn and, when
// built in, PyTorch) in one process, then prints the summary table. Flags: Google Benchmark's own,
// plus --summary_json=FILE. Defaults, which the command line overrides: 5 repetitions, and only
// their aggregates on the display.
#include <benchmark/benchmark.h>
#include <cblas.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "harness.h"
#include "runner.h"
#include "summary.h"
#ifdef OPENACLNN_BENCH_TORCH
#include "torch_init.h"
#endif

namespace {

constexpr char kSummaryFlag[] = "--summary_json=";

void print_help() {
  benchmark::PrintDefaultHelp();
  std::printf("          [--summary_json=<file>]  also write the summary table as JSON\n");
}

}  // namespace

int main(int argc, char** argv) {
  using namespace oa::bench;
  std::string defaults[] = {"--benchmark_repetitions=5",
                            "--benchmark_display_aggregates_only=true"};
  // Defaults go first: Google Benchmark keeps the last value of a flag.
  std::vector<char*> args = {argv[0]};
  for (std::string& flag : defaults) {
    args.push_back(flag.data());
  }
  std::string summary_json;
  const std::vector<std::string> arguments(argv + 1, argv + argc);
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], kSummaryFlag, sizeof kSummaryFlag - 1) == 0) {
      summary_json = argv[i] + sizeof kSummaryFlag - 1;
    } else {
      args.push_back(argv[i]);
    }
  }
  int count = static_cast<int>(args.size());
  args.push_back(nullptr);
  benchmark::Initialize(&count, args.data(), print_help);
  if (benchmark::ReportUnrecognizedArguments(count, args.data())) {
    return 1;
  }

  if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) {
    std::fprintf(stderr, "openaclnn_bench: cannot start the runtime: %s\n", aclGetRecentErrMsg());
    return 1;
  }
  const int threads = thread_count();
  // One thread count for everything measured: openaclnn, the ceilings and PyTorch (whose GEMMs go
  // to the same OpenBLAS).
  openblas_set_num_threads(threads);
  benchmark::AddCustomContext("openaclnn_threads", std::to_string(threads));
  benchmark::AddCustomContext("blas", openblas_get_config());
#ifdef OPENACLNN_BENCH_TORCH
  init_torch(threads);
#endif
  if (!register_benchmarks()) {
    return 1;
  }

  SummaryReporter reporter(benchmark::CreateDefaultDisplayReporter(), summary_json, arguments);
  benchmark::RunSpecifiedBenchmarks(&reporter);
  release_prepared();
  benchmark::Shutdown();
  aclrtResetDevice(0);
  aclFinalize();
  return reporter.ok() ? 0 : 1;
}
