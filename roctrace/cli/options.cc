// GCC 12 at -O1 (the sanitizer builds) reports a false maybe-uninitialized
// inside libstdc++'s <regex> automaton (std::function moved into a state);
// file-wide, since the warning points into headers options.h already pulls
// in.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include "roctrace/cli/options.h"

#include <cctype>
#include <functional>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <optional>
#include <regex>
#include <sstream>

#include "roctrace/cli/input_file.h"
#include "roctrace/tool/config.h"
#include "roctrace/tool/config_document.h"
#include "roctrace/tool/kernel_filter.h"
#include "roctrace/writers/agent_naming.h"

namespace roctrace {

const char kUsage[] =
    "usage: roctrace [options] -- program [args...]\n"
    "       roctrace merge -o OUTPUT.db INPUT.db [INPUT.db...]\n"
    "\n"
    "Runs program with the tracer injected and writes a trace of its API\n"
    "calls (rocprofv3's options, names and outputs). Options marked BOOL\n"
    "take an optional value (true/false, yes/no, on/off, 1/0).\n"
    "\n"
    "tracing (no tracing option: --sys-trace; options that turn nothing\n"
    "on, as --sys-trace=False alone: nothing traced):\n"
    "  --hip-trace             HIP API calls (runtime and compiler)\n"
    "  --hip-runtime-trace     HIP runtime API calls (hip*)\n"
    "  --hip-compiler-trace    HIP compiler-generated calls (__hip*)\n"
    "  --hsa-trace             HSA API calls (core, AMD, image, finalizer)\n"
    "  --hsa-core-trace, --hsa-amd-trace, --hsa-image-trace,\n"
    "  --hsa-finalizer-trace   one part of the HSA API each\n"
    "  --kfd-trace             KFD (libhsakmt) API calls (roctrace's meaning)\n"
    "  --marker-trace          rocTX ranges and marks\n"
    "  --kernel-trace          kernel dispatches\n"
    "  --memory-copy-trace     memory copies\n"
    "  --memory-allocation-trace  memory pool allocations and frees (HSA)\n"
    "  --scratch-memory-trace  scratch memory (ROCm >= 6.1 headers)\n"
    "  -r, --runtime-trace     HIP runtime, markers, kernels, copies, scratch\n"
    "  -s, --sys-trace         --runtime-trace plus HIP compiler and HSA\n"
    "  --stats                 per-function statistics CSVs\n"
    "  -S, --summary           print every operation's statistics at exit\n"
    "  -D, --summary-per-domain  one table per domain\n"
    "  --summary-groups RE...  one table per regex, of the domains it finds\n"
    "  --summary-output-file FILE|stdout|stderr  (default stderr; both\n"
    "                               names print on the standard output)\n"
    "  -u, --summary-units sec|msec|usec|nsec    (default nsec)\n"
    "output:\n"
    "  -d, --output-directory DIR   (default: the current directory)\n"
    "  -o, --output-file PREFIX     (default %hostname%/%pid%); keys: %pid%\n"
    "                               %ppid% %pgid% %psid% %psize% %hostname%\n"
    "                               %rank% %size% %nid% %job% %cwd% %tag%\n"
    "                               %argv% %args% %argt% %arg<N>%\n"
    "                               %launch_date% %launch_time% %env{NAME}%\n"
    "                               $env{NAME} %q{NAME}; {key} as %key%;\n"
    "                               %h %p %j %r %s\n"
    "  -f, --output-format FMT...   rocpd pftrace csv json (default rocpd)\n"
    "  --perfetto-max-size SIZE     split .pftrace files at SIZE (default "
    "512M)\n"
    "  --buffer-size SIZE           trace buffer size (default 64K)\n"
    "  --minimum-output-data KB     keep a process's outputs only when they\n"
    "                               hold at least KB kilobytes\n"
    "  -P, --collection-period START:DURATION:REPEAT...  repeat 0 = on\n"
    "  --collection-period-unit hour|min|sec|msec|usec|nsec  (default sec)\n"
    "  --kernel-include-regex RE, --kernel-exclude-regex RE  (filter the\n"
    "                               kernel trace)\n"
    "  -T, --truncate-kernels       kernels named by their function alone\n"
    "  -M, --mangled-kernels        kernels named by their symbol, not\n"
    "                               demangled\n"
    "  --kernel-rename              kernels named by the rocTX range pushed\n"
    "                               around the call that launched them\n"
    "  --group-by-queue             (the timeline's GPU tracks are per queue)\n"
    "  -A, --agent-index relative|absolute|type-relative   agent names\n"
    "                               (Agent N by position, default; Agent N\n"
    "                               by KFD node; GPU n / CPU n)\n"
    "  --log-level fatal|error|warning|info|trace|env|config  (info, trace,\n"
    "                               config: the configuration on stderr)\n"
    "  --output-config              the configuration in PREFIX_config.json\n"
    "  --selected-regions           trace only between roctxProfilerResume\n"
    "                               and roctxProfilerPause (starts paused)\n"
    "  --disable-signal-handlers    no flush at a crash: the program's own\n"
    "                               signal handlers alone\n"
    "  --rocm-root, --sdk-version, --sdk-soversion  accepted, no effect\n"
    "  --preload LIB...             libraries to preload before the tracer\n"
    "  --sdk-tool LIB...            rocprofiler-sdk tools to run beside\n"
    "                               roctrace (ROCP_TOOL_LIBRARIES)\n"
    "  -i, --input FILE             options from rocprofv3's input file "
    "(JSON,\n"
    "                               .yaml): {\"jobs\": [{\"kernel_trace\": "
    "true}]}\n"
    "  -h, --help, -v, --version\n"
    "\n"
    "rocprofv3's counter, PC sampling and thread trace options (--pmc,\n"
    "-E/--extra-counters, --pc-sampling-*, --att*, -L) need AMD's GPU\n"
    "libraries, and -f otf2 is not written: refused.\n";

namespace {

const char* const kFormats[] = {"rocpd", "pftrace", "csv", "json"};

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(c));
  return s;
}

