// The tool library's settings, read from ROCTRACE_* environment variables
// (what `roctrace` sets, and what a user may set by hand with LD_PRELOAD).
#ifndef ROCTRACE_TOOL_CONFIG_H_
#define ROCTRACE_TOOL_CONFIG_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "roctrace/tool/path_keys.h"

namespace roctrace {

struct CollectionPeriod {
  double delay_s = 0;
  double duration_s = 0;  // 0: until the end
  uint64_t repeat = 1;    // windows of (delay, duration); 0: without end
};

struct Config {
  // rocprofv3's defaults: <cwd>/<hostname>/<pid>_results.db.
  std::string output_dir = ".";
  std::string output_file = "%hostname%/%pid%";
  bool rocpd = true, pftrace = false, csv = false, json = false;
  bool hip = true, hsa = true, marker = true;
  // Parts of the HIP and HSA APIs (rocprofv3's finer options), by the
  // functions' names: HIP runtime hip*, compiler __hip*; HSA core hsa_*,
  // AMD extension hsa_amd_*, image hsa_ext_image_*, finalizer
  // hsa_ext_program_* (and any other hsa_ext_*).
  bool hip_runtime = true, hip_compiler = true;
  bool hsa_core = true, hsa_amd = true, hsa_image = true, hsa_finalizer = true;
  bool kfd = false;  // KFD_API (libhsakmt) calls: only when asked for
  bool kernel = false, memory_copy = false, scratch_memory = false;
  // rocprofv3's --memory-allocation-trace: memory pool allocations and
  // frees (tool/memory_allocations.h).
  bool memory_allocation = false;
  // The traced calls' arguments in the database (rocpd_arg), from
  // ROCTRACE_API_ARGS: `0` none, `hip` the HIP calls' only (rocprofv3's),
  // anything else (or unset) every traced domain's.
  enum class ApiArgs { kNone, kHip, kAll };
  ApiArgs api_args = ApiArgs::kAll;
  bool stats = false, summary = false;
  bool summary_per_domain = false;          // -D
  std::vector<std::string> summary_groups;  // --summary-groups
  // empty or "stderr": stderr; "stdout"; NAME: <prefix>_NAME.txt
  std::string summary_output_file;
  std::string summary_units = "nsec";
  // fatal or error: no exit summary line per process (failures still).
  bool quiet = false;
  size_t buffer_size = 64 * 1024;
  // --minimum-output-data: a process whose outputs hold fewer bytes keeps
  // none of them (0: every output is kept).
  uint64_t minimum_output_bytes = 0;
  uint64_t perfetto_max_size = 512ull << 20;
  std::vector<CollectionPeriod> periods;
  std::string kernel_include_regex, kernel_exclude_regex;
  bool truncate_kernels = false;  // -T
  bool mangled_kernels = false;   // -M: symbol names, not demangled
  bool kernel_rename = false;     // --kernel-rename
  // --group-by-queue: the timeline's kernels and copies per queue and GPU
  // even in a HIP program (else per HIP stream there).
  bool group_by_queue = false;
  std::string agent_index = "relative";  // -A (writers/agent_naming.h)
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

// Whether a time `t_s` seconds after start falls in a collection window.
bool InCollectionWindow(const std::vector<CollectionPeriod>& periods,
                        double t_s);

}  // namespace roctrace

#endif  // ROCTRACE_TOOL_CONFIG_H_
