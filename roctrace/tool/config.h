// The tool library's settings, read from ROCTRACE_* environment variables
// (what `roctrace` sets, and what a user may set by hand with LD_PRELOAD).
#ifndef ROCTRACE_TOOL_CONFIG_H_
#define ROCTRACE_TOOL_CONFIG_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace roctrace {

struct CollectionPeriod {
  double delay_s = 0;
  double duration_s = 0;  // 0: until the end
  uint64_t repeat = 1;    // windows of (delay, duration); 0: without end
};

struct Config {
  std::string output_dir = "%hostname%/%pid%";
  std::string output_file = "%pid%";
  bool rocpd = true, pftrace = false, csv = false, json = false;
  bool hip = true, hsa = true, marker = true;
  bool kfd = false;  // KFD_API (libhsakmt) calls: only when asked for
  bool kernel = false, memory_copy = false, scratch_memory = false;
  bool stats = false, summary = false;
  size_t buffer_size = 64 * 1024;
  uint64_t perfetto_max_size = 512ull << 20;
  std::vector<CollectionPeriod> periods;
  std::string kernel_include_regex, kernel_exclude_regex;
};

// Reads the environment through `getenv` (a parameter so tests can feed a
// map). Unknown values fall back to the defaults and are reported in
// `*warnings`.
Config ReadConfig(const std::function<const char*(const char*)>& getenv,
                  std::vector<std::string>* warnings);

// Parses "start:duration:repeat" (seconds; repeat 0 = without end).
bool ParseCollectionPeriod(const std::string& text, CollectionPeriod* out);

// Parses a size: bytes, or with a K/M/G suffix (KB/MB/GB, KiB/MiB/GiB all
// mean powers of 1024).
bool ParseSize(const std::string& text, uint64_t* out);

// Expands rocprofv3's path keys: %pid%, %ppid%, %hostname%, %rank% (from
// the MPI / Slurm environment, 0 when none), %env{NAME}%. Unknown keys are
// kept as written.
std::string ExpandPathKeys(
    const std::string& pattern, uint32_t pid, uint32_t ppid,
    const std::string& hostname,
    const std::function<const char*(const char*)>& getenv);

// Whether a time `t_s` seconds after start falls in a collection window.
bool InCollectionWindow(const std::vector<CollectionPeriod>& periods,
                        double t_s);

}  // namespace roctrace

#endif  // ROCTRACE_TOOL_CONFIG_H_
