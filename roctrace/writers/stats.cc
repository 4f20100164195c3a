// GCC 12 at -O1 (the sanitizer builds) reports a false maybe-uninitialized
// inside libstdc++'s <regex> automaton (std::function moved into a state);
// file-wide, since the warning points into headers stats.h already pulls in.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include "roctrace/writers/stats.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <regex>

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
    if (kv.first != nullptr && kv.first->category == category &&
        !IsKfd(*kv.first))
      Merge(&by_name[kv.first->name], kv.second);
  }
  return MakeRows(std::move(by_name));
}

std::vector<StatsRow> StatsWriter::KfdTable() const {
  std::map<std::string, CallStats> by_name;
  for (const auto& kv : by_op_) {
    if (kv.first != nullptr && IsKfd(*kv.first))
      Merge(&by_name[kv.first->name], kv.second);
  }
  return MakeRows(std::move(by_name));
}

const char* StatsWriter::SummaryDomain(const OpName& op) {
  if (op.category == Category::kHsa && IsKfd(op)) return "KFD_API";
  return roctrace::SummaryDomain(op.category);
}

std::string StatsWriter::SummaryPath(const std::string& prefix,
                                     const std::string& name) {
  std::string lower;
  for (char c : name) lower.push_back(static_cast<char>(std::tolower(c)));
  if (name.empty() || lower == "stdout" || lower == "stderr") return lower;
  return prefix + "_" + name + ".txt";
}

std::vector<StatsRow> StatsWriter::DomainTable() const {
  std::map<std::string, CallStats> by_domain;
  for (const auto& kv : by_op_) {
    if (kv.first != nullptr) {
      Merge(&by_domain[SummaryDomain(*kv.first)], kv.second);
    }
  }
  return MakeRows(std::move(by_domain));
}

void StatsWriter::WriteCsv(const std::string& path,
                           const std::vector<StatsRow>& rows) {
  std::string text =
      "\"Name\",\"Calls\",\"TotalDurationNs\",\"AverageNs\",\"Percentage\","
      "\"MinNs\",\"MaxNs\",\"StdDev\"\n";
  char numbers[160];
  for (const StatsRow& r : rows) {
    AppendQuoted(&text, r.name);
    std::snprintf(numbers, sizeof(numbers),
                  ",%" PRIu64 ",%" PRIu64 ",%.6g,%.6g,%" PRIu64 ",%" PRIu64
                  ",%.6g\n",
                  r.stats.calls, r.stats.total_ns, r.stats.mean, r.percentage,
                  r.stats.min_ns, r.stats.max_ns, r.stats.StdDev());
    text += numbers;
  }
  WriteFile(path, text);
}

void StatsWriter::WriteFailuresCsv(const std::string& path) {
  std::string text = "\"Domain\",\"Name\",\"Calls\",\"FailedCalls\"\n";
  char numbers[48];
  for (const char* domain : {"HIP_API", "HSA_API", "KFD_API"}) {
    const std::vector<StatsRow> rows = domain[1] == 'I' ? Table(Category::kHip)
                                       : domain[1] == 'S'
                                           ? Table(Category::kHsa)
                                           : KfdTable();
    for (const StatsRow& r : rows) {
      text += '"';
      text += domain;
      text += "\",";
      AppendQuoted(&text, r.name);
      std::snprintf(numbers, sizeof(numbers), ",%" PRIu64 ",%" PRIu64 "\n",
                    r.stats.calls, r.stats.failed);
      text += numbers;
    }
  }
  WriteFile(path, text);
}

