#include "roctrace/writers/stats.h"

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <set>

#include "roctrace/writers/csv_writer.h"

namespace roctrace {

void CallStats::Add(uint64_t duration_ns) {
  ++calls;
  total_ns += duration_ns;
  min_ns = std::min(min_ns, duration_ns);
  max_ns = std::max(max_ns, duration_ns);
  double x = static_cast<double>(duration_ns);
  double delta = x - mean;
  mean += delta / static_cast<double>(calls);
  m2 += delta * (x - mean);
}

double CallStats::StdDev() const {
  // The sample's standard deviation, as rocprofv3 reports it.
  return calls < 2 ? 0.0 : std::sqrt(m2 / static_cast<double>(calls - 1));
}

const char* StatsWriter::StatsSuffix(Category category) {
  switch (category) {
    case Category::kHip:
      return "_hip_api_stats.csv";
    case Category::kHsa:
      return "_hsa_api_stats.csv";
    case Category::kMarker:
      return "_marker_api_stats.csv";
    case Category::kKernel:
      return "_kernel_stats.csv";
    case Category::kMemoryCopy:
      return "_memory_copy_stats.csv";
    case Category::kScratchMemory:
      return "_scratch_memory_stats.csv";
    case Category::kMemoryAllocation:
      return "_memory_allocation_stats.csv";
  }
  return "_api_stats.csv";
}

StatsWriter::StatsWriter(std::string path_prefix, bool summary)
    : prefix_(std::move(path_prefix)), summary_(summary) {}

void StatsWriter::Write(const ApiEvent& e) {
  if (e.op->index >= by_op_.size()) {
    by_op_.resize(e.op->index + 1, {nullptr, CallStats()});
  }
  auto& entry = by_op_[e.op->index];
  entry.first = e.op;
  entry.second.Add(e.end_ns - e.start_ns);
  if (e.failed) ++entry.second.failed;
}

std::vector<StatsRow> MakeRows(std::map<std::string, CallStats> stats) {
  uint64_t total = 0;
  for (const auto& kv : stats) total += kv.second.total_ns;
  std::vector<StatsRow> rows;
  for (auto& kv : stats) {
    double pct = total == 0 ? 0.0
                            : 100.0 * static_cast<double>(kv.second.total_ns) /
                                  static_cast<double>(total);
    rows.push_back({kv.first, kv.second, pct});
  }
  std::stable_sort(rows.begin(), rows.end(),
                   [](const StatsRow& a, const StatsRow& b) {
                     return a.stats.total_ns > b.stats.total_ns;
                   });
  return rows;
}

namespace {

// Merges `from` into `into` (the combined mean and M2 of two samples).
void Merge(CallStats* into, const CallStats& from) {
  if (from.calls == 0) return;
  if (into->calls == 0) {
    *into = from;
    return;
  }
  double n1 = static_cast<double>(into->calls);
  double n2 = static_cast<double>(from.calls);
  double delta = from.mean - into->mean;
  into->m2 += from.m2 + delta * delta * n1 * n2 / (n1 + n2);
  into->mean += delta * n2 / (n1 + n2);
  into->calls += from.calls;
  into->failed += from.failed;
  into->total_ns += from.total_ns;
  into->min_ns = std::min(into->min_ns, from.min_ns);
  into->max_ns = std::max(into->max_ns, from.max_ns);
}

}  // namespace

std::vector<StatsRow> StatsWriter::Table(Category category) const {
  std::map<std::string, CallStats> by_name;
  for (const auto& kv : by_op_) {
    if (kv.first != nullptr && kv.first->category == category)
      Merge(&by_name[kv.first->name], kv.second);
  }
  return MakeRows(std::move(by_name));
}

std::vector<StatsRow> StatsWriter::GroupTable(const regex_t* domains) const {
  std::map<std::string, CallStats> by_name;
  for (const auto& kv : by_op_) {
    if (kv.first == nullptr) continue;
    if (domains != nullptr &&
        regexec(domains, kv.first->domain.c_str(), 0, nullptr, 0) != 0) {
      continue;
    }
    Merge(&by_name[kv.first->name], kv.second);
  }
  return MakeRows(std::move(by_name));
}

std::vector<StatsRow> StatsWriter::DomainTable() const {
  std::map<std::string, CallStats> by_domain;
  for (const auto& kv : by_op_) {
    if (kv.first != nullptr) Merge(&by_domain[kv.first->domain], kv.second);
  }
  return MakeRows(std::move(by_domain));
}

void StatsWriter::WriteCsv(const std::string& path,
                           const std::vector<StatsRow>& rows, bool failed) {
  std::FILE* f = std::fopen(path.c_str(), "w");
  if (f == nullptr) {
    ReportFailure(path, std::strerror(errno));
    return;
  }
  std::fputs(
      "\"Name\",\"Calls\",\"TotalDurationNs\",\"AverageNs\",\"Percentage\","
      "\"MinNs\",\"MaxNs\",\"StdDev\"",
      f);
  std::fputs(failed ? ",\"FailedCalls\"\n" : "\n", f);
  std::string name;
  for (const StatsRow& r : rows) {
    name.clear();
    AppendQuoted(&name, r.name);
    std::fprintf(
        f, "%s,%" PRIu64 ",%" PRIu64 ",%.6g,%.6g,%" PRIu64 ",%" PRIu64 ",%.6g",
        name.c_str(), r.stats.calls, r.stats.total_ns, r.stats.mean,
        r.percentage, r.stats.min_ns, r.stats.max_ns, r.stats.StdDev());
    if (failed) std::fprintf(f, ",%" PRIu64, r.stats.failed);
    std::fputc('\n', f);
  }
  const bool written = !std::ferror(f);
  const int err = errno;
  if (std::fclose(f) != 0 || !written) {
    // A table cut short would read as complete: none rather than that.
    std::remove(path.c_str());
    ReportFailure(path, std::strerror(written ? errno : err));
    return;
  }
  files_.push_back(path);
}

namespace {

// Durations in the summary's unit (-u): nsec, usec, msec or sec.
struct Unit {
  const char* suffix;  // of the column names: TotalDurationNs, ...Us
  double ns;
};

Unit UnitOf(const std::string& name) {
  if (name == "sec") return {"Sec", 1e9};
  if (name == "msec") return {"Ms", 1e6};
  if (name == "usec") return {"Us", 1e3};
  return {"Ns", 1};
}

void PrintTable(std::FILE* out, const char* title,
                const std::vector<StatsRow>& rows, const Unit& unit) {
  if (rows.empty()) return;
  size_t width = 4;
  for (const StatsRow& r : rows) width = std::max(width, r.name.size());
  width = std::min<size_t>(width, 60);
  const std::string u = unit.suffix;
  std::fprintf(out, "\nroctrace summary: %s\n", title);
  std::fprintf(out, "%-*s %10s %16s %12s %8s %12s %12s %12s %8s\n",
               static_cast<int>(width), "Name", "Calls",
               ("TotalDuration" + u).c_str(), ("Average" + u).c_str(),
               "Percent", ("Min" + u).c_str(), ("Max" + u).c_str(), "StdDev",
               "Failed");
  for (const StatsRow& r : rows) {
    const double total = static_cast<double>(r.stats.total_ns) / unit.ns;
    std::fprintf(
        out,
        "%-*.*s %10" PRIu64
        " %16.*f %12.*f %8.2f %12.*f %12.*f "
        "%12.*f %8" PRIu64 "\n",
        static_cast<int>(width), static_cast<int>(width), r.name.c_str(),
        r.stats.calls, unit.ns == 1 ? 0 : 3, total, unit.ns == 1 ? 1 : 4,
        r.stats.mean / unit.ns, r.percentage, unit.ns == 1 ? 0 : 3,
        static_cast<double>(r.stats.min_ns) / unit.ns, unit.ns == 1 ? 0 : 3,
        static_cast<double>(r.stats.max_ns) / unit.ns, unit.ns == 1 ? 1 : 4,
        r.stats.StdDev() / unit.ns, r.stats.failed);
  }
}

}  // namespace

void StatsWriter::Finish(const RunInfo&) {
  static const Category kAll[] = {Category::kHip,
                                  Category::kHsa,
                                  Category::kMarker,
                                  Category::kKernel,
                                  Category::kMemoryCopy,
                                  Category::kScratchMemory,
                                  Category::kMemoryAllocation};
  if (!prefix_.empty()) {
    for (Category c : kAll) {
      std::vector<StatsRow> rows = Table(c);
      // Device tables keep rocprofv3's columns exactly.
      if (!rows.empty()) WriteCsv(prefix_ + StatsSuffix(c), rows, !IsDevice(c));
    }
    std::vector<StatsRow> domains = DomainTable();
    if (!domains.empty()) {
      WriteCsv(prefix_ + "_domain_stats.csv", domains, true);
    }
  }
  if (summary_ || per_domain_ || !groups_.empty()) {
    // stderr, stdout or a file (appended to: several processes may share
    // it).
    std::FILE* out = stderr;
    if (summary_file_ == "stdout") {
      out = stdout;
    } else if (!summary_file_.empty() && summary_file_ != "stderr") {
      out = std::fopen(summary_file_.c_str(), "a");
      if (out == nullptr) {
        ReportFailure(summary_file_, std::strerror(errno));
        return;
      }
    }
    const Unit unit = UnitOf(summary_units_);
    // -S: every operation in one table, and the domains' totals.
    if (summary_) {
      PrintTable(out, "SUMMARY", GroupTable(nullptr), unit);
      PrintTable(out, "DOMAINS", DomainTable(), unit);
    }
    // -D: a table per domain (rocprofv3's kinds: HIP_RUNTIME_API, ...).
    if (per_domain_) {
      std::set<std::string> domains;
      for (const auto& kv : by_op_) {
        if (kv.first != nullptr) domains.insert(kv.first->domain);
      }
      for (const std::string& d : domains) {
        std::vector<StatsRow> rows;
        std::map<std::string, CallStats> by_name;
        for (const auto& kv : by_op_) {
          if (kv.first != nullptr && kv.first->domain == d) {
            Merge(&by_name[kv.first->name], kv.second);
          }
        }
        PrintTable(out, d.c_str(), MakeRows(std::move(by_name)), unit);
      }
    }
    // --summary-groups: a table per regular expression, of the domains it
    // finds.
    for (const std::string& group : groups_) {
      regex_t re;
      if (regcomp(&re, group.c_str(), REG_EXTENDED | REG_NOSUB) != 0) continue;
      PrintTable(out, group.c_str(), GroupTable(&re), unit);
      regfree(&re);
    }
    if (out != stderr && out != stdout) {
      const bool written = !std::ferror(out);
      if (std::fclose(out) != 0 || !written) {
        ReportFailure(summary_file_, std::strerror(errno));
      }
    } else {
      std::fflush(out);
    }
  }
}

}  // namespace roctrace