bool IsFormat(const std::string& s) {
  for (const char* f : kFormats) {
    if (Lower(s) == f) return true;
  }
  return false;
}

// rocprofv3's formats: roctrace's and otf2 (refused by name).
bool IsRocprofv3Format(const std::string& s) {
  return IsFormat(s) || Lower(s) == "otf2";
}

// "csv" or "csv,json": an argument that continues a format list.
bool IsFormatList(const std::string& s) {
  std::istringstream in(s);
  std::string f;
  bool any = false;
  while (std::getline(in, f, ',')) {
    if (!IsRocprofv3Format(f)) return false;
    any = true;
  }
  return any;
}

// Python's strtobool, as rocprofv3's BOOL options read their value.
bool ParseBool(const std::string& text, bool* out) {
  const std::string s = Lower(text);
  for (const char* t : {"y", "yes", "t", "true", "on", "1"}) {
    if (s == t) {
      *out = true;
      return true;
    }
  }
  for (const char* f : {"n", "no", "f", "false", "off", "0"}) {
    if (s == f) {
      *out = false;
      return true;
    }
  }
  return false;
}

// Options that need AMD's GPU libraries (counters, PC sampling, thread
// trace) or trace a library roctrace has no tracer for: known by name, so
// that they are refused with a reason instead of "unknown option".
struct Refused {
  const char* prefix;  // an option name, or a family's prefix ("--att")
  bool family;
  const char* why;
};
const Refused kRefused[] = {
    {"--pmc", false, "hardware counters need AMD's GPU libraries"},
    {"-E", false, "hardware counters need AMD's GPU libraries"},
    {"--extra-counters", false, "hardware counters need AMD's GPU libraries"},
    {"-L", false, "hardware counters need AMD's GPU libraries"},
    {"--list-avail", false, "hardware counters need AMD's GPU libraries"},
    {"--list-metrics", false, "hardware counters need AMD's GPU libraries"},
    {"--kernel-iteration-range", false,
     "counter collection needs AMD's GPU libraries"},
    {"--pc-sampling", true, "PC sampling needs AMD's GPU libraries"},
    {"--att", true, "thread trace needs AMD's GPU libraries"},
    {"--advanced-thread-trace", false,
     "thread trace needs AMD's GPU libraries"},
    {"--rccl-trace", false, "roctrace has no RCCL tracer"},
    {"--kokkos-trace", false, "roctrace has no Kokkos tracer"},
    {"--rocdecode-trace", false, "roctrace has no rocDecode tracer"},
    {"--rocjpeg-trace", false, "roctrace has no rocJPEG tracer"},
};

const Refused* FindRefused(const std::string& name) {
  for (const Refused& r : kRefused) {
    const std::string p = r.prefix;
    if (name == p || (r.family && name.compare(0, p.size(), p) == 0)) {
      return &r;
    }
  }
  return nullptr;
}

// --collection-period-unit's scale to seconds.
bool UnitSeconds(const std::string& unit, double* scale) {
  const std::pair<const char*, double> units[] = {
      {"hour", 3600}, {"min", 60},    {"sec", 1},
      {"msec", 1e-3}, {"usec", 1e-6}, {"nsec", 1e-9}};
  for (const auto& u : units) {
    if (unit == u.first) {
      *scale = u.second;
      return true;
    }
  }
  return false;
}

