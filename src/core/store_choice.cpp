#include "core/store_choice.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <mutex>

#include "core/fill_simd.h"
#include "runtime/error.h"

namespace oa {
namespace {

// Operator and size pairs learned at once; a new pair takes the slot given out longest ago.
constexpr int kSlots = 16;

struct Slot {
  uint64_t key = 0;
  StoreLearner learner;
};

struct Table {
  std::mutex mutex;
  std::array<Slot, kSlots> slots;
  int next = 0;
};

Table& table() {
  static Table instance;
  return instance;
}

bool learning() {
  const char* text = std::getenv("OPENACLNN_STORES");
  return text == nullptr || std::strcmp(text, "size") != 0;
}

// Never 0, the key of an unused slot.
uint64_t key_of(const char* op, int64_t touched_bytes) {
  const auto address = static_cast<uint64_t>(reinterpret_cast<uintptr_t>(op));
  return (address * 0x9e3779b97f4a7c15ULL ^ static_cast<uint64_t>(touched_bytes)) | 1;
}

}  // namespace

StoreLearner::Pick StoreLearner::choose() {
  const int64_t launch = launches_++;
  bool stream = true;
  if (launch < kTrials) {
    stream = launch % (kStreamRun + kPlainRun) < kStreamRun;
  } else {
    if (launch == kTrials || launch == retry_end_) {
      // The trials or a retry are over (launch by launch, their times are recorded by now).
      const bool before = prefers_stream_;
      prefers_stream_ = !(best(false) < best(true));
      if (launch == kTrials) {
        period_ = kMinRetryPeriod;
      } else {
        period_ =
            prefers_stream_ == before ? std::min(2 * period_, kMaxRetryPeriod) : kMinRetryPeriod;
      }
      retry_end_ = launch + period_;
    }
    // The retry is a run of the other kind that ends at retry_end_.
    const int64_t retry_at = retry_end_ - run_length(!prefers_stream_);
    if (launch == retry_at) {
      // The other kind is judged by the retry's own times.
      recorded_[!prefers_stream_] = 0;
    }
    const bool retry = launch >= retry_at && launch < retry_end_;
    stream = retry != prefers_stream_;
  }
  in_a_row_ = launch > 0 && stream == last_stream_ ? in_a_row_ + 1 : 1;
  last_stream_ = stream;
  return Pick{stream, in_a_row_ > warm_up(stream)};
}

void StoreLearner::record(bool stream, double seconds) {
  int64_t& count = recorded_[stream];
  times_[stream][count % kSamples] = seconds;
  ++count;
}

double StoreLearner::best(bool stream) const {
  const int64_t count = std::min<int64_t>(recorded_[stream], kSamples);
  double fastest = std::numeric_limits<double>::infinity();
  for (int64_t k = 0; k < count; ++k) {
    fastest = std::min(fastest, times_[stream][k]);
  }
  return fastest;
}

StoreChoice choose_stores(const char* op, int64_t touched_bytes) {
  if (touched_bytes <= simd::kCachedBytes || touched_bytes > kLearnStoresToBytes || !learning()) {
    return StoreChoice{simd::streams_output(touched_bytes), -1, 0};
  }
  const uint64_t key = key_of(op, touched_bytes);
  Table& t = table();
  std::lock_guard<std::mutex> lock(t.mutex);
  int slot = 0;
  while (slot < kSlots && t.slots[slot].key != key) {
    ++slot;
  }
  if (slot == kSlots) {
    slot = t.next;
    t.next = (t.next + 1) % kSlots;
    t.slots[slot] = Slot{key, StoreLearner()};
  }
  StoreLearner& learner = t.slots[slot].learner;
  const bool preferred = learner.prefers_stream();
  const StoreLearner::Pick pick = learner.choose();
  const StoreChoice choice{pick.stream, slot, key, pick.timed};
  if (learner.prefers_stream() != preferred) {
    logf(LogLevel::debug,
         "%s: launches touching %lld bytes now prefer %s stores (best %.0f us "
         "streaming, %.0f us plain)",
         op, static_cast<long long>(touched_bytes),
         learner.prefers_stream() ? "streaming" : "plain", learner.best(true) * 1e6,
         learner.best(false) * 1e6);
  }
  return choice;
}

void report_launch(const StoreChoice& choice, double seconds) {
  if (choice.slot < 0 || !choice.timed) {
    return;
  }
  Table& t = table();
  std::lock_guard<std::mutex> lock(t.mutex);
  Slot& slot = t.slots[choice.slot];
  if (slot.key == choice.key) {
    slot.learner.record(choice.stream, seconds);
  }
}

}  // namespace oa
