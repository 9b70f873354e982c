// `openaclnn info`: what this build is and what it will use on this machine.
#include <oneapi/dnnl/dnnl.h>

#include <hwy/targets.h>
#include <iostream>

#include "base/parallel.h"
#include "commands.h"
#include "core/isa.h"

namespace oa::tool {
namespace {

// The instruction-set extensions the kernels care about that this CPU has.
std::string cpu_features() {
#if defined(__x86_64__) || defined(__i386__)
  struct Feature {
    const char* name;
    bool present;
  };
  __builtin_cpu_init();
  const Feature features[] = {
      {"sse4.2", __builtin_cpu_supports("sse4.2") != 0},
      {"avx", __builtin_cpu_supports("avx") != 0},
      {"avx2", __builtin_cpu_supports("avx2") != 0},
      {"fma", __builtin_cpu_supports("fma") != 0},
      {"avx512f", __builtin_cpu_supports("avx512f") != 0},
      {"avx512bw", __builtin_cpu_supports("avx512bw") != 0},
      {"avx512vl", __builtin_cpu_supports("avx512vl") != 0},
      {"avx512bf16", __builtin_cpu_supports("avx512bf16") != 0},
  };
  std::string names;
  for (const Feature& f : features) {
    if (f.present) {
      names += std::string(names.empty() ? "" : " ") + f.name;
    }
  }
  return names.empty() ? "none of the x86 vector extensions" : names;
#else
  return "not an x86 CPU (see the SIMD targets)";
#endif
}

// The Highway targets this CPU supports, best first.
std::string simd_targets() {
  std::string names;
  int64_t targets = hwy::SupportedTargets();
  while (targets != 0) {
    const int64_t lowest = targets & -targets;
    names += std::string(names.empty() ? "" : " ") + hwy::TargetName(lowest);
    targets &= ~lowest;
  }
  return names;
}

void print_info() {
  const dnnl_version_t* dnnl = dnnl_version();
  const bool scalar = selected_isa() == Isa::scalar;
  std::cout << "openaclnn " << OPENACLNN_VERSION << " (" << OPENACLNN_BUILD_TYPE << " build)\n"
            << "CPU features: " << cpu_features() << "\n"
            << "SIMD targets: " << simd_targets() << " (Highway, supported by this CPU)\n"
            << "SIMD path:    "
            << (scalar ? "scalar (OPENACLNN_CPU_ISA=scalar)" : simd_target_name()) << "\n"
            << "threads:      " << num_threads() << " (OpenMP; OPENACLNN_NUM_THREADS sets it)\n"
            << "GEMM library: oneDNN " << dnnl->major << "." << dnnl->minor << "." << dnnl->patch
            << " (ConvTbc)\n";
}

}  // namespace

void add_info_command(CLI::App& app, int* status) {
  app.add_subcommand("info",
                     "Show the version, build, CPU features, SIMD path, threads and GEMM library")
      ->callback([status] {
        print_info();
        *status = 0;
      });
}

}  // namespace oa::tool
