#include "roctrace/tool/config.h"

#include <unistd.h>

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <sstream>
#include <utility>

namespace roctrace {
namespace {

std::vector<std::string> Split(const std::string& text, char sep) {
  std::vector<std::string> out;
  std::string item;
  std::istringstream in(text);
  while (std::getline(in, item, sep)) {
    if (!item.empty()) out.push_back(item);
  }
  return out;
}

bool ParseDouble(const std::string& text, double* out) {
  if (text.empty()) return false;
  char* end = nullptr;
  double v = std::strtod(text.c_str(), &end);
  if (*end != '\0' || !(v >= 0) || std::isinf(v)) return false;
  *out = v;
  return true;
}

}  // namespace

bool ParseSize(const std::string& text, uint64_t* out) {
  if (text.empty() || text[0] < '0' || text[0] > '9') return false;
  char* end = nullptr;
  unsigned long long v = std::strtoull(text.c_str(), &end, 10);
  std::string suffix(end);
  for (char& c : suffix) c = static_cast<char>(std::toupper(c));
  uint64_t scale = 1;
  if (suffix.empty() || suffix == "B") {
    scale = 1;
  } else if (suffix == "K" || suffix == "KB" || suffix == "KIB") {
    scale = 1ull << 10;
  } else if (suffix == "M" || suffix == "MB" || suffix == "MIB") {
    scale = 1ull << 20;
  } else if (suffix == "G" || suffix == "GB" || suffix == "GIB") {
    scale = 1ull << 30;
  } else {
    return false;
  }
  if (v > UINT64_MAX / scale) return false;
  *out = v * scale;
  return true;
}

bool ParseCollectionPeriod(const std::string& text, CollectionPeriod* out) {
  std::vector<std::string> parts;
  std::string item;
  std::istringstream in(text);
  while (std::getline(in, item, ':')) parts.push_back(item);
  if (parts.size() != 3) return false;
  CollectionPeriod p;
  double repeat = 0;
  if (!ParseDouble(parts[0], &p.delay_s) ||
      !ParseDouble(parts[1], &p.duration_s) ||
      !ParseDouble(parts[2], &repeat) || repeat != std::floor(repeat)) {
    return false;
  }
  p.repeat = static_cast<uint64_t>(repeat);
  *out = p;
  return true;
}

bool InCollectionWindow(const std::vector<CollectionPeriod>& periods,
                        double t) {
  if (periods.empty()) return true;
  // Periods run one after the other, as rocprofv3 runs them.
  double base = 0;
  for (const CollectionPeriod& p : periods) {
    double cycle = p.delay_s + p.duration_s;
    if (p.duration_s == 0) return t >= base + p.delay_s;
    if (p.repeat == 0) {
      if (t < base) return false;
      double phase = std::fmod(t - base, cycle);
      return phase >= p.delay_s;
    }
    double end = base + cycle * static_cast<double>(p.repeat);
    if (t < end) {
      if (t < base) return false;
      return std::fmod(t - base, cycle) >= p.delay_s;
    }
    base = end;
  }
  return false;
}

Config ReadConfig(const std::function<const char*(const char*)>& getenv,
                  std::vector<std::string>* warnings) {
  Config c;
  auto get = [&](const char* name) -> std::string {
    const char* v = getenv(name);
    return v != nullptr ? v : "";
  };
  if (!get("ROCTRACE_OUTPUT_DIR").empty())
    c.output_dir = get("ROCTRACE_OUTPUT_DIR");
  if (!get("ROCTRACE_OUTPUT_FILE").empty())
    c.output_file = get("ROCTRACE_OUTPUT_FILE");
  std::string formats = get("ROCTRACE_OUTPUT_FORMAT");
  if (!formats.empty()) {
    c.rocpd = false;
    for (const std::string& f : Split(formats, ',')) {
      if (f == "rocpd")
        c.rocpd = true;
      else if (f == "pftrace")
        c.pftrace = true;
      else if (f == "csv")
        c.csv = true;
      else if (f == "json")
        c.json = true;
      else
        warnings->push_back("unknown output format '" + f + "'");
    }
  }
  std::string domains = get("ROCTRACE_DOMAINS");
  if (!domains.empty()) {
    c.hip = c.hsa = c.marker = false;
    c.hip_runtime = c.hip_compiler = false;
    c.hsa_core = c.hsa_amd = c.hsa_image = c.hsa_finalizer = false;
    for (const std::string& d : Split(domains, ',')) {
      if (d == "hip")
        c.hip = c.hip_runtime = c.hip_compiler = true;
      else if (d == "hip_runtime")
        c.hip = c.hip_runtime = true;
      else if (d == "hip_compiler")
        c.hip = c.hip_compiler = true;
      else if (d == "hsa")
        c.hsa = c.hsa_core = c.hsa_amd = c.hsa_image = c.hsa_finalizer = true;
      else if (d == "hsa_core")
        c.hsa = c.hsa_core = true;
      else if (d == "hsa_amd")
        c.hsa = c.hsa_amd = true;
      else if (d == "hsa_image")
        c.hsa = c.hsa_image = true;
      else if (d == "hsa_finalizer")
        c.hsa = c.hsa_finalizer = true;
      else if (d == "kfd")
        c.kfd = true;
      else if (d == "marker")
        c.marker = true;
      else if (d == "kernel")
        c.kernel = true;
      else if (d == "memory_copy")
        c.memory_copy = true;
      else if (d == "memory_allocation")
        c.memory_allocation = true;
      else if (d == "scratch_memory")
        c.scratch_memory = true;
      else
        warnings->push_back("unknown domain '" + d + "'");
    }
  }
  const std::string api_args = get("ROCTRACE_API_ARGS");
  c.api_args = api_args == "0"     ? Config::ApiArgs::kNone
               : api_args == "hip" ? Config::ApiArgs::kHip
                                   : Config::ApiArgs::kAll;
  c.stats = get("ROCTRACE_STATS") == "1";
  c.summary = get("ROCTRACE_SUMMARY") == "1";
  c.summary_per_domain = get("ROCTRACE_SUMMARY_PER_DOMAIN") == "1";
  c.summary_groups = Split(get("ROCTRACE_SUMMARY_GROUPS"), '\n');
  c.summary_output_file = get("ROCTRACE_SUMMARY_OUTPUT_FILE");
  const std::string units = get("ROCTRACE_SUMMARY_UNITS");
  if (units == "sec" || units == "msec" || units == "usec" || units == "nsec") {
    c.summary_units = units;
  } else if (!units.empty()) {
    warnings->push_back(
        "ROCTRACE_SUMMARY_UNITS must be sec, msec, usec or "
        "nsec");
  }
  const std::string level = get("ROCTRACE_LOG_LEVEL");
  c.quiet = level == "fatal" || level == "error";
  uint64_t size = 0;
  if (!get("ROCTRACE_BUFFER_SIZE").empty()) {
    if (ParseSize(get("ROCTRACE_BUFFER_SIZE"), &size) && size >= 4096 &&
        size <= (1ull << 30)) {
      c.buffer_size = size;
    } else {
      warnings->push_back("ROCTRACE_BUFFER_SIZE must be 4K..1G");
    }
  }
  if (!get("ROCTRACE_PERFETTO_MAX_SIZE").empty()) {
    if (ParseSize(get("ROCTRACE_PERFETTO_MAX_SIZE"), &size)) {
      c.perfetto_max_size = size;
    } else {
      warnings->push_back("bad ROCTRACE_PERFETTO_MAX_SIZE");
    }
  }
  for (const std::string& p : Split(get("ROCTRACE_COLLECTION_PERIOD"), ';')) {
    CollectionPeriod period;
    if (ParseCollectionPeriod(p, &period)) {
      c.periods.push_back(period);
    } else {
      warnings->push_back("bad collection period '" + p + "'");
    }
  }
  const std::string minimum = get("ROCTRACE_MINIMUM_OUTPUT_KB");
  if (!minimum.empty()) {
    if (minimum.size() <= 12 &&
        minimum.find_first_not_of("0123456789") == std::string::npos) {
      c.minimum_output_bytes = std::stoull(minimum) * 1024;
    } else {
      warnings->push_back("ROCTRACE_MINIMUM_OUTPUT_KB must be a number");
    }
  }
  c.truncate_kernels = get("ROCTRACE_TRUNCATE_KERNELS") == "1";
  c.mangled_kernels = get("ROCTRACE_MANGLED_KERNELS") == "1";
  c.kernel_rename = get("ROCTRACE_KERNEL_RENAME") == "1";
  c.group_by_queue = get("ROCTRACE_GROUP_BY_QUEUE") == "1";
  const std::string agent_index = get("ROCTRACE_AGENT_INDEX");
  if (agent_index == "absolute" || agent_index == "relative" ||
      agent_index == "type-relative") {
    c.agent_index = agent_index;
  } else if (!agent_index.empty()) {
    warnings->push_back(
        "ROCTRACE_AGENT_INDEX must be absolute, relative or "
        "type-relative");
  }
  c.kernel_include_regex = get("ROCTRACE_KERNEL_INCLUDE_REGEX");
  c.kernel_exclude_regex = get("ROCTRACE_KERNEL_EXCLUDE_REGEX");
  return c;
}

}  // namespace roctrace
