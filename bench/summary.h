// The display reporter of openaclnn_bench: passes everything to Google Benchmark's own display
// reporter, then, after all runs, prints a table of each case's median rate, openaclnn against
// PyTorch and both against the case's ceiling measured in the same run (a memory-bound case's
// traffic-matched loop, the better of its plain and streaming stores; a compute-bound case's GEMM
// rate), optionally also written as JSON for the report tool.
#pragma once

#include <benchmark/benchmark.h>

#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "runner.h"

namespace oa::bench {

class SummaryReporter : public benchmark::BenchmarkReporter {
 public:
  // display: the reporter to pass the runs to, which must outlive this one. json_path: where to
  // write the summary as JSON; empty for none. arguments: the command line's own arguments, which
  // the JSON records so that a report can say how its numbers were measured.
  SummaryReporter(benchmark::BenchmarkReporter* display, std::string json_path,
                  std::vector<std::string> arguments);

  bool ReportContext(const Context& context) override;
  void ReportRuns(const std::vector<Run>& runs) override;
  void Finalize() override;

  // False when the JSON summary could not be written.
  bool ok() const { return ok_; }

 private:
  // What the runs of one benchmark said.
  struct Timing {
    std::vector<double> seconds;  // per iteration, one entry per repetition
    double median_seconds = 0;    // from Google Benchmark's "median" aggregate; 0 when none
    std::string error;
  };

  using Key = std::pair<const Case*, Side>;

  // The outcome of one side: its rate in the case's unit (GB/s or GFLOP/s), from the median
  // seconds per step (Google Benchmark's median aggregate when there is one, else the median of
  // the repetitions), or why it has none.
  struct Outcome {
    std::optional<double> rate;
    std::string error;  // the failure message; empty when it did not fail
  };

  struct Row {
    const Case* c;
    Outcome ours;
    Outcome torch;
    Outcome traffic_plain;      // memory-bound cases: the traffic loop with plain stores
    Outcome traffic_streaming;  // and with streaming stores
    // The ceiling the percentages use: the faster traffic loop measured (memory-bound), or the
    // first GEMM ceiling in run order (compute-bound); null and empty when none was measured.
    std::optional<double> ceiling;
    std::string ceiling_kind;  // "traffic_plain", "traffic_streaming" or "gemm"
    std::string ceiling_case;  // the benchmark that measured it
  };

  Outcome outcome(const Case& c, Side side) const;
  std::vector<Row> rows() const;  // every case, ceilings included, in run order
  void print_table(const std::vector<Row>& rows) const;
  bool write_json(const std::vector<Row>& rows) const;

  benchmark::BenchmarkReporter* display_;
  std::map<Key, Timing> timings_;
  std::string json_path_;
  std::vector<std::string> arguments_;
  std::string date_;              // the run's start, UTC
  std::vector<double> load_avg_;  // the machine's 1, 5 and 15 minute load averages at the start
  long repetitions_ = 0;
  bool ok_ = true;
};

}  // namespace oa::bench
