// `roctrace [options] -- program args...`: checks the command line and the
// output directory, then runs the program with libroctracer64.so.4 and the
// tool library preloaded (and HSA_TOOLS_LIB set), configured through
// ROCTRACE_* variables; passes the program's exit status or signal through.
#include <fcntl.h>
#include <limits.h>
#include <roctracer.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

#include "roctrace/cli/merge.h"
#include "roctrace/cli/options.h"
#include "roctrace/cli/output_check.h"
#include "roctrace/cli/progress.h"
#include "roctrace/tool/config.h"
#include "roctrace/tool/scratch_support.h"

namespace {

pid_t g_child = -1;

// roctrace's status when the program ran but some output could not be
// written (sysexits' EX_IOERR); the program's own status is on stderr.
constexpr int kOutputLost = 74;

// How long a run goes before its status line appears.
constexpr std::chrono::milliseconds kProgressDelay(2000);

std::string DirName(const std::string& path) {
  size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

bool IsFile(const std::string& path) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

// The directories that may hold the libraries, nearest first: beside the
// binary (Bazel's output tree), its runfiles, and an install tree's lib/.
std::vector<std::string> LibraryDirs(const char* argv0) {
  std::vector<std::string> bases;
  if (const char* env = std::getenv("ROCTRACE_LIB_DIR")) bases.push_back(env);
  std::string self = argv0;
  char resolved[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", resolved, sizeof(resolved) - 1);
  std::vector<std::string> exes;
  if (self.find('/') != std::string::npos) exes.push_back(self);
  if (n > 0) exes.push_back(std::string(resolved, static_cast<size_t>(n)));
  for (const std::string& exe : exes) {
    std::string dir = DirName(exe);
    bases.push_back(dir);
    bases.push_back(dir + "/..");
    bases.push_back(dir + "/../lib");
    bases.push_back(exe + ".runfiles/roctracer");
    bases.push_back(exe + ".runfiles/roctracer/roctrace");
  }
  return bases;
}

std::string FindLibrary(const std::vector<std::string>& dirs,
                        const char* name) {
  for (const std::string& d : dirs) {
    std::string path = d + "/" + name;
    if (IsFile(path)) {
      char real[PATH_MAX];
      return realpath(path.c_str(), real) != nullptr ? real : path;
    }
  }
  return "";
}

// As a shell resolves a command: a name with a slash is a path, others are
// looked up in PATH. Returns 0 when found and executable, else 127 (not
// found) or 126 (not executable), as a shell would exit.
int ResolveProgram(const std::string& name, std::string* path) {
  if (name.find('/') != std::string::npos) {
    if (access(name.c_str(), F_OK) != 0) return 127;
    *path = name;
    return access(name.c_str(), X_OK) == 0 && IsFile(name) ? 0 : 126;
  }
  const char* env = std::getenv("PATH");
  std::string search = env != nullptr ? env : "/usr/local/bin:/usr/bin:/bin";
  int result = 127;
  size_t start = 0;
  while (start <= search.size()) {
    size_t end = search.find(':', start);
    if (end == std::string::npos) end = search.size();
    std::string dir = search.substr(start, end - start);
    std::string candidate = (dir.empty() ? "." : dir) + "/" + name;
    if (IsFile(candidate)) {
      if (access(candidate.c_str(), X_OK) == 0) {
        *path = candidate;
        return 0;
      }
      result = 126;
      *path = candidate;
    }
    start = end + 1;
  }
  return result;
}

std::string CurrentDir() {
  char cwd[PATH_MAX];
  return getcwd(cwd, sizeof(cwd)) != nullptr ? cwd : ".";
}

std::string HostName() {
  char name[256] = {};
  gethostname(name, sizeof(name) - 1);
  return name;
}

// A file the tool (in every traced process) appends a line to for each
// output it could not write; read once the program has ended. On tmpfs
// where there is one, so that a full output disk does not also lose this.
std::string MakeStatusFile() {
  std::vector<std::string> dirs = {"/dev/shm"};
  if (const char* tmp = std::getenv("TMPDIR")) dirs.push_back(tmp);
  dirs.push_back("/tmp");
  for (const std::string& dir : dirs) {
    std::string path = dir + "/roctrace-status-XXXXXX";
    int fd = mkstemp(&path[0]);
    if (fd >= 0) {
      close(fd);
      return path;
    }
  }
  return "";
}

std::string ReadFile(const std::string& path) {
  std::string text;
  if (FILE* f = std::fopen(path.c_str(), "r")) {
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof(buf), f)) > 0) text.append(buf, n);
    std::fclose(f);
  }
  return text;
}

