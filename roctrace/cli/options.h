// roctrace's command line: rocprofv3's option names, short forms and value
// rules (argparse's: `BOOL` options take an optional true/false word,
// list options take several values), turned into the ROCTRACE_*
// environment the tool library reads.
#ifndef ROCTRACE_CLI_OPTIONS_H_
#define ROCTRACE_CLI_OPTIONS_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace roctrace {

struct Options {
  bool help = false;
  bool version = false;
  // HIP: runtime API (hip*) and compiler-generated calls (__hip*); HSA:
  // core, AMD extension, image and finalizer extension calls.
  bool hip_runtime = false, hip_compiler = false;
  bool hsa_core = false, hsa_amd = false, hsa_image = false,
       hsa_finalizer = false;
  bool marker = false, kernel = false, memory_copy = false,
       memory_allocation = false, scratch_memory = false;
  // --scratch-memory-trace itself (not only implied by --runtime-trace or
  // --sys-trace): a build without scratch events says so on stderr.
  bool scratch_memory_asked = false;
  bool kfd = false;  // --kfd-trace: libhsakmt calls (KFD_API)
  // Tracing options were given but none turned anything on
  // (--sys-trace=False alone): the program runs untraced, as rocprofv3 runs
  // it then.
  bool trace_nothing = false;
  bool stats = false, summary = false;
  bool summary_per_domain = false;          // -D
  std::vector<std::string> summary_groups;  // --summary-groups
  std::string summary_output_file;          // empty: stdout
  std::string summary_units;                // sec, msec, usec, nsec (default)
  // fatal, error, warning, info, trace, env, config (info, trace and config
  // print the configuration at start)
  std::string log_level;
  bool output_config = false;  // --output-config: <prefix>_config.json
  // --disable-signal-handlers: the program's own handlers alone at a crash
  // (no flush of the trace at a fatal signal: ROCTRACER_CRASH_FLUSH=0).
  bool disable_signal_handlers = false;
  // --selected-regions: collection starts paused; only what runs between
  // roctxProfilerResume and roctxProfilerPause is traced.
  bool selected_regions = false;
  std::string output_dir;   // empty: the tool's default
  std::string output_file;  // empty: the tool's default
  std::vector<std::string> formats;
  std::vector<std::string> collection_periods;  // in seconds
  std::string kernel_include_regex, kernel_exclude_regex;
  bool truncate_kernels = false;  // -T/--truncate-kernels
  bool mangled_kernels = false;   // -M/--mangled-kernels
  bool kernel_rename = false;     // --kernel-rename
  bool group_by_queue = false;    // --group-by-queue
  std::string agent_index;        // -A: absolute, relative, type-relative
  std::string buffer_size, perfetto_max_size;
  std::string minimum_output_data;   // KB: a process's smaller outputs go
  std::vector<std::string> preload;  // --preload: before the tracer
  // --sdk-tool: rocprofiler-sdk tool libraries the program loads beside
  // roctrace's own tool (ROCP_TOOL_LIBRARIES), in this order.
  std::vector<std::string> sdk_tools;
  std::vector<std::string> program;  // argv of the traced program
  // Options accepted that have no effect here, said on stderr at start.
  std::vector<std::string> notes;
};

// Parses argv[1..]; false with `*error` set on bad input (the caller prints
// it with the usage and exits 2).
bool ParseOptions(const std::vector<std::string>& args, Options* out,
                  std::string* error);
// The same for a command line whose -i input file may hold several jobs:
// one Options per job (each the command line with that job's options in
// place of -i), run one after the other.
bool ParseJobs(const std::vector<std::string>& args, std::vector<Options>* jobs,
               std::string* error);

// The environment entries (NAME, value) that configure the tool library.
std::vector<std::pair<std::string, std::string>> ToolEnvironment(
    const Options& options);

// --output-config's document: the run's configuration, as the tool's
// environment (ROCTRACE_* = value), the program's pid and command line,
// under "roctrace" (not rocprofv3's "rocprofiler-sdk-tool": the settings
// are roctrace's own).
std::string ConfigurationJson(const Options& options, uint32_t pid);
// Its "config" object alone, on one line: what every traced process is given
// (ROCTRACE_OUTPUT_CONFIG) to write its own document.
std::string ConfigurationObject(const Options& options);

extern const char kUsage[];

}  // namespace roctrace

#endif  // ROCTRACE_CLI_OPTIONS_H_
