// Per-function call statistics (rocprofv3's *_stats.csv) and the --summary
// table. Accumulates as events stream by; writes at Finish only, because a
// statistic of a partial run is not what its name says.
#ifndef ROCTRACE_WRITERS_STATS_H_
#define ROCTRACE_WRITERS_STATS_H_

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "roctrace/writers/event.h"

namespace roctrace {

struct CallStats {
  uint64_t calls = 0;
  uint64_t total_ns = 0;
  uint64_t min_ns = UINT64_MAX;
  uint64_t max_ns = 0;
  uint64_t failed = 0;  // API calls that returned a status other than success
  // Welford's running mean and sum of squared deviations: stable for the
  // millions of near-equal durations a hot loop produces.
  double mean = 0;
  double m2 = 0;

  void Add(uint64_t duration_ns);
  double StdDev() const;  // the sample's standard deviation (n - 1)
};

struct StatsRow {
  std::string name;
  CallStats stats;
  double percentage;  // of the table's total duration
};

class StatsWriter : public Writer {
 public:
  // `path_prefix` empty: no files (only the summary). `summary`: print the
  // tables to stderr at Finish.
  StatsWriter(std::string path_prefix, bool summary);
  // Where the summary goes ("stderr" or empty, "stdout", or the path of a
  // file it replaces: SummaryPath) and its time unit (nsec, usec, msec,
  // sec).
  void SetSummaryOutput(std::string file, std::string units) {
    summary_file_ = std::move(file);
    summary_units_ = std::move(units);
  }
  // --summary-output-file NAME as rocprofv3 resolves it: `stdout` and
  // `stderr` (any case) as they are (lower case), empty as empty (stderr),
  // any other NAME the file `<prefix>_NAME.txt` beside the run's other
  // outputs.
  static std::string SummaryPath(const std::string& prefix,
                                 const std::string& name);
  // Summary tables besides `summary`'s (all operations in one table): one
  // per domain (-D), and one per regular expression (ECMAScript, matched
  // against the whole domain name, as rocprofv3's std::regex_match) of the
  // domains it matches (--summary-groups). A group that matches no domain
  // with events is said on stderr.
  void SetSummaryTables(bool per_domain, std::vector<std::string> groups) {
    per_domain_ = per_domain;
    groups_ = std::move(groups);
  }
  void Write(const ApiEvent& event) override;
  void Finish(const RunInfo& info) override;
  std::vector<std::string> Files() const override { return files_; }

  // Rows sorted by total duration, longest first. kHsa's leaves out the
  // libhsakmt calls (--kfd-trace), which are KfdTable's
  // (`_kfd_api_stats.csv`, roctrace's own file).
  std::vector<StatsRow> Table(Category category) const;
  std::vector<StatsRow> KfdTable() const;
  // A libhsakmt call: carried as an HSA category event, domain KFD_API.
  static bool IsKfd(const OpName& op) { return op.domain == "KFD_API"; }
  // One row per summary domain (SummaryDomain), as `_domain_stats.csv`.
  std::vector<StatsRow> DomainTable() const;

  static const char* StatsSuffix(Category category);
  // rocprofv3's summary domain of an operation (its domain_type column
  // names: HSA_API, HIP_API, MARKER_API, KERNEL_DISPATCH, MEMORY_COPY,
  // SCRATCH_MEMORY, MEMORY_ALLOCATION), or KFD_API for libhsakmt calls
  // (roctrace's --kfd-trace). The trace files keep the finer categories
  // (HIP_RUNTIME_API_EXT, HSA_AMD_EXT_API, ...).
  static const char* SummaryDomain(const OpName& op);

 private:
  // A table with rocprofv3's stats columns.
  void WriteCsv(const std::string& path, const std::vector<StatsRow>& rows);
  // `_api_failures.csv`, roctrace's own: "Domain","Name","Calls",
  // "FailedCalls" for every API operation called (HIP_API, HSA_API, then
  // KFD_API; each domain's longest total first).
  void WriteFailuresCsv(const std::string& path);
  // `text` as the file at `path` (replaced); a file that cannot be written
  // whole is removed and reported.
  void WriteFile(const std::string& path, const std::string& text);

  std::string prefix_;
  bool summary_;
  std::string summary_file_;
  std::string summary_units_ = "nsec";
  bool per_domain_ = false;
  std::vector<std::string> groups_;
  // By OpName::index: (name, statistics); null name: not seen.
  std::vector<std::pair<const OpName*, CallStats>> by_op_;
  std::vector<std::string> files_;
};

// Sorted rows with percentages from unsorted (name, stats) pairs.
std::vector<StatsRow> MakeRows(std::map<std::string, CallStats> stats);

}  // namespace roctrace

#endif  // ROCTRACE_WRITERS_STATS_H_
