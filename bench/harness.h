// The case API of openaclnn_bench. A case file (cases_<topic>.cpp) writes, per case, a setup for
// openaclnn and, when PyTorch has the same op, one for PyTorch, and registers them with add_case()
// from a namespace-scope initializer. The harness times each side, takes the median over
// repetitions and reports both rates side by side with the case's ceiling measured in the same
// run: for a memory-bound case, a plain vector loop that moves exactly the case's traffic
// (traffic.h); for a compute-bound one, the GEMM rate.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace oa::bench {

// What bounds a case: it fixes the unit of the case's work and the ceiling it is compared with.
enum class Bound {
  memory,   // work: bytes read plus bytes written; ceiling: the case's traffic-matched loop
  compute,  // work: floating-point operations; ceiling: the GEMM rate measured in the same run
};

// The memory one step of a memory-bound case touches: the bytes it reads from each input and
// writes to each output, each counted once. An input read again and again from cache (a broadcast
// [4096, 1] target, a scalar gradient) counts the bytes it holds, not the times they are read.
struct Traffic {
  std::vector<size_t> reads;   // one entry per input
  std::vector<size_t> writes;  // one entry per output
  double bytes() const;        // the sum of both: the case's work
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
  Bound bound;
  double work;      // per step, in the unit of `bound`: traffic.bytes(), or the case's FLOPs
  Traffic traffic;  // memory-bound cases; empty for compute-bound ones
  Setup ours;       // openaclnn
  Setup torch;      // PyTorch's CPU op; empty when it has none or PyTorch is not built in
  // Compute-bound: the case multiplies BF16 operands, which it may do with bfloat16 products, so
  // the faster of the float32 and the bfloat16 GEMM rates bounds it. On a GEMM ceiling: it is the
  // bfloat16 one.
  bool bf16_products;
};

// A memory-bound case: its work is its traffic's bytes.
Case memory_bound(std::string group, std::string name, Traffic traffic, Setup ours, Setup torch);
// A compute-bound case doing `flops` floating-point operations per step.
Case compute_bound(std::string group, std::string name, double flops, Setup ours, Setup torch,
                   bool bf16_products = false);

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
