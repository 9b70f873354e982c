// The project's one threading policy: a pool of worker threads of its own (base/parallel.cpp),
// with the thread count taken from OPENACLNN_NUM_THREADS (the cores this process may run on when
// unset). Work is always cut into chunks whose boundaries depend only on the problem, never on the
// thread count, so results are the same for any count; the threads take the chunks one at a time
// as they come free, so a thread on a busy core takes fewer.
#pragma once

#include <algorithm>
#include <cstdint>

namespace oa {

// OPENACLNN_NUM_THREADS when it is a positive integer, else the number of cores this process may
// run on. Read at each call (it is cheap next to a kernel) so a process can change it between
// launches.
int num_threads();

// Runs run(context, chunk) for every chunk in [0, chunks) on the calling thread and up to
// threads - 1 of the pool's workers, and returns when all have run. A call made while another is
// running (from a chunk, or from another thread of the program) runs its chunks on its own thread.
void run_chunks(int64_t chunks, int threads, void (*run)(const void* context, int64_t chunk),
                const void* context);

// Runs body(chunk) for chunk in [0, chunks), spread over up to num_threads() threads, or on the
// calling thread alone when parallel is false (work too small to pay for waking threads).
template <typename Body>
void parallel_for(int64_t chunks, const Body& body, bool parallel = true) {
  const int64_t threads = parallel ? std::min<int64_t>(num_threads(), chunks) : 1;
  if (threads <= 1) {
    for (int64_t chunk = 0; chunk < chunks; ++chunk) {
      body(chunk);
    }
    return;
  }
  run_chunks(
      chunks, static_cast<int>(threads),
      [](const void* context, int64_t chunk) { (*static_cast<const Body*>(context))(chunk); },
      &body);
}

}  // namespace oa