void Forward(int sig) {
  if (g_child > 0) kill(g_child, sig);
}

int UsageError(const std::string& error) {
  std::fprintf(stderr, "roctrace: error: %s\n\n%s", error.c_str(),
               roctrace::kUsage);
  return 2;
}

// Whether the program is (part of) an MPI job: a rank started by a launcher
// (its environment says so), or a launcher itself, whose ranks inherit the
// preload. Only then is libroctrace_mpi.so preloaded: its MPI_Init would
// otherwise be found by a program probing for MPI.
bool IsMpiJob(const std::string& program) {
  for (const char* var : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK",
                          "PMI_SIZE", "MPI_LOCALNRANKS"}) {
    if (std::getenv(var) != nullptr) return true;
  }
  const size_t slash = program.rfind('/');
  const std::string base =
      slash == std::string::npos ? program : program.substr(slash + 1);
  for (const char* launcher :
       {"mpirun", "mpiexec", "orterun", "prterun", "mpiexec.hydra",
        "mpirun.openmpi", "mpiexec.openmpi", "srun"}) {
    if (base == launcher) return true;
  }
  return false;
}

// Runs the program once under `options` (one job); its status as main
// returns it, or -signal when the program was killed by one.
int RunJob(roctrace::Options options, const char* argv0) {
  for (const std::string& note : options.notes) {
    std::fprintf(stderr, "roctrace: %s\n", note.c_str());
  }
  if (options.scratch_memory_asked && !roctrace::kScratchEventsInHeaders) {
    std::fprintf(stderr, "roctrace: --scratch-memory-trace: %s\n",
                 roctrace::kNoScratchEvents);
  }

  std::string program;
  int found = ResolveProgram(options.program[0], &program);
  if (found != 0) {
    std::fprintf(stderr, "roctrace: %s: %s\n", options.program[0].c_str(),
                 found == 127 ? "command not found" : "Permission denied");
    return found;
  }

  std::vector<std::string> dirs = LibraryDirs(argv0);
  std::string tracer = FindLibrary(dirs, "libroctracer64.so.4");
  std::string tool = FindLibrary(dirs, "libroctrace_tool.so");
  if (tracer.empty() || tool.empty()) {
    std::fprintf(
        stderr,
        "roctrace: cannot find %s beside the roctrace binary (set "
        "ROCTRACE_LIB_DIR)\n",
        tracer.empty() ? "libroctracer64.so.4" : "libroctrace_tool.so");
    return 1;
  }
  // --preload's libraries first (a sanitizer's runtime must come first);
  // roctrace's tool only when something is traced (tracing options that
  // turn nothing on run the program untraced, as rocprofv3 runs it), the
  // tracer also for --sdk-tool's tools.
  const bool load_tracer = !options.trace_nothing || !options.sdk_tools.empty();
  std::vector<std::string> preloads = options.preload;
  if (load_tracer) preloads.push_back(tracer);
  if (!options.trace_nothing) {
    preloads.push_back(tool);
    if (IsMpiJob(program)) {
      const std::string mpi = FindLibrary(dirs, "libroctrace_mpi.so");
      if (!mpi.empty()) preloads.push_back(mpi);
    }
  }
  if (const char* old = std::getenv("LD_PRELOAD")) {
    if (*old != '\0') preloads.push_back(old);
  }
  std::string preload;
  for (const std::string& lib : preloads) {
    preload += (preload.empty() ? "" : ":") + lib;
  }
  if (!preload.empty()) setenv("LD_PRELOAD", preload.c_str(), 1);
  if (load_tracer) setenv("HSA_TOOLS_LIB", tracer.c_str(), 1);
  // --sdk-tool: the tracer's rocprofiler-sdk front end loads these at the
  // runtimes' first call (sdk/README.md), ahead of any the environment
  // names. A relative path is roctrace's, whatever directory the program
  // runs in.
  if (!options.sdk_tools.empty()) {
    std::string tools;
    for (const std::string& lib : options.sdk_tools) {
      if (!tools.empty()) tools += ":";
      tools += lib.find('/') != std::string::npos && lib[0] != '/'
                   ? CurrentDir() + "/" + lib
                   : lib;
    }
    if (const char* old = std::getenv("ROCP_TOOL_LIBRARIES")) {
      if (*old != '\0') tools += std::string(":") + old;
    }
    setenv("ROCP_TOOL_LIBRARIES", tools.c_str(), 1);
  }
  const auto tool_env = roctrace::ToolEnvironment(options);
  if (!options.trace_nothing) {
    for (const auto& kv : tool_env) {
      setenv(kv.first.c_str(), kv.second.c_str(), 1);
    }
  }
  if (options.output_config && !options.trace_nothing) {
    setenv("ROCTRACE_OUTPUT_CONFIG",
           roctrace::ConfigurationObject(options).c_str(), 1);
  }
  // --disable-signal-handlers: a crash is the program's own handlers' alone
  // (libroctracer64 installs no fatal-signal handler: no flush at a crash).
  if (options.disable_signal_handlers) setenv("ROCTRACER_CRASH_FLUSH", "0", 1);
  // --log-level info, trace, env or config: the configuration (the
  // environment the tool library is given), as rocprofv3 prints its own.
  if (options.log_level == "info" || options.log_level == "trace" ||
      options.log_level == "env" || options.log_level == "config") {
    std::fprintf(stderr, "\n- roctrace configuration:\n");
    for (const auto& kv : tool_env) {
      std::fprintf(stderr, "    - %s=%s\n", kv.first.c_str(),
                   kv.second.c_str());
    }
    if (options.disable_signal_handlers) {
      std::fprintf(stderr, "    - ROCTRACER_CRASH_FLUSH=0\n");
    }
    std::fprintf(stderr, "\n");
  }
  // Relative output paths are roctrace's: every traced process resolves
  // them from here, whatever directory it runs in.
  const std::string base_dir = CurrentDir();
  setenv("ROCTRACE_BASE_DIR", base_dir.c_str(), 1);
  const std::string status_file = MakeStatusFile();
  if (!status_file.empty()) {
    setenv("ROCTRACE_STATUS_FILE", status_file.c_str(), 1);
  }

  // The status line: on a terminal, unless --log-level asks for errors only.
  roctrace::ProgressLine progress;
  if (isatty(STDERR_FILENO) && options.log_level != "fatal" &&
      options.log_level != "error" && progress.Create()) {
    setenv("ROCTRACE_PROGRESS_DIR", progress.dir().c_str(), 1);
  } else {
    unsetenv("ROCTRACE_PROGRESS_DIR");
  }

  // %launch_time% and %launch_date% name one moment in every process.
  if (std::getenv("ROCTRACE_LAUNCH_TIME") == nullptr) {
    setenv("ROCTRACE_LAUNCH_TIME", std::to_string(time(nullptr)).c_str(), 1);
  }
  std::vector<char*> child_argv;
  for (std::string& a : options.program) child_argv.push_back(&a[0]);
  child_argv.push_back(nullptr);

  // The program's paths hold its pid (%pid%): it is forked first and waits
  // on `gate` until they are checked; a closed gate without a byte means
  // "do not run".
  int gate[2];
  if (pipe2(gate, O_CLOEXEC) != 0) {
    std::perror("roctrace: pipe");
    return 1;
  }
  const pid_t self = getpid();
  g_child = fork();
  if (g_child < 0) {
    std::perror("roctrace: fork");
    return 1;
  }
  if (g_child == 0) {
    close(gate[1]);
    // roctrace killed (even by SIGKILL, which it cannot forward): the
    // program is told with SIGTERM rather than left running as an orphan.
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (getppid() != self) _exit(1);
    char go = 0;
    ssize_t got;
    while ((got = read(gate[0], &go, 1)) < 0 && errno == EINTR) {
    }
    if (got != 1) _exit(1);
    close(gate[0]);
    execv(program.c_str(), child_argv.data());
    int err = errno;
    std::fprintf(stderr, "roctrace: %s: %s\n", program.c_str(),
                 std::strerror(err));
    _exit(err == ENOENT ? 127 : 126);
  }
  close(gate[0]);
  std::string problem;
  const std::string prefix = roctrace::OutputPrefix(
      options.output_dir.empty() ? roctrace::Config().output_dir
                                 : options.output_dir,
      options.output_file.empty() ? roctrace::Config().output_file
                                  : options.output_file,
      base_dir, static_cast<uint32_t>(g_child), static_cast<uint32_t>(self),
      HostName(), std::getenv, options.program);
  // Nothing to write (nothing traced, no --output-config): no directory is
  // made and none need be writable.
  const std::vector<std::string> suffixes = roctrace::OutputSuffixes(options);
  if (!suffixes.empty() &&
      !roctrace::CheckOutputs(prefix, suffixes, &problem)) {
    close(gate[1]);
    waitpid(g_child, nullptr, 0);
    if (!status_file.empty()) unlink(status_file.c_str());
    std::fprintf(stderr,
                 "roctrace: cannot write the output directory: %s (the "
                 "program was not started)\n",
                 problem.c_str());
    return 1;
  }
  // --output-config: <prefix>_config.json, written by each traced process
  // (the tool, as it starts); here only for a program run untraced, before
  // it runs (its directory is there now). A file that cannot be written is
  // lost output: roctrace's status says so at the end.
  bool config_lost = false;
  if (options.output_config && options.trace_nothing) {
    const std::string path = prefix + "_config.json";
    const std::string text =
        roctrace::ConfigurationJson(options, static_cast<uint32_t>(g_child));
    std::FILE* f = std::fopen(path.c_str(), "w");
    bool written = f != nullptr;
    if (f != nullptr) {
      written = std::fwrite(text.data(), 1, text.size(), f) == text.size();
      written = std::fclose(f) == 0 && written;
    }
    if (!written) {
      std::fprintf(stderr, "roctrace: cannot write %s: %s\n", path.c_str(),
                   std::strerror(errno));
      config_lost = true;
    }
  }
  if (write(gate[1], "x", 1) != 1) {
    std::perror("roctrace: starting the program");
    return 1;
  }
  close(gate[1]);
  // The terminal sends ^C to the whole group already; forwarding covers a
  // signal sent to roctrace alone (kill, a batch system).
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2}) {
    signal(sig, Forward);
  }
  if (!progress.dir().empty()) progress.Start(STDERR_FILENO, kProgressDelay);
  int status = 0;
  while (waitpid(g_child, &status, 0) < 0) {
    if (errno != EINTR) {
      std::perror("roctrace: waitpid");
      return 1;
    }
  }
  progress.Stop();
  // Outputs some process could not write (each said so on stderr when it
  // happened): roctrace's status says so, the program's is still told.
  const std::string failures =
      status_file.empty() ? std::string() : ReadFile(status_file);
  if (!status_file.empty()) unlink(status_file.c_str());
  if (!failures.empty() || config_lost) {
    const std::string outcome =
        WIFEXITED(status)
            ? "exited with status " + std::to_string(WEXITSTATUS(status))
            : "was killed by signal " + std::to_string(WTERMSIG(status));
    std::fprintf(stderr,
                 "roctrace: error: some output could not be written (above); "
                 "the program %s\n",
                 outcome.c_str());
    if (WIFEXITED(status)) return kOutputLost;
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return -WTERMSIG(status);
  return 1;
}

