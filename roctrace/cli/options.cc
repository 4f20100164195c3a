#include "roctrace/cli/options.h"

#include <sstream>

#include "roctrace/tool/config.h"
#include "roctrace/tool/kernel_filter.h"

namespace roctrace {

const char kUsage[] =
    "usage: roctrace [options] -- program [args...]\n"
    "       roctrace merge -o OUTPUT.db INPUT.db [INPUT.db...]\n"
    "\n"
    "Runs program with the tracer injected and writes a trace of its API\n"
    "calls (rocprofv3's options, names and outputs).\n"
    "\n"
    "tracing (default: --sys-trace):\n"
    "  --hip-trace             HIP runtime API calls\n"
    "  --hsa-trace             HSA API calls\n"
    "  --kfd-trace             KFD (libhsakmt) API calls\n"
    "  --marker-trace          rocTX ranges and marks\n"
    "  --kernel-trace          kernel dispatches\n"
    "  --memory-copy-trace     memory copies\n"
    "  --scratch-memory-trace  scratch memory (ROCm >= 6.1 headers)\n"
    "  --runtime-trace         HIP, markers, kernels, copies, scratch\n"
    "  --sys-trace             --runtime-trace plus HSA\n"
    "  --stats                 per-function statistics CSVs\n"
    "  -S, --summary           print the statistics on stderr at exit\n"
    "output:\n"
    "  -d, --output-directory DIR   (default %hostname%/%pid%)\n"
    "  -o, --output-file PREFIX     (default %pid%); keys: %pid% %ppid%\n"
    "                               %hostname% %rank% %env{NAME}%\n"
    "  --output-format FMT...       rocpd pftrace csv json (default rocpd)\n"
    "  --perfetto-max-size SIZE     split .pftrace files at SIZE (default "
    "512M)\n"
    "  --buffer-size SIZE           trace buffer size (default 64K)\n"
    "  --collection-period START:DURATION:REPEAT   seconds; repeat 0 = on\n"
    "  --kernel-include-regex RE, --kernel-exclude-regex RE\n"
    "  -h, --help\n";

namespace {

const char* const kFormats[] = {"rocpd", "pftrace", "csv", "json"};

bool IsFormat(const std::string& s) {
  for (const char* f : kFormats) {
    if (s == f) return true;
  }
  return false;
}

}  // namespace

bool ParseOptions(const std::vector<std::string>& args, Options* o,
                  std::string* error) {
  size_t i = 0;
  // Fetches the value of option `name` (given as --name=value or as the
  // next argument).
  auto value = [&](const std::string& name, const std::string& arg,
                   std::string* out) {
    size_t eq = arg.find('=');
    if (arg.compare(0, 2, "--") == 0 && eq != std::string::npos) {
      *out = arg.substr(eq + 1);
    } else if (i + 1 < args.size()) {
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
  for (; i < args.size(); ++i) {
    const std::string& arg = args[i];
    std::string name = arg.substr(0, arg.find('='));
    if (arg == "--") {
      ++i;
      break;
    }
    if (arg.empty() || arg[0] != '-') break;  // the program, without "--"
    if (arg == "-h" || arg == "--help") {
      o->help = true;
    } else if (arg == "--hip-trace") {
      o->hip = true;
    } else if (arg == "--hsa-trace") {
      o->hsa = true;
    } else if (arg == "--kfd-trace") {
      o->kfd = true;
    } else if (arg == "--marker-trace") {
      o->marker = true;
    } else if (arg == "--kernel-trace") {
      o->kernel = true;
    } else if (arg == "--memory-copy-trace") {
      o->memory_copy = true;
    } else if (arg == "--scratch-memory-trace") {
      o->scratch_memory = o->scratch_memory_asked = true;
    } else if (arg == "--runtime-trace" || arg == "--sys-trace") {
      o->hip = o->marker = o->kernel = o->memory_copy = o->scratch_memory =
          true;
      if (arg == "--sys-trace") o->hsa = true;
    } else if (arg == "--stats") {
      o->stats = true;
    } else if (arg == "-S" || arg == "--summary") {
      o->summary = true;
    } else if (name == "-d" || name == "--output-directory") {
      if (!value(name, arg, &o->output_dir)) return false;
    } else if (name == "-o" || name == "--output-file") {
      if (!value(name, arg, &o->output_file)) return false;
    } else if (name == "--output-format") {
      std::string first;
      if (!value(name, arg, &first)) return false;
      // One or more formats, space or comma separated.
      std::vector<std::string> given{first};
      while (i + 1 < args.size() && IsFormat(args[i + 1]))
        given.push_back(args[++i]);
      for (const std::string& g : given) {
        std::istringstream in(g);
        std::string f;
        while (std::getline(in, f, ',')) {
          if (!IsFormat(f)) {
            *error = "unknown output format '" + f +
                     "' (rocpd, pftrace, csv or json)";
            return false;
          }
          o->formats.push_back(f);
        }
      }
    } else if (name == "--collection-period") {
      std::string p;
      if (!value(name, arg, &p)) return false;
      CollectionPeriod parsed;
      if (!ParseCollectionPeriod(p, &parsed)) {
        *error = "bad --collection-period '" + p +
                 "' (want START:DURATION:REPEAT in seconds)";
        return false;
      }
      o->collection_periods.push_back(p);
    } else if (name == "--kernel-include-regex" ||
               name == "--kernel-exclude-regex") {
      std::string* out = name == "--kernel-include-regex"
                             ? &o->kernel_include_regex
                             : &o->kernel_exclude_regex;
      if (!value(name, arg, out)) return false;
      // The tool's filter: refused here, before the program starts.
      KernelFilter filter;
      if (!filter.Set(o->kernel_include_regex, o->kernel_exclude_regex,
                      error)) {
        return false;
      }
    } else if (name == "--buffer-size" || name == "--perfetto-max-size") {
      std::string* out =
          name == "--buffer-size" ? &o->buffer_size : &o->perfetto_max_size;
      if (!value(name, arg, out)) return false;
      uint64_t bytes = 0;
      if (!ParseSize(*out, &bytes) || bytes == 0 ||
          (name == "--buffer-size" && (bytes < 4096 || bytes > (1ull << 30)))) {
        *error = "bad " + name + " '" + *out + "'" +
                 (name == "--buffer-size" ? " (4K..1G)" : "");
        return false;
      }
    } else {
      *error = "unknown option '" + arg + "'";
      return false;
    }
  }
  o->program.assign(args.begin() + static_cast<long>(i), args.end());
  if (o->help) return true;
  if (o->program.empty()) {
    *error = "no program to run";
    return false;
  }
  if (!o->hip && !o->hsa && !o->marker && !o->kernel && !o->memory_copy &&
      !o->scratch_memory && !o->kfd) {
    o->hip = o->hsa = o->marker = o->kernel = o->memory_copy =
        o->scratch_memory = true;
  }
  return true;
}

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
  if (o.hip) domains.push_back("hip");
  if (o.hsa) domains.push_back("hsa");
  if (o.kfd) domains.push_back("kfd");
  if (o.marker) domains.push_back("marker");
  if (o.kernel) domains.push_back("kernel");
  if (o.memory_copy) domains.push_back("memory_copy");
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
  if (!o.buffer_size.empty())
    env.emplace_back("ROCTRACE_BUFFER_SIZE", o.buffer_size);
  if (!o.perfetto_max_size.empty()) {
    env.emplace_back("ROCTRACE_PERFETTO_MAX_SIZE", o.perfetto_max_size);
  }
  if (!o.collection_periods.empty()) {
    env.emplace_back("ROCTRACE_COLLECTION_PERIOD",
                     join(o.collection_periods, ';'));
  }
  if (!o.kernel_include_regex.empty()) {
    env.emplace_back("ROCTRACE_KERNEL_INCLUDE_REGEX", o.kernel_include_regex);
  }
  if (!o.kernel_exclude_regex.empty()) {
    env.emplace_back("ROCTRACE_KERNEL_EXCLUDE_REGEX", o.kernel_exclude_regex);
  }
  return env;
}

}  // namespace roctrace
