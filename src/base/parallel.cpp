#include "base/parallel.h"

#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <mutex>
#include <thread>
#include <vector>

namespace oa {
namespace {

// How long a thread spins before it sleeps in the kernel: a worker between two launches (the
// regions of one operator follow each other within microseconds), the caller waiting for the
// workers' last chunks. Short, so that a thread never holds a core another process needs for
// longer than this.
constexpr std::chrono::microseconds kSpinTime{50};

void pause() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

void futex_wait(std::atomic<uint32_t>* word, uint32_t expected) {
  syscall(SYS_futex, reinterpret_cast<uint32_t*>(word), FUTEX_WAIT_PRIVATE, expected, nullptr,
          nullptr, 0);
}

void futex_wake(std::atomic<uint32_t>* word, int count) {
  syscall(SYS_futex, reinterpret_cast<uint32_t*>(word), FUTEX_WAKE_PRIVATE, count, nullptr, nullptr,
          0);
}

// Waits until *word differs from `value`: spins for kSpinTime, then sleeps.
void wait_while_equal(std::atomic<uint32_t>* word, uint32_t value) {
  const auto until = std::chrono::steady_clock::now() + kSpinTime;
  for (int i = 1;; ++i) {
    if (word->load() != value) {
      return;
    }
    pause();
    if (i % 64 == 0 && std::chrono::steady_clock::now() >= until) {
      break;
    }
  }
  while (word->load() == value) {
    futex_wait(word, value);
  }
}

// One pool per process; a launch at a time. A launch publishes its job (the chunk count, the
// function, the number of workers that may join) and bumps `generation`; workers join by raising
// `joined` while it is below the job's limit, take chunks from `next` until none is left and count
// themselves in `finished`. The caller runs chunks too, then closes the job (joined = -1, so that a
// late worker joins no more) and waits until every worker that joined has finished.
class Pool {
 public:
  bool try_run(int64_t chunks, int threads, void (*run)(const void*, int64_t),
               const void* context) {
    std::unique_lock<std::mutex> lock(launch_, std::try_to_lock);
    if (!lock.owns_lock()) {
      return false;
    }
    grow(threads - 1);
    chunks_ = chunks;
    run_ = run;
    context_ = context;
    limit_.store(threads - 1, std::memory_order_relaxed);
    next_.store(0, std::memory_order_relaxed);
    finished_.store(0, std::memory_order_relaxed);
    joined_.store(0, std::memory_order_release);
    generation_.fetch_add(1, std::memory_order_acq_rel);
    futex_wake(&generation_, threads - 1);
    take_chunks();
    const int joined = joined_.exchange(-1, std::memory_order_acq_rel);
    // waiting_ and finished_ are sequentially consistent: either the caller sees a worker's last
    // count, or that worker sees waiting_ and wakes it.
    for (uint32_t done = finished_.load(); done != static_cast<uint32_t>(joined);
         done = finished_.load()) {
      waiting_.store(1);
      wait_while_equal(&finished_, done);
    }
    waiting_.store(0);
    return true;
  }

 private:
  void take_chunks() {
    for (int64_t chunk = next_.fetch_add(1, std::memory_order_relaxed); chunk < chunks_;
         chunk = next_.fetch_add(1, std::memory_order_relaxed)) {
      run_(context_, chunk);
    }
  }

  // Starts workers until there are `count`. Under launch_.
  void grow(int count) {
    while (static_cast<int>(workers_) < count) {
      // The generation before this launch's: the new worker joins the launch that made it.
      const uint32_t seen = generation_.load(std::memory_order_acquire);
      std::thread([this, seen] { work(seen); }).detach();
      ++workers_;
    }
  }

  void work(uint32_t seen) {
    for (;;) {
      wait_while_equal(&generation_, seen);
      seen = generation_.load(std::memory_order_acquire);
      // The limit is read after joined_ (acquire), so it is the job's whose joined_ was read.
      int joined = joined_.load(std::memory_order_acquire);
      bool in = false;
      while (!in && joined >= 0 && joined < limit_.load(std::memory_order_relaxed)) {
        in = joined_.compare_exchange_weak(joined, joined + 1, std::memory_order_acq_rel);
      }
      if (!in) {
        continue;  // closed, or enough workers joined
      }
      take_chunks();
      finished_.fetch_add(1);
      if (waiting_.load() != 0) {
        futex_wake(&finished_, 1);
      }
    }
  }

  std::mutex launch_;
  unsigned workers_ = 0;
  // The job; written by the caller before joined_ is reset, read by workers after they join.
  int64_t chunks_ = 0;
  void (*run_)(const void*, int64_t) = nullptr;
  const void* context_ = nullptr;
  std::atomic<int> limit_{0};
  std::atomic<int64_t> next_{0};
  std::atomic<int> joined_{-1};
  std::atomic<uint32_t> finished_{0};
  std::atomic<uint32_t> waiting_{0};
  std::atomic<uint32_t> generation_{0};
};

// The process's pool, made on first use and never destroyed (its workers sleep until the process
// ends). A child made by fork() has none of its parent's threads: it starts a pool of its own.
std::atomic<Pool*> g_pool{nullptr};
std::once_flag g_fork_handler;

void forget_pool_in_child() { g_pool.store(nullptr, std::memory_order_relaxed); }

Pool& pool() {
  std::call_once(g_fork_handler, [] { pthread_atfork(nullptr, nullptr, forget_pool_in_child); });
  Pool* p = g_pool.load(std::memory_order_acquire);
  if (p == nullptr) {
    static std::mutex making;
    const std::lock_guard<std::mutex> lock(making);
    p = g_pool.load(std::memory_order_acquire);
    if (p == nullptr) {
      p = new Pool;
      g_pool.store(p, std::memory_order_release);
    }
  }
  return *p;
}

int cores() {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof(set), &set) == 0) {
    return std::max(1, CPU_COUNT(&set));
  }
  return std::max(1u, std::thread::hardware_concurrency());
}

}  // namespace

int num_threads() {
  const char* text = std::getenv("OPENACLNN_NUM_THREADS");
  if (text != nullptr) {
    char* end = nullptr;
    long value = std::strtol(text, &end, 10);
    if (end != text && *end == '\0' && value > 0 && value <= 4096) {
      return static_cast<int>(value);
    }
  }
  static const int count = cores();
  return count;
}

void run_chunks(int64_t chunks, int threads, void (*run)(const void* context, int64_t chunk),
                const void* context) {
  if (threads > 1 && chunks > 1 && pool().try_run(chunks, threads, run, context)) {
    return;
  }
  for (int64_t chunk = 0; chunk < chunks; ++chunk) {
    run(context, chunk);
  }
}

}  // namespace oa
