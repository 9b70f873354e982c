// The harness's side of the registered cases: one Google Benchmark per case side, and the lookup
// the summary uses to map a benchmark's results back to its case.
#pragma once

#include <string>
#include <vector>

#include "harness.h"

namespace oa::bench {

// The group of the machine's ceilings (copy bandwidth, GEMM rates). A ceiling is a case of this
// group with only an `ours` side (which measures the machine); its `bound` says what it bounds.
inline constexpr const char* kCeilingGroup = "ceiling";

// What one benchmark of a case measures: its traffic-matched loop (traffic.h) with plain or with
// streaming stores, openaclnn, or PyTorch.
enum class Side { traffic_plain, traffic_streaming, ours, torch };

// One timed side of one case.
struct Measured {
  const Case* c;
  Side side;
  Setup setup;
};

// Registers one Google Benchmark per case side: ceilings first, then the other cases by group and
// name, each as <group>/<name>/<side>: for a memory-bound case its traffic loops first
// (traffic_plain, traffic_streaming), then ours, then torch. Returns false, after saying why on
// stderr, when two cases share a group and name or a memory-bound case has no traffic.
bool register_benchmarks();

// The registered cases, in run order once register_benchmarks() has run.
const std::vector<Case>& cases();

// The case side measured by the benchmark registered as `name` (Run::run_name.function_name);
// null for a name the harness did not register.
const Measured* find_measured(const std::string& name);

// Frees what the most recent setup allocated. Call before tearing down the runtime or PyTorch.
void release_prepared();

bool is_ceiling(const Case& c);
std::string full_name(const Case& c);  // "group/name"
const char* unit_name(Bound bound);    // of a rate: "GB/s" or "GFLOP/s"
const char* side_name(Side side);      // the last part of its benchmark's name

}  // namespace oa::bench
