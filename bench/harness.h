// The case API of openaclnn_bench. A case file (cases_<topic>.cpp) writes, per case, a setup for
// openaclnn and, when PyTorch has the same op, one for PyTorch, and registers them with add_case()
// from a namespace-scope initializer. The harness times each side, takes the median over
// repetitions and reports both rates side by side with the machine's ceilings measured in the same
// run.
#pragma once

#include <functional>
#include <string>

namespace oa::bench {

// What bounds a case: it fixes the unit of the case's work and the ceiling it is compared with.
enum class Ceiling {
  copy,  // memory-bound: work is bytes read plus bytes written; ceiling: all-thread copy bandwidth
  gemm,  // compute-bound: work is floating-point operations; ceiling: the BLAS's sgemm rate
};

// One timed iteration: does the whole operation, the same work at every call. Throws
// std::runtime_error on failure (the benchmark is then reported as failed, not timed).
using Step = std::function<void()>;

// Untimed preparation: allocates and fills inputs and outputs and returns the step, which owns
// (captures) everything it uses. Throws std::runtime_error when the case cannot run.
using Setup = std::function<Step()>;

struct Case {
  std::string group;  // e.g. "runtime", "loss"; cases are run and reported by group, then name
  std::string name;   // unique within the group, e.g. "memcpy_d2d"
  double work;        // per step, in the unit of `ceiling`, counted by the case's own formula
  Ceiling ceiling;
  Setup ours;   // openaclnn
  Setup torch;  // PyTorch's CPU op; empty when it has none or PyTorch is not built in
};

// Registers a case. Returns true, so that it can initialize a namespace-scope constant.
bool add_case(Case c);

// The project's thread count: OPENACLNN_NUM_THREADS when it is a positive integer, else
// omp_get_max_threads(). The ceilings and PyTorch run with it too.
int thread_count();

}  // namespace oa::bench

// Names a PyTorch setup in builds with PyTorch and nothing otherwise, so that a case file defines
// its PyTorch setup inside #ifdef OPENACLNN_BENCH_TORCH and registers the case unconditionally.
#ifdef OPENACLNN_BENCH_TORCH
#define OA_BENCH_TORCH(setup) (setup)
#else
#define OA_BENCH_TORCH(setup) nullptr
#endif
