// The project's one threading policy: OpenMP, with the thread count taken from
// OPENACLNN_NUM_THREADS (all cores when unset). Work is always cut into chunks whose boundaries
// depend only on the problem, never on the thread count, so results are the same for any count.
#pragma once

#include <algorithm>
#include <cstdint>

namespace oa {

// OPENACLNN_NUM_THREADS when it is a positive integer, else the number of cores. Read at each
// call (it is cheap next to a kernel) so a process can change it between launches.
int num_threads();

// Runs body(chunk) for chunk in [0, chunks), spread over up to num_threads() threads, or on the
// calling thread alone when parallel is false (work too small to pay for waking threads).
template <typename Body>
void parallel_for(int64_t chunks, const Body& body, bool parallel = true) {
  int64_t threads = parallel ? std::min<int64_t>(num_threads(), chunks) : 1;
  if (threads <= 1) {
    for (int64_t chunk = 0; chunk < chunks; ++chunk) {
      body(chunk);
    }
    return;
  }
#pragma omp parallel for num_threads(static_cast <int>(threads)) schedule(static)
  for (int64_t chunk = 0; chunk < chunks; ++chunk) {
    body(chunk);
  }
}

}  // namespace oa
