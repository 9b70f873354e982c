// The threading policy: OPENACLNN_NUM_THREADS, and parallel_for's chunks.
#include "base/parallel.h"

#include <omp.h>

#include <atomic>
#include <memory>
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

TEST(NumThreads, UnsetMeansEveryCore) {
  ScopedEnv env("OPENACLNN_NUM_THREADS", std::nullopt);
  EXPECT_EQ(oa::num_threads(), omp_get_num_procs());
}

TEST(NumThreads, InvalidValuesMeanEveryCore) {
  for (const char* value : {"", "abc", "0", "-2", "3x", " ", "4097", "99999999999999999999"}) {
    ScopedEnv env("OPENACLNN_NUM_THREADS", value);
    EXPECT_EQ(oa::num_threads(), omp_get_num_procs()) << "'" << value << "'";
  }
}

// Each chunk's visit count and the largest OpenMP thread number seen.
struct Visits {
  std::vector<std::atomic<int>> counts;
  std::atomic<int> max_thread{0};
  explicit Visits(int64_t chunks) : counts(static_cast<size_t>(chunks)) {}
};

std::unique_ptr<Visits> visit(int64_t chunks) {
  auto visits = std::make_unique<Visits>(chunks);
  Visits* v = visits.get();
  oa::parallel_for(chunks, [v](int64_t chunk) {
    v->counts[static_cast<size_t>(chunk)].fetch_add(1);
    int thread = omp_get_thread_num();
    int seen = v->max_thread.load();
    while (thread > seen && !v->max_thread.compare_exchange_weak(seen, thread)) {
    }
  });
  return visits;
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

TEST(ParallelFor, TwoThreadsVisitEachChunkOnce) {
  ScopedEnv env("OPENACLNN_NUM_THREADS", "2");
  for (int64_t chunks : {1, 2, 3, 37, 1000}) {
    std::unique_ptr<Visits> visits = visit(chunks);
    for (int64_t i = 0; i < chunks; ++i) {
      EXPECT_EQ(visits->counts[static_cast<size_t>(i)].load(), 1) << chunks << " chunks, " << i;
    }
    EXPECT_LT(visits->max_thread.load(), 2) << chunks << " chunks";
  }
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
