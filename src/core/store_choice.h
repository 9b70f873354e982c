// Plain or streaming stores for a launch's output, learned per operator and launch size.
//
// Which is faster depends on how much of the last-level cache the process really gets, and that
// differs by host and by what runs beside it (core/fill_simd.h): on a 2-core VM whose 32 MiB cache
// was shared with busy neighbours, pooling backward launches touching 18-32 MiB ran 1.4-2.4x faster
// streamed; on a Zen 5 VM with that cache to itself, the same launches ran 1.15-1.8x faster with
// plain stores (docs/perf/adaptive_max_pool2d.md). No size threshold suits both, and the hosts
// report nothing that tells them apart (the Zen 5 VM's CPUID gives a 508 MiB last-level cache), so
// a launch of a size in between tries both kinds of stores and keeps the faster, as an auto-tuner
// does. The stores change the time, never the bits. The operators that learn are those whose plans
// ask choose_stores (aclnnAdaptiveMaxPool2dBackward); the others decide by size alone.
//
// OPENACLNN_STORES=size (read at each choice) turns the learning off: a launch then streams
// exactly when it touches more than simd::kCachedBytes, as launches outside the range below do.
#pragma once

#include <array>
#include <cstdint>

namespace oa {

// Launches touching more than simd::kCachedBytes and up to this many bytes learn their stores;
// larger ones always stream (on both hosts above streaming won or tied from 64 MiB).
inline constexpr int64_t kLearnStoresToBytes = int64_t{128} << 20;

// What phase 1 chose for a launch, and where phase 2 reports how long it took.
struct StoreChoice {
  bool stream = false;
  // The learner's slot and key; slot -1 when the stores follow from the size alone.
  int slot = -1;
  uint64_t key = 0;
  // Whether the learner wants the launch's time (StoreLearner::Pick).
  bool timed = false;
};

// The stores of a launch of op (a name that lives as long as the process) touching
// `touched_bytes` in all (read and written).
StoreChoice choose_stores(const char* op, int64_t touched_bytes);

// Tells the learner that a launch planned with `choice` ran for `seconds` (nothing for a choice
// made by size).
void report_launch(const StoreChoice& choice, double seconds);

// Learns the stores of one operator at one size. Launches come in runs with the same stores, timed
// only after a warm-up: plain stores find the output in cache only after launches that stored it
// plainly too. After streamed launches, a plain one ran 1.4-1.7x, 1.1-1.4x and 1.0-1.4x its steady
// time on the three launches that followed (float32 8x256x64x64 to 1x1, 32 MiB written), and with
// only the first plain launch untimed the learner judged plain stores by cold launches and kept
// streaming stores in 3 of 5 benchmark runs, 1.1-1.14x slower than plain ones there. So a run of
// plain stores is kPlainRun launches of which the first kPlainWarmUp are untimed, and a run of
// streaming stores kStreamRun launches of which the first is untimed. The first kTrials launches
// are two runs of each kind; after them a launch takes the preferred kind, except for retries, runs
// of the other kind, so that the choice follows a host whose cache gets busier or quieter. The
// choice is made only at the end of the trials and of each retry: the kind whose times include the
// fastest wins, the other kind's being those of the retry itself and the preferred kind's its last
// kSamples before the retry, so that both were measured under the same conditions. Between retries
// nothing changes it. Judged at every launch, a few slow launches of the preferred kind (a busy
// neighbour, an output evicted by other work) outweighed times of the other kind from a quieter
// moment, and the choice swung back and forth: 2-9 times in 520-850 launches of 20-34 MiB with
// other work after every 30-50, against 0-1 times now (float32 8x256x64x64 to 1x1 and 3x5, float32
// and bfloat16 64x64x32x32 to 16x16; 1.0-1.16x as fast, within that driver's spread). The first
// retry ends kMinRetryPeriod launches after the trials; each retry that leaves the choice as it was
// doubles the gap to the end of the next (up to kMaxRetryPeriod: a settled choice then costs one
// run of the slower kind in 1024 launches), and one that changes it sets the gap back to
// kMinRetryPeriod.
class StoreLearner {
 public:
  static constexpr int kSamples = 4;
  static constexpr int64_t kStreamRun = 3;
  static constexpr int64_t kPlainRun = 6;
  static constexpr int64_t kPlainWarmUp = 3;
  static constexpr int64_t kTrials = 2 * (kStreamRun + kPlainRun);
  static constexpr int64_t kMinRetryPeriod = 64;
  static constexpr int64_t kMaxRetryPeriod = 1024;

  // The launches of a run of the kind, and how many of its first ones go untimed.
  static constexpr int64_t run_length(bool stream) { return stream ? kStreamRun : kPlainRun; }
  static constexpr int64_t warm_up(bool stream) { return stream ? 1 : kPlainWarmUp; }

  struct Pick {
    bool stream;  // streaming stores (else plain ones)
    bool timed;   // whether the launch's time is to be recorded
  };
  Pick choose();
  void record(bool stream, double seconds);
  // The kind found faster so far (streaming until the trials are over, and while nothing is timed).
  bool prefers_stream() const { return prefers_stream_; }
  // The fastest of the kind's last kSamples times; +infinity before its first.
  double best(bool stream) const;

 private:
  int64_t launches_ = 0;
  bool last_stream_ = false;
  // Launches of last_stream_'s kind in a row, up to the last one.
  int64_t in_a_row_ = 0;
  bool prefers_stream_ = true;
  // The gap between the ends of two retries, and the launch after the last of the next retry.
  int64_t period_ = kMinRetryPeriod;
  int64_t retry_end_ = 0;
  std::array<std::array<double, kSamples>, 2> times_{};
  std::array<int64_t, 2> recorded_{};
};

}  // namespace oa