std::string Seconds(double v) {
  std::ostringstream out;
  out.precision(17);
  out << v;
  return out.str();
}

// `options_end`, where given: the index of the "--" or of the program's
// first word that ends the options (args.size() if parsing stopped sooner).
bool ParseOneJob(const std::vector<std::string>& args, Options* o,
                 std::string* error, size_t* options_end = nullptr);

// -i/--input FILE (before the program) replaced by a job's options, in its
// place (options after it override its values): one argument list per job
// (a file of k jobs makes k of them).
bool ExpandInputFiles(const std::vector<std::string>& given,
                      std::vector<std::vector<std::string>>* out,
                      std::string* error) {
  out->assign(1, {});
  // Where the options end, as a job's parser finds it (it knows which
  // options take a value: `-d out -i FILE app`): an -i among the program's
  // own arguments is the program's. A line the parser refuses is refused
  // again, with its message, when its jobs are parsed.
  size_t options_end = given.size();
  {
    Options scratch;
    std::string ignored;
    ParseOneJob(given, &scratch, &ignored, &options_end);
  }
  for (size_t i = 0; i < given.size(); ++i) {
    const std::string& arg = given[i];
    if (i == options_end) {
      for (auto& job : *out) {
        job.insert(job.end(), given.begin() + static_cast<long>(i),
                   given.end());
      }
      return true;
    }
    std::string path;
    if (arg == "-i" || arg == "--input") {
      if (i + 1 == given.size()) {
        *error = "option " + arg + " needs a value";
        return false;
      }
      path = given[++i];
    } else if (arg.compare(0, 8, "--input=") == 0) {
      path = arg.substr(8);
    } else if (arg.compare(0, 2, "-i") == 0) {
      path = arg.substr(2);
    } else {
      for (auto& job : *out) job.push_back(arg);
      continue;
    }
    std::vector<std::vector<std::string>> jobs;
    if (!ReadInputFile(path, &jobs, error)) return false;
    std::vector<std::vector<std::string>> expanded;
    for (const auto& before : *out) {
      for (const auto& job : jobs) {
        expanded.push_back(before);
        expanded.back().insert(expanded.back().end(), job.begin(), job.end());
      }
    }
    *out = std::move(expanded);
  }
  return true;
}

}  // namespace

bool ParseJobs(const std::vector<std::string>& given,
               std::vector<Options>* jobs, std::string* error) {
  std::vector<std::vector<std::string>> expanded;
  if (!ExpandInputFiles(given, &expanded, error)) return false;
  for (const auto& args : expanded) {
    Options o;
    if (!ParseOneJob(args, &o, error)) return false;
    jobs->push_back(std::move(o));
  }
  // Several jobs: each writes to pass_1/, pass_2/, ... of its output
  // directory (rocprofv3's sub_directory), so that no job replaces
  // another's files.
  if (jobs->size() > 1) {
    for (size_t j = 0; j < jobs->size(); ++j) {
      std::string& dir = (*jobs)[j].output_dir;
      dir = (dir.empty() ? std::string() : dir + "/") + "pass_" +
            std::to_string(j + 1);
    }
  }
  return true;
}

bool ParseOptions(const std::vector<std::string>& given, Options* o,
                  std::string* error) {
  std::vector<Options> jobs;
  if (!ParseJobs(given, &jobs, error)) return false;
  if (jobs.size() != 1) {
    *error = std::to_string(jobs.size()) + " jobs where one is wanted";
    return false;
  }
  *o = std::move(jobs[0]);
  return true;
}