// The environment as roctrace was started with, restored before each job
// so that one job's settings never leak into the next.
std::vector<std::pair<std::string, std::string>> RoctraceEnvironment() {
  std::vector<std::pair<std::string, std::string>> saved;
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string entry = *e;
    const size_t eq = entry.find('=');
    const std::string name = entry.substr(0, eq);
    if (name.compare(0, 9, "ROCTRACE_") == 0 || name == "LD_PRELOAD" ||
        name == "HSA_TOOLS_LIB" || name == "ROCP_TOOL_LIBRARIES" ||
        name == "ROCTRACER_CRASH_FLUSH") {
      saved.emplace_back(name,
                         eq == std::string::npos ? "" : entry.substr(eq + 1));
    }
  }
  return saved;
}

void RestoreEnvironment(
    const std::vector<std::pair<std::string, std::string>>& saved) {
  std::vector<std::string> names;
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string entry = *e;
    const std::string name = entry.substr(0, entry.find('='));
    if (name.compare(0, 9, "ROCTRACE_") == 0 || name == "LD_PRELOAD" ||
        name == "HSA_TOOLS_LIB" || name == "ROCP_TOOL_LIBRARIES" ||
        name == "ROCTRACER_CRASH_FLUSH") {
      names.push_back(name);
    }
  }
  for (const std::string& name : names) unsetenv(name.c_str());
  for (const auto& kv : saved) setenv(kv.first.c_str(), kv.second.c_str(), 1);
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (!args.empty() && args[0] == "merge") {
    return roctrace::RunMerge(
        std::vector<std::string>(args.begin() + 1, args.end()));
  }
  std::vector<roctrace::Options> jobs;
  std::string error;
  if (!roctrace::ParseJobs(args, &jobs, &error)) return UsageError(error);
  const roctrace::Options& first = jobs.front();
  if (first.help) {
    std::fputs(roctrace::kUsage, stdout);
    return 0;
  }
  if (first.version) {
    std::printf(
        "roctrace (roctracer %d.%d): rocprofv3's tracing command line\n",
        ROCTRACER_VERSION_MAJOR, ROCTRACER_VERSION_MINOR);
    return 0;
  }
  // An input file's jobs run one after the other, as rocprofv3 runs them;
  // roctrace's status is the first that is not 0.
  const auto saved = RoctraceEnvironment();
  int result = 0;
  for (size_t j = 0; j < jobs.size(); ++j) {
    if (jobs.size() > 1) {
      std::fprintf(stderr, "roctrace: job %zu of %zu\n", j + 1, jobs.size());
      RestoreEnvironment(saved);
    }
    const int status = RunJob(jobs[j], argv[0]);
    if (status < 0) {
      // Die of the same signal, so that our caller sees what the shell
      // would have seen; no core file of ours.
      const int sig = -status;
      struct rlimit no_core {
        0, 0
      };
      setrlimit(RLIMIT_CORE, &no_core);
      signal(sig, SIG_DFL);
      sigset_t set;
      sigemptyset(&set);
      sigaddset(&set, sig);
      sigprocmask(SIG_UNBLOCK, &set, nullptr);
      kill(getpid(), sig);
      return 128 + sig;
    }
    if (result == 0) result = status;
  }
  return result;
}
