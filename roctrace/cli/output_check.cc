#include "roctrace/cli/output_check.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "roctrace/writers/csv_writer.h"
#include "roctrace/writers/stats.h"

namespace roctrace {
namespace {

bool Has(const std::vector<std::string>& formats, const char* format) {
  if (formats.empty()) return std::string(format) == "rocpd";
  for (const std::string& f : formats) {
    if (f == format) return true;
  }
  return false;
}

}  // namespace

std::vector<std::string> OutputSuffixes(const Options& o) {
  // Tracing options that turn nothing on: the program runs untraced and
  // nothing but the configuration file (when asked for) is written.
  if (o.trace_nothing) {
    if (o.output_config) return {"_config.json"};
    return {};
  }
  std::vector<std::string> out;
  if (Has(o.formats, "rocpd")) {
    out.push_back("_results.db");
    out.push_back("_results.db-journal");  // SQLite's, beside it
  }
  if (Has(o.formats, "pftrace")) {
    out.push_back("_results.pftrace");
    out.push_back("_results.1.pftrace");  // the size limit's next file
  }
  if (Has(o.formats, "json")) out.push_back("_results.json");
  const Category all[] = {Category::kHip,        Category::kHsa,
                          Category::kMarker,     Category::kKernel,
                          Category::kMemoryCopy, Category::kScratchMemory};
  if (Has(o.formats, "csv")) {
    for (Category c : all) out.push_back(CsvWriter::TraceSuffix(c));
  }
  if (o.stats) {
    for (Category c : all) out.push_back(StatsWriter::StatsSuffix(c));
    out.push_back("_domain_stats.csv");
    out.push_back("_api_failures.csv");
  }
  if (o.output_config) out.push_back("_config.json");
  // --summary-output-file NAME: <prefix>_NAME.txt (a NAME naming
  // directories is made by the tool).
  const std::string summary =
      StatsWriter::SummaryPath("", o.summary_output_file);
  if ((o.summary || o.summary_per_domain || !o.summary_groups.empty()) &&
      !summary.empty() && summary != "stdout" && summary != "stderr" &&
      summary.find('/') == std::string::npos) {
    out.push_back(summary);
  }
  return out;
}

namespace {

// One try of CheckOutputs; `*vanished` when a probe found the directory gone.
bool CheckOnce(const std::string& prefix,
               const std::vector<std::string>& suffixes, std::string* problem,
               bool* vanished) {
  *vanished = false;
  std::vector<std::string> created;
  auto undo = [&created] {
    for (auto it = created.rbegin(); it != created.rend(); ++it) {
      rmdir(it->c_str());
    }
  };
  // mkdir -p of the prefix's directory, remembering what did not exist.
  const size_t last_slash = prefix.rfind('/');
  const std::string dir =
      last_slash == std::string::npos ? "." : prefix.substr(0, last_slash);
  for (size_t at = 1; at <= dir.size(); ++at) {
    if (at != dir.size() && dir[at] != '/') continue;
    const std::string part = dir.substr(0, at);
    if (mkdir(part.c_str(), 0777) == 0) {
      created.push_back(part);
      continue;
    }
    const int err = errno;
    struct stat st {};
    if (stat(part.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) continue;
    *vanished = err == ENOENT;  // a parent made and removed meanwhile
    *problem = err == EEXIST ? part + " is not a directory"
                             : part + ": " + std::strerror(err);
    undo();
    return false;
  }
  bool ok = true;
  for (const std::string& suffix : suffixes) {
    const std::string path = prefix + suffix;
    int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd >= 0) {
      close(fd);
      unlink(path.c_str());
      continue;
    }
    if (errno == EEXIST) {
      struct stat st {};
      if (stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
          access(path.c_str(), W_OK) == 0) {
        continue;  // replaced by this run
      }
      *problem = "cannot write " + path +
                 (S_ISDIR(st.st_mode) ? ": Is a directory" : ": not writable");
    } else {
      *vanished = errno == ENOENT;
      *problem = "cannot create " + path + ": " + std::strerror(errno);
    }
    ok = false;
    break;
  }
  // Kept when the outputs can be written: the run writes there, and other
  // roctraces at once (one per MPI rank) may be using what this one made.
  if (!ok) undo();
  return ok;
}

}  // namespace

bool CheckOutputs(const std::string& prefix,
                  const std::vector<std::string>& suffixes,
                  std::string* problem) {
  // Several roctraces at once (one per MPI rank) share the directory: one
  // whose check fails removes what it made, and another's probe may find it
  // gone. Such a probe makes the directory again.
  bool vanished = false;
  for (int attempt = 0; attempt < 20; ++attempt) {
    if (CheckOnce(prefix, suffixes, problem, &vanished)) return true;
    if (!vanished) return false;
  }
  return false;
}

}  // namespace roctrace
