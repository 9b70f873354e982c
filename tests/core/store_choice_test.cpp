// The learned choice between streaming and plain stores (core/store_choice.h): the learner's
// schedule of trials, timed launches and retries, that it keeps the kind with the fastest recent
// time and follows a change, and which launches choose_stores leaves to the size rule.
#include "core/store_choice.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <vector>

#include "core/fill_simd.h"
#include "test_env.h"

namespace {

using oa::StoreLearner;

// Runs `launches` launches: each launch of kind k takes times[k] seconds and is recorded when the
// learner asks for its time. Returns the kinds chosen.
std::vector<bool> run(StoreLearner& learner, int64_t launches, double stream_time,
                      double plain_time) {
  std::vector<bool> kinds;
  for (int64_t k = 0; k < launches; ++k) {
    const StoreLearner::Pick pick = learner.choose();
    kinds.push_back(pick.stream);
    if (pick.timed) {
      learner.record(pick.stream, pick.stream ? stream_time : plain_time);
    }
  }
  return kinds;
}

// Trials: streaming stores for 3 launches (the last 2 timed), plain stores for 6 (the last 3
// timed), twice.
TEST(StoreLearner, TrialsAreRunsOfEachKindTimedAfterTheirWarmUp) {
  StoreLearner learner;
  const std::vector<bool> stream = {true, true, true, false, false, false, false, false, false,
                                    true, true, true, false, false, false, false, false, false};
  const std::vector<bool> timed = {false, true, true, false, false, false, true, true, true,
                                   false, true, true, false, false, false, true, true, true};
  ASSERT_EQ(static_cast<int64_t>(stream.size()), StoreLearner::kTrials);
  for (int64_t k = 0; k < StoreLearner::kTrials; ++k) {
    const StoreLearner::Pick pick = learner.choose();
    EXPECT_EQ(pick.stream, stream[k]) << "launch " << k;
    EXPECT_EQ(pick.timed, timed[k]) << "launch " << k;
  }
  // Nothing was recorded: streaming stays preferred.
  EXPECT_TRUE(learner.choose().stream);
  EXPECT_TRUE(learner.prefers_stream());
}

// The launches (counted from the end of the trials) that take the kind other than `preferred`.
std::vector<int64_t> others(const std::vector<bool>& kinds, bool preferred) {
  std::vector<int64_t> at;
  for (int64_t k = 0; k < static_cast<int64_t>(kinds.size()); ++k) {
    if (kinds[k] != preferred) {
      at.push_back(k);
    }
  }
  return at;
}

// Retry runs of the kind not preferred (stream or not) that end at gaps of 64, 128, 256, 512 and
// then 1024 launches while the choice stands.
std::vector<int64_t> settled_retries(int64_t launches, bool stream) {
  std::vector<int64_t> at;
  int64_t period = StoreLearner::kMinRetryPeriod;
  for (int64_t end = period; end - StoreLearner::run_length(stream) < launches;) {
    for (int64_t k = end - StoreLearner::run_length(stream); k < end && k < launches; ++k) {
      at.push_back(k);
    }
    period = std::min(2 * period, StoreLearner::kMaxRetryPeriod);
    end += period;
  }
  return at;
}

TEST(StoreLearner, KeepsTheFasterKindAndRetriesTheOtherLessOftenWhileItStands) {
  for (bool stream_faster : {true, false}) {
    const double stream_time = stream_faster ? 1.0 : 2.0;
    const double plain_time = stream_faster ? 2.0 : 1.0;
    StoreLearner learner;
    run(learner, StoreLearner::kTrials, stream_time, plain_time);
    const std::vector<bool> kinds = run(learner, 3000, stream_time, plain_time);
    EXPECT_EQ(learner.prefers_stream(), stream_faster);
    EXPECT_EQ(others(kinds, stream_faster), settled_retries(3000, !stream_faster));
  }
}

TEST(StoreLearner, FollowsAHostWhoseCacheGetsQuieter) {
  StoreLearner learner;
  run(learner, StoreLearner::kTrials + 500, 1.0, 2.0);
  ASSERT_TRUE(learner.prefers_stream());
  // Plain stores become faster: the next retry (ending at launch 960 after the trials, 460 into
  // this stretch) finds it out, and the retries of streaming stores end 64 launches apart again.
  const std::vector<bool> kinds = run(learner, 600, 1.0, 0.5);
  const int64_t retry_end = 460;
  EXPECT_FALSE(learner.prefers_stream());
  EXPECT_EQ(learner.best(false), 0.5);
  EXPECT_EQ(learner.best(true), 1.0);
  int64_t switched = 0;
  while (switched < static_cast<int64_t>(kinds.size()) && kinds[switched]) {
    ++switched;
  }
  EXPECT_EQ(switched, retry_end - StoreLearner::kPlainRun);
  std::vector<int64_t> retries;
  for (int64_t k = switched; k < static_cast<int64_t>(kinds.size()); ++k) {
    if (kinds[k]) {
      retries.push_back(k);
    }
  }
  // A run of streaming stores that ends 64 launches after the retry that switched.
  const int64_t next_end = retry_end + StoreLearner::kMinRetryPeriod;
  ASSERT_GE(retries.size(), 3u);
  EXPECT_EQ(retries[0], next_end - StoreLearner::kStreamRun);
  EXPECT_EQ(retries[2], next_end - 1);
}

TEST(StoreLearner, SlowLaunchesBetweenRetriesLeaveTheChoice) {
  // The trials find plain stores faster (1.0 against 2.0).
  StoreLearner learner;
  run(learner, StoreLearner::kTrials, 2.0, 1.0);
  // Then plain launches take 3.0 until a few launches before the first retry (61 launches after
  // the trials): the choice waits for the retry instead of comparing them with the streaming times
  // of the trials.
  const int64_t before_retry = StoreLearner::kMinRetryPeriod - StoreLearner::kStreamRun;
  const int64_t fast_again = StoreLearner::kSamples;
  const std::vector<bool> slow = run(learner, before_retry - fast_again, 2.0, 3.0);
  EXPECT_EQ(others(slow, false), std::vector<int64_t>{});
  run(learner, fast_again, 2.0, 1.0);
  EXPECT_FALSE(learner.prefers_stream());
  // The retry's streaming times (2.0) lose to the plain times just before it (1.0).
  const std::vector<bool> retry = run(learner, StoreLearner::kStreamRun + 1, 2.0, 1.0);
  EXPECT_EQ(others(retry, false), (std::vector<int64_t>{0, 1, 2}));
  EXPECT_FALSE(learner.prefers_stream());
  // A slow stretch that lasts up to the retry moves the choice to streaming when the retry ends.
  StoreLearner busy;
  run(busy, StoreLearner::kTrials, 2.0, 1.0);
  const std::vector<bool> kinds = run(busy, before_retry + StoreLearner::kStreamRun + 1, 2.0, 3.0);
  EXPECT_EQ(others(kinds, false), (std::vector<int64_t>{before_retry, before_retry + 1,
                                                        before_retry + 2, before_retry + 3}));
  EXPECT_TRUE(busy.prefers_stream());
}

// Plain stores find the output in cache only a few launches after streamed ones: modelled as 3.0
// for the first three plain launches in a row (as measured, core/store_choice.h) and `warm` after,
// against 1.0 for streaming stores. Returns whether the learner preferred streaming stores after
// each launch.
std::vector<bool> run_with_cold_plain(StoreLearner& learner, int64_t launches, double warm) {
  std::vector<bool> prefers;
  int64_t plain_in_a_row = 0;
  for (int64_t k = 0; k < launches; ++k) {
    const StoreLearner::Pick pick = learner.choose();
    plain_in_a_row = pick.stream ? 0 : plain_in_a_row + 1;
    const double plain = plain_in_a_row <= 3 ? 3.0 : warm;
    if (pick.timed) {
      learner.record(pick.stream, pick.stream ? 1.0 : plain);
    }
    prefers.push_back(learner.prefers_stream());
  }
  return prefers;
}

// Plain launches are judged only once warm (a plain run's first launches, cold after streamed ones,
// are not timed): plain stores faster when warm win the trials and keep winning the retries, and
// when they become faster after the trials chose streaming stores, the next retry finds it out.
TEST(StoreLearner, PlainStoresAreJudgedWarm) {
  StoreLearner learner;
  std::vector<bool> prefers = run_with_cold_plain(learner, StoreLearner::kTrials + 3000, 0.5);
  prefers.erase(prefers.begin(), prefers.begin() + StoreLearner::kTrials);
  EXPECT_EQ(std::count(prefers.begin(), prefers.end(), true), 0);
  StoreLearner slow_at_first;
  run_with_cold_plain(slow_at_first, StoreLearner::kTrials + 10, 2.0);
  ASSERT_TRUE(slow_at_first.prefers_stream());
  // The first retry ends kMinRetryPeriod launches after the trials, and the launch after it
  // decides.
  prefers = run_with_cold_plain(slow_at_first, StoreLearner::kMinRetryPeriod - 10 + 1, 0.5);
  EXPECT_TRUE(prefers[prefers.size() - 2]);
  EXPECT_FALSE(prefers.back());
}

TEST(StoreLearner, BestIsTheFastestOfTheLastSamples) {
  StoreLearner learner;
  EXPECT_EQ(learner.best(true), std::numeric_limits<double>::infinity());
  learner.record(true, 1.0);
  for (int k = 0; k < StoreLearner::kSamples; ++k) {
    learner.record(true, 3.0 + k);
  }
  // 1.0 has left the window of the last kSamples.
  EXPECT_EQ(learner.best(true), 3.0);
}

// Launches outside the learned range, and every launch with OPENACLNN_STORES=size, follow the size
// rule; launches in it learn, one slot per operator and size.
TEST(ChooseStores, SizeRuleOutsideTheRangeOrWhenAsked) {
  oa_test::ScopedEnv stores("OPENACLNN_STORES", std::nullopt);
  for (int64_t bytes : {int64_t{0}, oa::simd::kCachedBytes, oa::kLearnStoresToBytes + 1}) {
    const oa::StoreChoice choice = oa::choose_stores("ChooseStoresTest", bytes);
    EXPECT_EQ(choice.slot, -1) << bytes;
    EXPECT_EQ(choice.stream, oa::simd::streams_output(bytes)) << bytes;
  }
  const int64_t inside = oa::simd::kCachedBytes + 12345;
  const oa::StoreChoice first = oa::choose_stores("ChooseStoresTest", inside);
  EXPECT_GE(first.slot, 0);
  EXPECT_TRUE(first.stream);
  EXPECT_FALSE(first.timed);
  const oa::StoreChoice second = oa::choose_stores("ChooseStoresTest", inside);
  EXPECT_EQ(second.slot, first.slot);
  EXPECT_TRUE(second.timed);
  const oa::StoreChoice other = oa::choose_stores("ChooseStoresTest", inside + 1);
  EXPECT_NE(other.slot, first.slot);
  {
    oa_test::ScopedEnv by_size("OPENACLNN_STORES", "size");
    const oa::StoreChoice choice = oa::choose_stores("ChooseStoresTest", inside);
    EXPECT_EQ(choice.slot, -1);
    EXPECT_TRUE(choice.stream);
  }
}

}  // namespace