namespace {

bool ParseOneJob(const std::vector<std::string>& args, Options* o,
                 std::string* error, size_t* options_end) {
  size_t i = 0;
  if (options_end != nullptr) *options_end = args.size();
  bool has_separator = false;
  for (const std::string& a : args) has_separator |= a == "--";
  // The tracing options as given: unset, or set true or false (the last
  // one given wins). -r, -s, --hip-trace and --hsa-trace then turn on only
  // the parts left unset, as rocprofv3 does, so that an explicit false
  // holds wherever it stands on the line.
  std::optional<bool> sys_trace, runtime_trace, hip_trace, hsa_trace,
      hip_runtime, hip_compiler, hsa_core, hsa_amd, hsa_image, hsa_finalizer,
      marker, kernel, memory_copy, memory_allocation, scratch_memory, kfd;
  std::vector<std::string> periods;  // as given, in --collection-period-unit
  std::string period_unit = "sec";
  // The value of option `name`: --name=value, -Xvalue, or the next
  // argument, which must not look like an option (argparse's rule: `-o --`
  // is a missing value, not a prefix named "--").
  auto value = [&](const std::string& name, const std::string& arg,
                   std::string* out) {
    if (arg.size() > name.size()) {
      *out = arg.substr(name.size() + (arg[name.size()] == '=' ? 1 : 0));
    } else if (i + 1 < args.size() &&
               (args[i + 1].empty() || args[i + 1][0] != '-')) {
      *out = args[++i];
    } else {
      *error = "option " + name + " needs a value";
      return false;
    }
    if (out->empty()) {
      *error = "option " + name + " needs a value";
      return false;
    }
    return true;
  };
  // A list option's values: the first as `value` takes it, then every
  // following argument that `more` accepts.
  auto values = [&](const std::string& name, const std::string& arg,
                    const std::function<bool(const std::string&)>& more,
                    std::vector<std::string>* out) {
    std::string first;
    if (!value(name, arg, &first)) return false;
    out->push_back(first);
    while (i + 1 < args.size() && args[i + 1] != "--" && more(args[i + 1])) {
      out->push_back(args[++i]);
    }
    return true;
  };
  // A BOOL option: alone it means true; a following true/false word (or
  // --name=word) is its value.
  auto flag = [&](const std::string& name, const std::string& arg, bool* out) {
    if (arg.size() > name.size()) {
      // --name=word, or -Xword for a short option (-s0).
      const std::string word =
          arg.substr(name.size() + (arg[name.size()] == '=' ? 1 : 0));
      if (!ParseBool(word, out)) {
        *error = "option " + name + ": '" + word +
                 "' is not a BOOL (true/false, yes/no, on/off, 1/0)";
        return false;
      }
      return true;
    }
    *out = true;
    bool given;
    if (i + 1 < args.size() && ParseBool(args[i + 1], &given)) {
      *out = given;
      ++i;
    }
    return true;
  };
  for (; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--") {
      if (options_end != nullptr) *options_end = i;
      ++i;
      break;
    }
    if (arg.empty() || arg[0] != '-' || arg == "-") {  // the program
      if (options_end != nullptr) *options_end = i;
      break;
    }
    // The option's name: up to '=' for long options; a short option is its
    // first two characters (-d DIR, -dDIR).
    std::string name = arg.compare(0, 2, "--") == 0
                           ? arg.substr(0, arg.find('='))
                           : arg.substr(0, 2);
    bool on = false;
    auto boolean = [&](std::initializer_list<bool*> targets) {
      if (!flag(name, arg, &on)) return false;
      for (bool* t : targets) *t = on;
      return true;
    };
    auto given = [&](std::optional<bool>* target) {
      if (!flag(name, arg, &on)) return false;
      *target = on;
      return true;
    };
    bool ok = true;
    if (name == "-h" || name == "--help") {
      o->help = true;
    } else if (name == "-i" || name == "--input") {
      // Met only while finding where the options end (ExpandInputFiles
      // replaces each by its jobs' options before a job is parsed).
      std::string path;
      ok = value(name, arg, &path);
    } else if (name == "-v" || name == "--version") {
      o->version = true;
    } else if (name == "--hip-trace") {
      ok = given(&hip_trace);
    } else if (name == "--hip-runtime-trace") {
      ok = given(&hip_runtime);
    } else if (name == "--hip-compiler-trace") {
      ok = given(&hip_compiler);
    } else if (name == "--hsa-trace") {
      ok = given(&hsa_trace);
    } else if (name == "--hsa-core-trace") {
      ok = given(&hsa_core);
    } else if (name == "--hsa-amd-trace") {
      ok = given(&hsa_amd);
    } else if (name == "--hsa-image-trace") {
      ok = given(&hsa_image);
    } else if (name == "--hsa-finalizer-trace" ||
               name == "--hsa-finalize-trace") {
      // --hsa-finalize-trace: the key rocprofv3's input schema names
      // (hsa_finalize_trace) for the same part.
      ok = given(&hsa_finalizer);
    } else if (name == "--kfd-trace") {
      ok = given(&kfd);
    } else if (name == "--marker-trace") {
      ok = given(&marker);
    } else if (name == "--kernel-trace") {
      ok = given(&kernel);
    } else if (name == "--memory-copy-trace") {
      ok = given(&memory_copy);
    } else if (name == "--memory-allocation-trace") {
      ok = given(&memory_allocation);
    } else if (name == "--scratch-memory-trace") {
      ok = given(&scratch_memory);
    } else if (name == "-r" || name == "--runtime-trace") {
      ok = given(&runtime_trace);
    } else if (name == "-s" || name == "--sys-trace") {
      ok = given(&sys_trace);
    } else if (name == "-A" || name == "--agent-index") {
      ok = value(name, arg, &o->agent_index);
      AgentIndex mode;
      if (ok && !ParseAgentIndex(o->agent_index, &mode)) {
        *error = "bad " + name + " '" + o->agent_index +
                 "' (absolute, relative or type-relative)";
        ok = false;
      }
    } else if (name == "--kernel-rename") {
      ok = boolean({&o->kernel_rename});
    } else if (name == "--group-by-queue") {
      // The timeline's kernels and copies per HSA queue and GPU, not per
      // HIP stream (rocprofv3's default once HIP is initialised).
      ok = boolean({&o->group_by_queue});
    } else if (name == "-T" || name == "--truncate-kernels") {
      ok = boolean({&o->truncate_kernels});
    } else if (name == "-M" || name == "--mangled-kernels") {
      ok = boolean({&o->mangled_kernels});
    } else if (name == "--stats") {
      ok = boolean({&o->stats});
    } else if (name == "-S" || name == "--summary") {
      ok = boolean({&o->summary});
    } else if (name == "-D" || name == "--summary-per-domain") {
      ok = boolean({&o->summary_per_domain});
    } else if (name == "--summary-groups") {
      ok = values(
          name, arg,
          [](const std::string& s) { return !s.empty() && s[0] != '-'; },
          &o->summary_groups);
      // rocprofv3's std::regex (ECMAScript), matched against the whole
      // domain name by the tool.
      for (const std::string& g : o->summary_groups) {
        try {
          if (ok) std::regex re(g);
        } catch (const std::regex_error&) {
          *error = "bad --summary-groups regular expression '" + g + "'";
          ok = false;
        }
      }
    } else if (name == "--summary-output-file") {
      ok = value(name, arg, &o->summary_output_file);
    } else if (name == "-u" || name == "--summary-units") {
      ok = value(name, arg, &o->summary_units);
      if (ok && o->summary_units != "sec" && o->summary_units != "msec" &&
          o->summary_units != "usec" && o->summary_units != "nsec") {
        *error = "bad " + name + " '" + o->summary_units +
                 "' (sec, msec, usec or nsec)";
        ok = false;
      }
    } else if (name == "--log-level") {
      ok = value(name, arg, &o->log_level);
      o->log_level = Lower(o->log_level);
      if (ok && o->log_level != "fatal" && o->log_level != "error" &&
          o->log_level != "warning" && o->log_level != "info" &&
          o->log_level != "trace" && o->log_level != "env" &&
          o->log_level != "config") {
        *error = "bad --log-level '" + o->log_level +
                 "' (fatal, error, warning, info, trace, env or config)";
        ok = false;
      }
    } else if (name == "-d" || name == "--output-directory") {
      ok = value(name, arg, &o->output_dir);
    } else if (name == "-o" || name == "--output-file") {
      ok = value(name, arg, &o->output_file);
    } else if (name == "--perfetto-backend" ||
               name == "--perfetto-buffer-size" ||
               name == "--perfetto-buffer-fill-policy" ||
               name == "--perfetto-shmem-size-hint") {
      // rocprofv3's Perfetto SDK settings: roctrace streams the timeline to
      // its file itself (no ring buffer, no daemon, nothing dropped), so
      // the values are checked and have nothing to set.
      std::string v;
      ok = value(name, arg, &v);
      const bool valid =
          name == "--perfetto-backend" ? v == "inprocess" || v == "system"
          : name == "--perfetto-buffer-fill-policy"
              ? v == "discard" || v == "ring_buffer"
              : !v.empty() &&
                    v.find_first_not_of("0123456789") == std::string::npos;
      if (ok && !valid) {
        *error = "bad " + name + " '" + v + "'";
        ok = false;
      } else if (ok && name == "--perfetto-backend" && v == "system") {
        *error =
            "--perfetto-backend system is not supported: the timeline "
            "is written by roctrace itself (in process)";
        ok = false;
      } else if (ok) {
        o->notes.push_back(name +
                           ": no effect (the timeline is streamed to "
                           "its file; nothing is dropped)");
      }
    } else if (name == "-f" || name == "--output-format") {
      // One or more formats, space or comma separated, any case.
      // Before a "--", every word is a format (argparse's nargs="+": a
      // wrong one is an error); without one, the formats end where the
      // program begins.
      std::vector<std::string> given;
      ok = values(
          name, arg,
          has_separator
              ? [](const std::string& s) { return !s.empty() && s[0] != '-'; }
              : std::function<bool(const std::string&)>(IsFormatList),
          &given);
      for (size_t g = 0; ok && g < given.size(); ++g) {
        std::istringstream in(given[g]);
        std::string f;
        while (ok && std::getline(in, f, ',')) {
          if (Lower(f) == "otf2") {
            *error =
                "output format otf2 is not supported: roctrace writes no "
                "OTF2 trace (rocpd, pftrace, csv or json)";
            ok = false;
          } else if (!IsFormat(f)) {
            *error = "unknown output format '" + f +
                     "' (rocpd, pftrace, csv or json)";
            ok = false;
          } else {
            o->formats.push_back(Lower(f));
          }
        }
      }
    } else if (name == "-P" || name == "--collection-period") {
      CollectionPeriod parsed;
      ok = values(
          name, arg,
          [&parsed](const std::string& s) {
            return ParseCollectionPeriod(s, &parsed);
          },
          &periods);
    } else if (name == "--collection-period-unit") {
      double scale;
      ok = value(name, arg, &period_unit);
      if (ok && !UnitSeconds(period_unit, &scale)) {
        *error = "bad --collection-period-unit '" + period_unit +
                 "' (hour, min, sec, msec, usec or nsec)";
        ok = false;
      }
    } else if (name == "--kernel-include-regex" ||
               name == "--kernel-exclude-regex") {
      std::string* out = name == "--kernel-include-regex"
                             ? &o->kernel_include_regex
                             : &o->kernel_exclude_regex;
      ok = value(name, arg, out);
      // The tool's filter: refused here, before the program starts.
      KernelFilter filter;
      ok = ok &&
           filter.Set(o->kernel_include_regex, o->kernel_exclude_regex, error);
    } else if (name == "--buffer-size" || name == "--perfetto-max-size") {
      std::string* out =
          name == "--buffer-size" ? &o->buffer_size : &o->perfetto_max_size;
      ok = value(name, arg, out);
      uint64_t bytes = 0;
      if (ok && (!ParseSize(*out, &bytes) || bytes == 0 ||
                 (name == "--buffer-size" &&
                  (bytes < 4096 || bytes > (1ull << 30))))) {
        *error = "bad " + name + " '" + *out + "'" +
                 (name == "--buffer-size" ? " (4K..1G)" : "");
        ok = false;
      }
    } else if (name == "--minimum-output-data") {
      ok = value(name, arg, &o->minimum_output_data);
      if (ok && (o->minimum_output_data.empty() ||
                 o->minimum_output_data.size() > 12 ||
                 o->minimum_output_data.find_first_not_of("0123456789") !=
                     std::string::npos)) {
        *error = "bad --minimum-output-data '" + o->minimum_output_data +
                 "' (kilobytes)";
        ok = false;
      }
    } else if (name == "--preload") {
      ok = values(
          name, arg,
          [](const std::string& s) { return !s.empty() && s[0] != '-'; },
          &o->preload);
    } else if (name == "--sdk-tool") {
      ok = values(
          name, arg,
          [](const std::string& s) { return !s.empty() && s[0] != '-'; },
          &o->sdk_tools);
      // ROCP_TOOL_LIBRARIES separates its entries with ':'.
      for (const std::string& lib : o->sdk_tools) {
        if (ok && lib.find(':') != std::string::npos) {
          *error = "bad --sdk-tool '" + lib + "' (a path without ':')";
          ok = false;
        }
      }
    } else if (name == "--output-config") {
      ok = boolean({&o->output_config});
    } else if (name == "--disable-signal-handlers") {
      ok = boolean({&o->disable_signal_handlers});
    } else if (name == "--selected-regions") {
      ok = boolean({&o->selected_regions});
    } else if (name == "--rocm-root" || name == "--sdk-version" ||
               name == "--sdk-soversion") {
      // rocprofv3's ways to find AMD's libraries: roctrace's are found
      // beside it (ROCTRACE_LIB_DIR).
      std::string v;
      ok = value(name, arg, &v);
      if (ok && name == "--sdk-soversion" &&
          v.find_first_not_of("0123456789") != std::string::npos) {
        *error = "bad --sdk-soversion '" + v + "' (a number)";
        ok = false;
      } else if (ok) {
        o->notes.push_back(name + " " + v +
                           ": no effect (roctrace finds its own libraries "
                           "beside it, or in ROCTRACE_LIB_DIR)");
      }
    } else if (const Refused* refused = FindRefused(name)) {
      *error = "option " + name + " is not supported: " + refused->why;
      ok = false;
    } else {
      *error = "unknown option '" + arg + "'";
      ok = false;
    }
    if (!ok) return false;
  }
  o->program.assign(args.begin() + static_cast<long>(i), args.end());
  if (o->help || o->version) return true;
  if (o->program.empty()) {
    *error = "no program to run";
    return false;
  }
  double scale = 1;
  UnitSeconds(period_unit, &scale);
  for (const std::string& p : periods) {
    CollectionPeriod parsed;
    if (!ParseCollectionPeriod(p, &parsed)) {
      *error =
          "bad --collection-period '" + p + "' (want START:DURATION:REPEAT)";
      return false;
    }
    o->collection_periods.push_back(Seconds(parsed.delay_s * scale) + ":" +
                                    Seconds(parsed.duration_s * scale) + ":" +
                                    std::to_string(parsed.repeat));
  }
  // rocprofv3's order: -s, then -r, then --hip-trace and --hsa-trace, each
  // turning on what is still unset.
  auto fill = [](std::initializer_list<std::optional<bool>*> parts) {
    for (std::optional<bool>* p : parts) {
      if (!p->has_value()) *p = true;
    }
  };
  auto resolve = [&](bool sys) {
    if (sys) {
      fill({&hip_trace, &hsa_trace, &marker, &kernel, &memory_copy,
            &memory_allocation, &scratch_memory});
    }
    if (runtime_trace.value_or(false)) {
      fill({&hip_runtime, &marker, &kernel, &memory_copy, &memory_allocation,
            &scratch_memory});
    }
    if (hip_trace.value_or(false)) fill({&hip_runtime, &hip_compiler});
    if (hsa_trace.value_or(false)) {
      fill({&hsa_core, &hsa_amd, &hsa_image, &hsa_finalizer});
    }
  };
  // --scratch-memory-trace itself, not only implied by -r/-s.
  const bool scratch_asked = scratch_memory.value_or(false);
  resolve(sys_trace.value_or(false));
  const std::optional<bool>* parts[] = {
      &hip_runtime, &hip_compiler,      &hsa_core,       &hsa_amd,
      &hsa_image,   &hsa_finalizer,     &marker,         &kernel,
      &memory_copy, &memory_allocation, &scratch_memory, &kfd};
  bool any = false;
  for (const std::optional<bool>* p : parts) any |= p->value_or(false);
  bool any_given = sys_trace.has_value() || runtime_trace.has_value() ||
                   hip_trace.has_value() || hsa_trace.has_value();
  for (const std::optional<bool>* p : parts) any_given |= p->has_value();
  if (!any && !any_given) {
    // No tracing option at all: roctrace's default, --sys-trace.
    resolve(true);
  } else if (!any) {
    // Tracing options that turn nothing on (--sys-trace=False alone): as
    // rocprofv3, nothing is traced, said in a warning, and statistics or
    // summaries asked for are an error. --group-by-queue counts as a
    // tracing option in rocprofv3's rule (it silences both).
    o->trace_nothing = true;
    if (!o->group_by_queue) {
      const std::pair<bool, const char*> wanted[] = {
          {o->stats, "--stats"},
          {o->summary, "--summary"},
          {o->summary_per_domain, "--summary-per-domain"},
          {!o->summary_groups.empty(), "--summary-groups"},
          {!o->summary_output_file.empty(), "--summary-output-file"},
          {!o->summary_units.empty(), "--summary-units"}};
      for (const auto& w : wanted) {
        if (w.first) {
          *error = std::string("no tracing options were enabled for the ") +
                   w.second + " option";
          return false;
        }
      }
      o->notes.push_back(
          "warning: no tracing options were enabled: the program runs "
          "untraced");
    }
  }
  o->hip_runtime = hip_runtime.value_or(false);
  o->hip_compiler = hip_compiler.value_or(false);
  o->hsa_core = hsa_core.value_or(false);
  o->hsa_amd = hsa_amd.value_or(false);
  o->hsa_image = hsa_image.value_or(false);
  o->hsa_finalizer = hsa_finalizer.value_or(false);
  o->marker = marker.value_or(false);
  o->kernel = kernel.value_or(false);
  o->memory_copy = memory_copy.value_or(false);
  o->memory_allocation = memory_allocation.value_or(false);
  o->scratch_memory = scratch_memory.value_or(false);
  o->scratch_memory_asked = scratch_asked;
  o->kfd = kfd.value_or(false);
  return true;
}

}  // namespace

