#include "runner.h"

#include <benchmark/benchmark.h>
#include <omp.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <map>
#include <utility>
#include <vector>

#include "traffic.h"

namespace oa::bench {
namespace {

// Function-local statics, because cases register from other translation units' initializers.
std::vector<Case>& registered_cases() {
  static std::vector<Case> cases;
  return cases;
}

std::map<std::string, Measured>& measured_by_name() {
  static std::map<std::string, Measured> by_name;
  return by_name;
}

// The one live setup. Google Benchmark calls a benchmark's function once per repetition and per
// iteration-count trial; keeping the step avoids redoing a possibly slow setup each time, and
// keeping only one means a case's buffers are freed before the next case allocates its own.
struct Prepared {
  const Measured* measured = nullptr;
  Step step;
};

Prepared& prepared_slot() {
  static Prepared prepared;
  return prepared;
}

// Throws what the setup or the warm-up step throws.
const Step& prepare(const Measured& m) {
  Prepared& slot = prepared_slot();
  if (slot.measured != &m) {
    slot = Prepared{};
    Step step = m.setup();
    // Untimed warm-up: faults in the pages and runs any lazy initialisation of either library.
    step();
    slot = Prepared{&m, std::move(step)};
  }
  return slot.step;
}

void run(benchmark::State& state, const Measured& m) {
  const Step* step = nullptr;
  try {
    step = &prepare(m);
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
    return;
  }
  try {
    for (auto _ : state) {
      (*step)();
    }
  } catch (const std::exception& e) {
    release_prepared();
    state.SkipWithError(e.what());
    return;
  }
  const char* counter = m.c->bound == Bound::memory ? "bytes" : "flops";
  state.counters[counter] = benchmark::Counter(
      m.c->work, benchmark::Counter::kIsIterationInvariantRate, benchmark::Counter::OneK::kIs1000);
}

}  // namespace

double Traffic::bytes() const {
  double total = 0;
  for (const std::vector<size_t>* sizes : {&reads, &writes}) {
    for (size_t bytes : *sizes) {
      total += static_cast<double>(bytes);
    }
  }
  return total;
}

Case memory_bound(std::string group, std::string name, Traffic traffic, Setup ours, Setup torch) {
  const double work = traffic.bytes();
  return {std::move(group),   std::move(name), Bound::memory,    work,
          std::move(traffic), std::move(ours), std::move(torch), false};
}

Case compute_bound(std::string group, std::string name, double flops, Setup ours, Setup torch,
                   bool bf16_products) {
  return {std::move(group), std::move(name), Bound::compute,   flops,
          Traffic{},        std::move(ours), std::move(torch), bf16_products};
}

bool add_case(Case c) {
  registered_cases().push_back(std::move(c));
  return true;
}

int thread_count() {
  static const int count = [] {
    const char* value = std::getenv("OPENACLNN_NUM_THREADS");
    if (value != nullptr) {
      char* end = nullptr;
      const long parsed = std::strtol(value, &end, 10);
      if (end != value && *end == '\0' && parsed > 0 && parsed <= 4096) {
        return static_cast<int>(parsed);
      }
    }
    return omp_get_max_threads();
  }();
  return count;
}

bool is_ceiling(const Case& c) { return c.group == kCeilingGroup; }

std::string full_name(const Case& c) { return c.group + "/" + c.name; }

const char* unit_name(Bound bound) { return bound == Bound::memory ? "GB/s" : "GFLOP/s"; }

const char* side_name(Side side) {
  switch (side) {
    case Side::traffic_plain:
      return "traffic_plain";
    case Side::traffic_streaming:
      return "traffic_streaming";
    case Side::ours:
      return "ours";
    case Side::torch:
      return "torch";
  }
  return "";
}

bool register_benchmarks() {
  std::vector<Case>& cases = registered_cases();
  std::stable_sort(cases.begin(), cases.end(), [](const Case& a, const Case& b) {
    if (is_ceiling(a) != is_ceiling(b)) {
      return is_ceiling(a);
    }
    return std::make_pair(a.group, a.name) < std::make_pair(b.group, b.name);
  });
  std::map<std::string, Measured>& by_name = measured_by_name();
  for (const Case& c : cases) {
    const std::string name = full_name(c);
    const bool ceiling = is_ceiling(c);
    if (c.bound == Bound::memory && c.traffic.bytes() == 0) {
      std::fprintf(stderr, "openaclnn_bench: memory-bound case %s says no traffic\n", name.c_str());
      return false;
    }
    std::vector<std::pair<Side, Setup>> sides;
    if (c.bound == Bound::memory && !ceiling) {
      sides.emplace_back(Side::traffic_plain, traffic_setup(c.traffic, Stores::plain));
      sides.emplace_back(Side::traffic_streaming, traffic_setup(c.traffic, Stores::streaming));
    }
    sides.emplace_back(Side::ours, c.ours);
    sides.emplace_back(Side::torch, c.torch);
    for (auto& [side, setup] : sides) {
      if (!setup) {
        continue;
      }
      const std::string bench_name = ceiling ? name : name + "/" + side_name(side);
      if (by_name.count(bench_name) != 0) {
        std::fprintf(stderr, "openaclnn_bench: case %s is registered twice\n", name.c_str());
        return false;
      }
      const Measured* m =
          &by_name.emplace(bench_name, Measured{&c, side, std::move(setup)}).first->second;
      benchmark::RegisterBenchmark(bench_name.c_str(),
                                   [m](benchmark::State& state) { run(state, *m); })
          ->UseRealTime()
          ->Unit(benchmark::kMillisecond);
    }
  }
  return true;
}

const std::vector<Case>& cases() { return registered_cases(); }

const Measured* find_measured(const std::string& name) {
  const auto& by_name = measured_by_name();
  const auto it = by_name.find(name);
  return it == by_name.end() ? nullptr : &it->second;
}

void release_prepared() { prepared_slot() = Prepared{}; }

}  // namespace oa::bench
