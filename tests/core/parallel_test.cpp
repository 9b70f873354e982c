// The threading policy: OPENACLNN_NUM_THREADS, and parallel_for's chunks.
#include "base/parallel.h"

#include <sched.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include "test_env.h"

namespace {

using oa_test::ScopedEnv;

TEST(NumThreads, HonoursTheVariable) {
  for (const char* value : {"1", "2", "3", "64"}) {
    ScopedEnv env("OPENACLNN_NUM_THREADS", value);
    EXPECT_EQ(oa::num_threads(), std::atoi(value)) << value;
  }
}

// The cores this process may run on.
int cores() {
  cpu_set_t set;
  EXPECT_EQ(sched_getaffinity(0, sizeof(set), &set), 0);
  return CPU_COUNT(&set);
}

TEST(NumThreads, UnsetMeansEveryCore) {
  ScopedEnv env("OPENACLNN_NUM_THREADS", std::nullopt);
  EXPECT_EQ(oa::num_threads(), cores());
}

TEST(NumThreads, InvalidValuesMeanEveryCore) {
  for (const char* value : {"", "abc", "0", "-2", "3x", " ", "4097", "99999999999999999999"}) {
    ScopedEnv env("OPENACLNN_NUM_THREADS", value);
    EXPECT_EQ(oa::num_threads(), cores()) << "'" << value << "'";
  }
}

// Each chunk's visit count and the threads that ran chunks.
struct Visits {
  std::vector<std::atomic<int>> counts;
  std::mutex mutex;
  std::set<std::thread::id> threads;
  explicit Visits(int64_t chunks) : counts(static_cast<size_t>(chunks)) {}
};

std::unique_ptr<Visits> visit(int64_t chunks) {
  auto visits = std::make_unique<Visits>(chunks);
  Visits* v = visits.get();
  oa::parallel_for(chunks, [v](int64_t chunk) {
    v->counts[static_cast<size_t>(chunk)].fetch_add(1);
    const std::lock_guard<std::mutex> lock(v->mutex);
    v->threads.insert(std::this_thread::get_id());
  });
  return visits;
}

void expect_each_chunk_once(const Visits& visits, int64_t chunks, size_t threads) {
  for (int64_t i = 0; i < chunks; ++i) {
    EXPECT_EQ(visits.counts[static_cast<size_t>(i)].load(), 1) << chunks << " chunks, " << i;
  }
  EXPECT_LE(visits.threads.size(), threads) << chunks << " chunks";
}

TEST(ParallelFor, OneThreadVisitsEachChunkOnceInOrder) {
  ScopedEnv env("OPENACLNN_NUM_THREADS", "1");
  std::vector<int64_t> order;
  oa::parallel_for(37, [&order](int64_t chunk) { order.push_back(chunk); });
  ASSERT_EQ(order.size(), 37u);
  for (int64_t i = 0; i < 37; ++i) {
    EXPECT_EQ(order[static_cast<size_t>(i)], i);
  }
}

TEST(ParallelFor, EveryThreadCountVisitsEachChunkOnce) {
  for (const char* threads : {"2", "3", "8"}) {
    ScopedEnv env("OPENACLNN_NUM_THREADS", threads);
    for (int64_t chunks : {1, 2, 3, 37, 1000}) {
      expect_each_chunk_once(*visit(chunks), chunks, static_cast<size_t>(std::atoi(threads)));
    }
  }
}

TEST(ParallelFor, TheWorkersTakeChunksWhileTheCallerIsBusy) {
  // The first chunk the calling thread takes keeps it busy until another thread has run one: a
  // pool whose workers did not run while the caller works would never finish.
  ScopedEnv env("OPENACLNN_NUM_THREADS", "2");
  const std::thread::id caller = std::this_thread::get_id();
  std::atomic<int> others{0};
  oa::parallel_for(64, [&](int64_t) {
    if (std::this_thread::get_id() == caller) {
      while (others.load() == 0) {
        std::this_thread::yield();
      }
    } else {
      others.fetch_add(1);
    }
  });
  EXPECT_GT(others.load(), 0);
}

TEST(ParallelFor, ACallFromAChunkRunsOnItsThread) {
  ScopedEnv env("OPENACLNN_NUM_THREADS", "2");
  std::vector<std::atomic<int>> counts(8 * 8);
  oa::parallel_for(8, [&](int64_t outer) {
    const std::thread::id self = std::this_thread::get_id();
    oa::parallel_for(8, [&](int64_t inner) {
      EXPECT_EQ(std::this_thread::get_id(), self);
      counts[static_cast<size_t>(outer * 8 + inner)].fetch_add(1);
    });
  });
  for (const std::atomic<int>& count : counts) {
    EXPECT_EQ(count.load(), 1);
  }
}

TEST(ParallelFor, CallsFromSeveralThreadsEachRunEveryChunk) {
  ScopedEnv env("OPENACLNN_NUM_THREADS", "2");
  std::vector<std::thread> callers;
  std::vector<std::unique_ptr<Visits>> results(4);
  for (size_t k = 0; k < results.size(); ++k) {
    callers.emplace_back([&results, k] {
      for (int round = 0; round < 50; ++round) {
        results[k] = visit(97);
        for (int64_t i = 0; i < 97; ++i) {
          ASSERT_EQ(results[k]->counts[static_cast<size_t>(i)].load(), 1);
        }
      }
    });
  }
  for (std::thread& caller : callers) {
    caller.join();
  }
}

TEST(ParallelFor, AChildProcessHasAPoolOfItsOwn) {
  ScopedEnv env("OPENACLNN_NUM_THREADS", "2");
  visit(16);  // the parent's pool exists
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    std::unique_ptr<Visits> visits = visit(1000);
    int bad = 0;
    for (const std::atomic<int>& count : visits->counts) {
      bad += count.load() != 1 ? 1 : 0;
    }
    _exit(bad == 0 && visits->threads.size() <= 2 ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

TEST(ParallelFor, NoChunksMeansNoCalls) {
  for (const char* threads : {"1", "2"}) {
    ScopedEnv env("OPENACLNN_NUM_THREADS", threads);
    int calls = 0;
    oa::parallel_for(0, [&calls](int64_t) { ++calls; });
    EXPECT_EQ(calls, 0);
  }
}

}  // namespace