void StatsWriter::WriteFile(const std::string& path, const std::string& text) {
  std::FILE* f = std::fopen(path.c_str(), "w");
  if (f == nullptr) {
    ReportFailure(path, std::strerror(errno));
    return;
  }
  std::fwrite(text.data(), 1, text.size(), f);
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

// rocprofv3's summary domains in its order (domain_type's), then
// roctrace's own.
const char* const kSummaryDomains[] = {
    "HSA_API",     "HIP_API",        "MARKER_API",        "KERNEL_DISPATCH",
    "MEMORY_COPY", "SCRATCH_MEMORY", "MEMORY_ALLOCATION", "KFD_API"};

// One summary domain's operations.
struct DomainOps {
  std::string domain;
  std::map<std::string, CallStats> ops;
};

// A summary table's row: an operation, the first domain it was seen in.
struct SummaryRow {
  std::string name;
  const std::string* domain;
  CallStats stats;
};

// The summary's time unit (-u): its name in the column titles and its
// nanoseconds.
struct Unit {
  std::string name;
  double ns;
};

Unit UnitOf(const std::string& name) {
  if (name == "sec") return {name, 1e9};
  if (name == "msec") return {name, 1e6};
  if (name == "usec") return {name, 1e3};
  return {"nsec", 1};
}

// A double as fmt's "{}" writes it (the shortest text that reads back the
// same; exponent form below 1e-4 and from 1e16), right-aligned in `width`.
std::string Shortest(double v, int width) {
  char buf[64];
  int digits = 1;
  for (; digits < 17; ++digits) {
    std::snprintf(buf, sizeof buf, "%.*e", digits - 1, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  std::snprintf(buf, sizeof buf, "%.*e", digits - 1, v);
  std::string text = buf;
  const size_t e = text.find('e');
  const int exp = std::atoi(text.c_str() + e + 1);
  std::string mantissa = text.substr(0, e);
  const bool negative = mantissa[0] == '-';
  if (negative) mantissa.erase(0, 1);
  std::string ds;  // the significant digits
  for (char c : mantissa) {
    if (c != '.') ds.push_back(c);
  }
  while (ds.size() > 1 && ds.back() == '0') ds.pop_back();
  std::string out;
  if (exp < -4 || exp >= 16) {
    out = ds.substr(0, 1);
    if (ds.size() > 1) out += "." + ds.substr(1);
    char ebuf[16];
    std::snprintf(ebuf, sizeof ebuf, "e%c%02d", exp < 0 ? '-' : '+',
                  exp < 0 ? -exp : exp);
    out += ebuf;
  } else if (exp < 0) {
    out = "0." + std::string(static_cast<size_t>(-exp - 1), '0') + ds;
  } else if (static_cast<int>(ds.size()) <= exp + 1) {
    out = ds + std::string(static_cast<size_t>(exp + 1) - ds.size(), '0');
  } else {
    out = ds.substr(0, static_cast<size_t>(exp + 1)) + "." +
          ds.substr(static_cast<size_t>(exp + 1));
  }
  if (negative) out = "-" + out;
  if (static_cast<int>(out.size()) < width) {
    out.insert(0, static_cast<size_t>(width) - out.size(), ' ');
  }
  return out;
}

std::string Centered(const std::string& text, size_t width) {
  if (text.size() >= width) return text;
  const size_t left = (width - text.size()) / 2;
  return std::string(left, ' ') + text +
         std::string(width - text.size() - left, ' ');
}

// One table of rocprofv3's summary layout ("ROCPROFV3 <label>:", a pipe
// table with a DOMAIN column) of the operations of `domains`, longest
// total first; nothing when they have no events.
void PrintSummary(std::FILE* out, const std::string& label,
                  const std::vector<const DomainOps*>& domains,
                  const Unit& unit, const char* indent) {
  std::vector<SummaryRow> rows;
  std::map<std::string, size_t> row_of;
  size_t name_width = 40, domain_width = 12;
  uint64_t total = 0;
  for (const DomainOps* d : domains) {
    domain_width = std::max(domain_width, d->domain.size());
    for (const auto& kv : d->ops) {
      auto it = row_of.find(kv.first);
      if (it == row_of.end()) {
        it = row_of.emplace(kv.first, rows.size()).first;
        rows.push_back({kv.first, &d->domain, CallStats()});
      }
      Merge(&rows[it->second].stats, kv.second);
      total += kv.second.total_ns;
      name_width = std::max(name_width, kv.first.size());
    }
  }
  if (rows.empty()) return;
  std::stable_sort(rows.begin(), rows.end(),
                   [](const SummaryRow& a, const SummaryRow& b) {
                     return a.stats.total_ns > b.stats.total_ns;
                   });
  const std::string u = " (" + unit.name + ")";
  std::fprintf(out, "\n%sROCPROFV3 %s:\n\n", indent, label.c_str());
  std::fprintf(
      out, "%s| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", indent,
      Centered("NAME", name_width).c_str(),
      Centered("DOMAIN", domain_width).c_str(), Centered("CALLS", 15).c_str(),
      Centered("DURATION" + u, 15).c_str(), Centered("AVERAGE" + u, 15).c_str(),
      Centered("PERCENT (INC)", 13).c_str(), Centered("MIN" + u, 15).c_str(),
      Centered("MAX" + u, 15).c_str(), Centered("STDDEV", 15).c_str());
  const std::string dash15(15, '-');
  std::fprintf(out, "%s|-%s-|-%s-|-%s-|-%s-|-%s-|-%s-|-%s-|-%s-|-%s-|\n",
               indent, std::string(name_width, '-').c_str(),
               std::string(domain_width, '-').c_str(), dash15.c_str(),
               dash15.c_str(), dash15.c_str(), std::string(13, '-').c_str(),
               dash15.c_str(), dash15.c_str(), dash15.c_str());
  for (const SummaryRow& r : rows) {
    const double percent = total == 0
                               ? 0.0
                               : 100.0 * static_cast<double>(r.stats.total_ns) /
                                     static_cast<double>(total);
    std::string duration, min, max;
    if (unit.ns == 1) {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%15" PRIu64, r.stats.total_ns);
      duration = buf;
      std::snprintf(buf, sizeof buf, "%15" PRIu64, r.stats.min_ns);
      min = buf;
      std::snprintf(buf, sizeof buf, "%15" PRIu64, r.stats.max_ns);
      max = buf;
    } else {
      duration = Shortest(static_cast<double>(r.stats.total_ns) / unit.ns, 15);
      min = Shortest(static_cast<double>(r.stats.min_ns) / unit.ns, 15);
      max = Shortest(static_cast<double>(r.stats.max_ns) / unit.ns, 15);
    }
    std::fprintf(out,
                 "%s| %-*s | %-*s | %15" PRIu64
                 " | %s | %15.3e | %13f | %s | %s | %15.3e |\n",
                 indent, static_cast<int>(name_width), r.name.c_str(),
                 static_cast<int>(domain_width), r.domain->c_str(),
                 r.stats.calls, duration.c_str(), r.stats.mean / unit.ns,
                 percent, min.c_str(), max.c_str(), r.stats.StdDev() / unit.ns);
  }
  std::fputc('\n', out);
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
      if (!rows.empty()) WriteCsv(prefix_ + StatsSuffix(c), rows);
    }
    // libhsakmt calls (--kfd-trace) beside their trace file: rocprofv3's
    // _hsa_api_stats.csv counts HSA calls only.
    std::vector<StatsRow> kfd = KfdTable();
    if (!kfd.empty()) WriteCsv(prefix_ + "_kfd_api_stats.csv", kfd);
    std::vector<StatsRow> domains = DomainTable();
    if (!domains.empty()) WriteCsv(prefix_ + "_domain_stats.csv", domains);
    // Failed calls in roctrace's own file: rocprofv3's stats tables keep
    // exactly its columns.
    if (!Table(Category::kHip).empty() || !Table(Category::kHsa).empty() ||
        !kfd.empty()) {
      WriteFailuresCsv(prefix_ + "_api_failures.csv");
    }
  }
  if (summary_ || per_domain_ || !groups_.empty()) {
    // The standard output, or a file of this process's (replaced). As
    // rocprofv3 1.0.0's, "stderr" (its default) is the standard output too.
    std::FILE* out = stdout;
    if (!summary_file_.empty() && summary_file_ != "stdout" &&
        summary_file_ != "stderr") {
      // A NAME with directories in it (as rocprofv3, made as needed).
      for (size_t at = summary_file_.find('/', 1); at != std::string::npos;
           at = summary_file_.find('/', at + 1)) {
        mkdir(summary_file_.substr(0, at).c_str(), 0777);
      }
      out = std::fopen(summary_file_.c_str(), "w");
      if (out == nullptr) {
        ReportFailure(summary_file_, std::strerror(errno));
        return;
      }
    }
    // As rocprofv3: a terminal's tables indented, a file's not.
    const char* indent = out == stdout ? "    " : "";
    const Unit unit = UnitOf(summary_units_);
    // The domains with events, in rocprofv3's order.
    std::vector<DomainOps> domains;
    for (const char* name : kSummaryDomains) {
      DomainOps d{name, {}};
      for (const auto& kv : by_op_) {
        if (kv.first != nullptr && d.domain == SummaryDomain(*kv.first)) {
          Merge(&d.ops[kv.first->name], kv.second);
        }
      }
      if (!d.ops.empty()) domains.push_back(std::move(d));
    }
    // rocprofv3's order: -D's tables, the groups', then -S's.
    if (per_domain_) {
      for (const DomainOps& d : domains) {
        PrintSummary(out, d.domain + " SUMMARY", {&d}, unit, indent);
      }
    }
    for (const std::string& group : groups_) {
      std::vector<const DomainOps*> matched;
      std::string names;
      try {
        const std::regex re(group);
        for (const DomainOps& d : domains) {
          if (!std::regex_match(d.domain, re)) continue;
          matched.push_back(&d);
          names += (names.empty() ? "" : " + ") + d.domain;
        }
      } catch (const std::regex_error&) {
        // Refused by the command line before the program ran.
      }
      if (matched.empty()) {
        std::string traced;
        for (const DomainOps& d : domains) {
          traced += (traced.empty() ? "" : ", ") + d.domain;
        }
        std::fprintf(stderr,
                     "roctrace: pid %d: --summary-groups '%s' matches no "
                     "domain with events (the whole name must match; "
                     "domains: %s)\n",
                     static_cast<int>(getpid()), group.c_str(),
                     traced.empty() ? "none" : traced.c_str());
        continue;
      }
      PrintSummary(out, names + " SUMMARY", matched, unit, indent);
    }
    if (summary_) {
      std::vector<const DomainOps*> all;
      for (const DomainOps& d : domains) all.push_back(&d);
      PrintSummary(out, "SUMMARY", all, unit, indent);
    }
    if (out != stdout) {
      const bool written = !std::ferror(out);
      if (std::fclose(out) != 0 || !written) {
        ReportFailure(summary_file_, std::strerror(errno));
      } else {
        files_.push_back(summary_file_);
      }
    } else {
      std::fflush(out);
    }
  }
}

}  // namespace roctrace
