#include "summary.h"

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "traffic.h"

#ifdef OPENACLNN_BENCH_TORCH
#include "torch_init.h"
#endif

namespace oa::bench {
namespace {

double median(std::vector<double> values) {
  if (values.empty()) {
    return 0;
  }
  std::sort(values.begin(), values.end());
  const size_t half = values.size() / 2;
  return values.size() % 2 == 1 ? values[half] : (values[half - 1] + values[half]) / 2;
}

std::optional<double> ratio(std::optional<double> a, std::optional<double> b) {
  if (!a || !b) {
    return std::nullopt;
  }
  return *a / *b;
}

std::optional<double> percent(std::optional<double> a, std::optional<double> b) {
  const std::optional<double> r = ratio(a, b);
  return r ? std::optional<double>(100 * *r) : std::nullopt;
}

// "-" stands for a value this run did not measure.
std::string cell(std::optional<double> value, const char* suffix = "") {
  if (!value) {
    return "-";
  }
  char text[64];
  std::snprintf(text, sizeof text, "%.2f%s", *value, suffix);
  return text;
}

// JSON null stands for a value this run did not measure, and for "no error".
nlohmann::ordered_json json_number(std::optional<double> value) {
  return value ? nlohmann::ordered_json(*value) : nlohmann::ordered_json();
}

nlohmann::ordered_json json_error(const std::string& error) {
  return error.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(error);
}

// The run's start in UTC (ISO 8601), so that a report says when it was measured, not when it was
// rendered.
std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

// What a machine ceiling measures.
const char* machine_kind(Bound bound) { return bound == Bound::memory ? "copy" : "gemm"; }

const char* bound_name(Bound bound) { return bound == Bound::memory ? "memory" : "compute"; }

// The ceiling column's label: "traffic plain", "traffic streaming", or the GEMM ceiling's name.
std::string ceiling_label(const std::string& kind, const std::string& ceiling_case) {
  if (kind == "gemm") {
    return ceiling_case.substr(ceiling_case.find('/') + 1);
  }
  return kind == "traffic_plain" ? "traffic plain" : (kind.empty() ? "-" : "traffic streaming");
}

}  // namespace

SummaryReporter::SummaryReporter(benchmark::BenchmarkReporter* display, std::string json_path,
                                 std::vector<std::string> arguments)
    : display_(display), json_path_(std::move(json_path)), arguments_(std::move(arguments)) {}

bool SummaryReporter::ReportContext(const Context& context) {
  date_ = utc_now();
  load_avg_ = context.cpu_info.load_avg;
  return display_->ReportContext(context);
}

void SummaryReporter::ReportRuns(const std::vector<Run>& runs) {
  display_->ReportRuns(runs);
  for (const Run& run : runs) {
    const Measured* m = find_measured(run.run_name.function_name);
    if (m == nullptr) {
      continue;
    }
    Timing& timing = timings_[{m->c, m->side}];
    repetitions_ = std::max<long>(repetitions_, run.repetitions);
    if (run.error_occurred) {
      timing.error = run.error_message;
      continue;
    }
    const double seconds =
        run.GetAdjustedRealTime() / benchmark::GetTimeUnitMultiplier(run.time_unit);
    if (run.run_type == Run::RT_Iteration) {
      timing.seconds.push_back(seconds);
    } else if (run.aggregate_name == "median") {
      timing.median_seconds = seconds;
    }
  }
}

void SummaryReporter::Finalize() {
  display_->Finalize();
  const std::vector<Row> all = rows();
  print_table(all);
  if (!json_path_.empty()) {
    ok_ = write_json(all);
  }
}

SummaryReporter::Outcome SummaryReporter::outcome(const Case& c, Side side) const {
  const auto it = timings_.find({&c, side});
  if (it == timings_.end()) {
    return {};
  }
  const Timing& timing = it->second;
  if (!timing.error.empty()) {
    return {std::nullopt, timing.error};
  }
  const double seconds = timing.median_seconds > 0 ? timing.median_seconds : median(timing.seconds);
  if (!(seconds > 0)) {
    return {};
  }
  return {c.work / seconds / 1e9, ""};
}

std::vector<SummaryReporter::Row> SummaryReporter::rows() const {
  // The first float32 GEMM ceiling in run order is the one compute-bound cases are compared
  // with; a case with bfloat16 products takes the first bfloat16 one instead when it is faster.
  struct Gemm {
    const Case* c = nullptr;
    double rate = 0;
  };
  Gemm f32;
  Gemm bf16;
  for (const Case& c : cases()) {
    const std::optional<double> rate = outcome(c, Side::ours).rate;
    Gemm& gemm = c.bf16_products ? bf16 : f32;
    if (is_ceiling(c) && c.bound == Bound::compute && rate && gemm.c == nullptr) {
      gemm = {&c, *rate};
    }
  }
  std::vector<Row> all;
  for (const Case& c : cases()) {
    Row row{&c,
            outcome(c, Side::ours),
            outcome(c, Side::torch),
            outcome(c, Side::traffic_plain),
            outcome(c, Side::traffic_streaming),
            std::nullopt,
            "",
            ""};
    bool ran = false;
    for (const Outcome* o : {&row.ours, &row.torch, &row.traffic_plain, &row.traffic_streaming}) {
      ran = ran || o->rate || !o->error.empty();
    }
    if (!ran) {
      continue;
    }
    if (is_ceiling(c)) {
      // A machine fact, no percentage.
    } else if (c.bound == Bound::memory) {
      for (const Side side : {Side::traffic_plain, Side::traffic_streaming}) {
        const std::optional<double> rate =
            side == Side::traffic_plain ? row.traffic_plain.rate : row.traffic_streaming.rate;
        if (rate && (!row.ceiling || *rate > *row.ceiling)) {
          row.ceiling = rate;
          row.ceiling_kind = side_name(side);
          row.ceiling_case = full_name(c) + "/" + side_name(side);
        }
      }
    } else {
      const Gemm& gemm = c.bf16_products && bf16.rate > f32.rate ? bf16 : f32;
      if (gemm.c != nullptr) {
        row.ceiling = gemm.rate;
        row.ceiling_kind = "gemm";
        row.ceiling_case = full_name(*gemm.c);
      }
    }
    all.push_back(row);
  }
  return all;
}

void SummaryReporter::print_table(const std::vector<Row>& all) const {
  std::ostream& out = GetOutputStream();
  int width = 4;
  for (const Row& row : all) {
    width = std::max(width, static_cast<int>(full_name(*row.c).size()));
  }
  char line[512];
  std::snprintf(line, sizeof line,
                "\nopenaclnn_bench summary: medians of %ld repetition(s), %d threads, traffic "
                "loops on %s\n",
                repetitions_, thread_count(), traffic_target());
  out << line;
  for (const Row& row : all) {
    if (is_ceiling(*row.c)) {
      std::snprintf(line, sizeof line, "%-*s  %10s %s (%s ceiling)\n", width,
                    full_name(*row.c).c_str(), cell(row.ours.rate).c_str(), unit_name(row.c->bound),
                    machine_kind(row.c->bound));
      out << line;
    }
  }
  const char* format = "%-*s  %-7s %10s %10s %13s %10s %-18s %15s %18s\n";
  std::snprintf(line, sizeof line, format, width, "case", "unit", "ours", "PyTorch", "ours/PyTorch",
                "ceiling", "ceiling is", "ours % ceiling", "PyTorch % ceiling");
  out << line;
  for (const Row& row : all) {
    if (is_ceiling(*row.c)) {
      continue;
    }
    std::snprintf(line, sizeof line, format, width, full_name(*row.c).c_str(),
                  unit_name(row.c->bound), cell(row.ours.rate).c_str(),
                  cell(row.torch.rate).c_str(), cell(ratio(row.ours.rate, row.torch.rate)).c_str(),
                  cell(row.ceiling).c_str(),
                  ceiling_label(row.ceiling_kind, row.ceiling_case).c_str(),
                  cell(percent(row.ours.rate, row.ceiling), "%").c_str(),
                  cell(percent(row.torch.rate, row.ceiling), "%").c_str());
    out << line;
  }
  for (const Row& row : all) {
    const std::pair<const char*, const Outcome*> sides[] = {
        {"ours", &row.ours},
        {"PyTorch", &row.torch},
        {"traffic loop, plain stores", &row.traffic_plain},
        {"traffic loop, streaming stores", &row.traffic_streaming}};
    for (const auto& [side, o] : sides) {
      if (!o->error.empty()) {
        out << "failed: " << full_name(*row.c) << " (" << side << "): " << o->error << "\n";
      }
    }
  }
  out << "(- : not measured in this run: failed, filtered out, or no PyTorch counterpart)\n";
}

bool SummaryReporter::write_json(const std::vector<Row>& all) const {
  using Json = nlohmann::ordered_json;  // keeps the fields in the order written here
  Json ceilings = Json::array();
  Json measured = Json::array();
  for (const Row& row : all) {
    const Case& c = *row.c;
    if (is_ceiling(c)) {
      ceilings.push_back({{"case", full_name(c)},
                          {"kind", machine_kind(c.bound)},
                          {"unit", unit_name(c.bound)},
                          {"rate", json_number(row.ours.rate)},
                          {"error", json_error(row.ours.error)}});
      continue;
    }
    const Json traffic = c.bound == Bound::memory
                             ? Json{{"reads", c.traffic.reads}, {"writes", c.traffic.writes}}
                             : Json();
    const auto text = [](const std::string& value) { return value.empty() ? Json() : Json(value); };
    measured.push_back({{"case", full_name(c)},
                        {"group", c.group},
                        {"name", c.name},
                        {"bound", bound_name(c.bound)},
                        {"unit", unit_name(c.bound)},
                        {"work_per_step", c.work},
                        {"traffic", traffic},
                        {"ours", json_number(row.ours.rate)},
                        {"torch", json_number(row.torch.rate)},
                        {"ours_over_torch", json_number(ratio(row.ours.rate, row.torch.rate))},
                        {"traffic_plain", json_number(row.traffic_plain.rate)},
                        {"traffic_streaming", json_number(row.traffic_streaming.rate)},
                        {"ceiling_kind", text(row.ceiling_kind)},
                        {"ceiling_case", text(row.ceiling_case)},
                        {"ceiling_rate", json_number(row.ceiling)},
                        {"ours_pct_of_ceiling", json_number(percent(row.ours.rate, row.ceiling))},
                        {"torch_pct_of_ceiling", json_number(percent(row.torch.rate, row.ceiling))},
                        {"ours_error", json_error(row.ours.error)},
                        {"torch_error", json_error(row.torch.error)},
                        {"traffic_plain_error", json_error(row.traffic_plain.error)},
                        {"traffic_streaming_error", json_error(row.traffic_streaming.error)}});
  }
#ifdef OPENACLNN_BENCH_TORCH
  const Json pytorch = torch_version();
#else
  const Json pytorch;
#endif
  const Json summary = {{"date", date_},
                        {"arguments", arguments_},
                        {"threads", thread_count()},
                        {"repetitions", repetitions_},
                        {"load_avg", load_avg_},
                        {"pytorch", pytorch},
                        {"traffic_target", traffic_target()},
                        {"ceilings", ceilings},
                        {"cases", measured}};
  std::ofstream out(json_path_);
  // Error messages come from other libraries and need not be UTF-8: replace what is not, rather
  // than throw.
  out << summary.dump(2, ' ', false, Json::error_handler_t::replace) << '\n';
  out.close();
  if (!out) {
    std::fprintf(stderr, "openaclnn_bench: cannot write %s\n", json_path_.c_str());
    return false;
  }
  return true;
}

}  // namespace oa::bench