std::vector<std::pair<std::string, std::string>> ToolEnvironment(
    const Options& o) {
  std::vector<std::pair<std::string, std::string>> env;
  auto join = [](const std::vector<std::string>& items, char sep) {
    std::string s;
    for (const std::string& item : items) {
      if (!s.empty()) s.push_back(sep);
      s += item;
    }
    return s;
  };
  std::vector<std::string> domains;
  if (o.hip_runtime && o.hip_compiler) {
    domains.push_back("hip");
  } else if (o.hip_runtime) {
    domains.push_back("hip_runtime");
  } else if (o.hip_compiler) {
    domains.push_back("hip_compiler");
  }
  if (o.hsa_core && o.hsa_amd && o.hsa_image && o.hsa_finalizer) {
    domains.push_back("hsa");
  } else {
    if (o.hsa_core) domains.push_back("hsa_core");
    if (o.hsa_amd) domains.push_back("hsa_amd");
    if (o.hsa_image) domains.push_back("hsa_image");
    if (o.hsa_finalizer) domains.push_back("hsa_finalizer");
  }
  if (o.kfd) domains.push_back("kfd");
  if (o.marker) domains.push_back("marker");
  if (o.kernel) domains.push_back("kernel");
  if (o.memory_copy) domains.push_back("memory_copy");
  if (o.memory_allocation) domains.push_back("memory_allocation");
  if (o.scratch_memory) domains.push_back("scratch_memory");
  env.emplace_back("ROCTRACE_DOMAINS", join(domains, ','));
  if (!o.output_dir.empty())
    env.emplace_back("ROCTRACE_OUTPUT_DIR", o.output_dir);
  if (!o.output_file.empty())
    env.emplace_back("ROCTRACE_OUTPUT_FILE", o.output_file);
  env.emplace_back("ROCTRACE_OUTPUT_FORMAT",
                   o.formats.empty() ? "rocpd" : join(o.formats, ','));
  env.emplace_back("ROCTRACE_STATS", o.stats ? "1" : "0");
  env.emplace_back("ROCTRACE_SUMMARY", o.summary ? "1" : "0");
  if (o.summary_per_domain) {
    env.emplace_back("ROCTRACE_SUMMARY_PER_DOMAIN", "1");
  }
  if (!o.summary_groups.empty()) {
    env.emplace_back("ROCTRACE_SUMMARY_GROUPS", join(o.summary_groups, '\n'));
  }
  if (!o.summary_output_file.empty()) {
    env.emplace_back("ROCTRACE_SUMMARY_OUTPUT_FILE", o.summary_output_file);
  }
  if (!o.summary_units.empty()) {
    env.emplace_back("ROCTRACE_SUMMARY_UNITS", o.summary_units);
  }
  if (!o.log_level.empty() && o.log_level != "config") {
    env.emplace_back("ROCTRACE_LOG_LEVEL", o.log_level);
  }
  if (o.selected_regions) env.emplace_back("ROCTRACE_SELECTED_REGIONS", "1");
  if (!o.minimum_output_data.empty()) {
    env.emplace_back("ROCTRACE_MINIMUM_OUTPUT_KB", o.minimum_output_data);
  }
  if (!o.buffer_size.empty())
    env.emplace_back("ROCTRACE_BUFFER_SIZE", o.buffer_size);
  if (!o.perfetto_max_size.empty()) {
    env.emplace_back("ROCTRACE_PERFETTO_MAX_SIZE", o.perfetto_max_size);
  }
  if (!o.collection_periods.empty()) {
    env.emplace_back("ROCTRACE_COLLECTION_PERIOD",
                     join(o.collection_periods, ';'));
  }
  if (o.truncate_kernels) env.emplace_back("ROCTRACE_TRUNCATE_KERNELS", "1");
  if (o.mangled_kernels) env.emplace_back("ROCTRACE_MANGLED_KERNELS", "1");
  if (o.kernel_rename) env.emplace_back("ROCTRACE_KERNEL_RENAME", "1");
  if (o.group_by_queue) env.emplace_back("ROCTRACE_GROUP_BY_QUEUE", "1");
  if (!o.agent_index.empty()) {
    env.emplace_back("ROCTRACE_AGENT_INDEX", o.agent_index);
  }
  if (!o.kernel_include_regex.empty()) {
    env.emplace_back("ROCTRACE_KERNEL_INCLUDE_REGEX", o.kernel_include_regex);
  }
  if (!o.kernel_exclude_regex.empty()) {
    env.emplace_back("ROCTRACE_KERNEL_EXCLUDE_REGEX", o.kernel_exclude_regex);
  }
  return env;
}

namespace {

nlohmann::ordered_json ConfigurationValues(const Options& o) {
  nlohmann::ordered_json config = nlohmann::ordered_json::object();
  for (const auto& kv : ToolEnvironment(o)) config[kv.first] = kv.second;
  if (o.disable_signal_handlers) config["ROCTRACER_CRASH_FLUSH"] = "0";
  return config;
}

}  // namespace

std::string ConfigurationObject(const Options& o) {
  return ConfigurationValues(o).dump(-1, ' ', false,
                                     nlohmann::json::error_handler_t::replace);
}

std::string ConfigurationJson(const Options& o, uint32_t pid) {
  // The document the tool writes in a traced process, of the object it is
  // given.
  return ConfigDocument(pid, o.program, ConfigurationObject(o));
}

}  // namespace roctrace
