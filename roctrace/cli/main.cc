// `roctrace [options] -- program args...`: checks the command line and the
// output directory, then runs the program with libroctracer64.so.4 and the
// tool library preloaded (and HSA_TOOLS_LIB set), configured through
// ROCTRACE_* variables; passes the program's exit status or signal through.
#include <limits.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "roctrace/cli/merge.h"
#include "roctrace/cli/options.h"
#include "roctrace/tool/scratch_support.h"

namespace {

pid_t g_child = -1;

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

// The output directory's path may hold per-process keys (%pid%): check the
// part before the first key. The nearest existing ancestor must be a
// writable directory, so that the tool can create the rest.
bool CheckOutputDir(const std::string& pattern, std::string* problem) {
  std::string fixed = pattern.substr(0, pattern.find('%'));
  if (fixed.empty()) fixed = ".";
  std::string dir = fixed;
  if (pattern.find('%') != std::string::npos && fixed.back() != '/') {
    dir = DirName(fixed);  // "out/run%pid%": the key is inside a name
  }
  while (true) {
    struct stat st {};
    if (stat(dir.c_str(), &st) == 0) {
      if (!S_ISDIR(st.st_mode)) {
        *problem = dir + " is not a directory";
        return false;
      }
      if (access(dir.c_str(), W_OK | X_OK) != 0) {
        *problem = dir + " is not writable";
        return false;
      }
      return true;
    }
    if (errno != ENOENT) {
      *problem = dir + ": " + std::strerror(errno);
      return false;
    }
    std::string parent = DirName(dir);
    if (parent == dir) return true;
    dir = parent;
  }
}

void Forward(int sig) {
  if (g_child > 0) kill(g_child, sig);
}

int UsageError(const std::string& error) {
  std::fprintf(stderr, "roctrace: error: %s\n\n%s", error.c_str(),
               roctrace::kUsage);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (!args.empty() && args[0] == "merge") {
    return roctrace::RunMerge(
        std::vector<std::string>(args.begin() + 1, args.end()));
  }
  roctrace::Options options;
  std::string error;
  if (!roctrace::ParseOptions(args, &options, &error)) return UsageError(error);
  if (options.help) {
    std::fputs(roctrace::kUsage, stdout);
    return 0;
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
  std::string problem;
  std::string out_dir =
      options.output_dir.empty() ? "%hostname%/%pid%" : options.output_dir;
  if (!CheckOutputDir(out_dir, &problem)) {
    std::fprintf(stderr, "roctrace: cannot write the output directory: %s\n",
                 problem.c_str());
    return 1;
  }

  std::vector<std::string> dirs = LibraryDirs(argv[0]);
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
  std::string preload = tracer + ":" + tool;
  if (const char* old = std::getenv("LD_PRELOAD")) {
    if (*old != '\0') preload += std::string(":") + old;
  }
  setenv("LD_PRELOAD", preload.c_str(), 1);
  setenv("HSA_TOOLS_LIB", tracer.c_str(), 1);
  for (const auto& kv : roctrace::ToolEnvironment(options)) {
    setenv(kv.first.c_str(), kv.second.c_str(), 1);
  }

  std::vector<char*> child_argv;
  for (std::string& a : options.program) child_argv.push_back(&a[0]);
  child_argv.push_back(nullptr);

  g_child = fork();
  if (g_child < 0) {
    std::perror("roctrace: fork");
    return 1;
  }
  if (g_child == 0) {
    execv(program.c_str(), child_argv.data());
    int err = errno;
    std::fprintf(stderr, "roctrace: %s: %s\n", program.c_str(),
                 std::strerror(err));
    _exit(err == ENOENT ? 127 : 126);
  }
  // The terminal sends ^C to the whole group already; forwarding covers a
  // signal sent to roctrace alone (kill, a batch system).
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2}) {
    signal(sig, Forward);
  }
  int status = 0;
  while (waitpid(g_child, &status, 0) < 0) {
    if (errno != EINTR) {
      std::perror("roctrace: waitpid");
      return 1;
    }
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) {
    int sig = WTERMSIG(status);
    // Die of the same signal, so that our caller sees what the shell would
    // have seen; no core file of ours.
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
  return 1;
}
