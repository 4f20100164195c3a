// A traced program that dies of SIGSEGV, in its first millisecond and under
// load (crash_probe.cc), as a roctracer client with a pool of its own and
// under roctrace: it still dies of SIGSEGV (roctrace too, passing the signal
// on), and the records of the calls made before the crash reach the pool's
// buffer callback, and roctrace's files (CSV, rocpd, Perfetto).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace {

constexpr const char* kProbe = "tests/intercept/crash_probe";
constexpr const char* kRoctrace = "roctrace/roctrace";

// Runs argv with stdout and stderr into `log`; returns the wait status.
int RunProgram(const std::vector<std::string>& args, const std::string& log) {
  const pid_t pid = fork();
  if (pid == 0) {
    const int fd = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(fd, 1);
    dup2(fd, 2);
    std::vector<char*> argv;
    for (const std::string& a : args)
      argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execv(argv[0], argv.data());
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return status;
}

std::string TempDir(const char* name) {
  const char* base = std::getenv("TEST_TMPDIR");
  std::string dir = std::string(base != nullptr ? base : "/tmp") + "/" + name;
  std::string cmd = "rm -rf '" + dir + "'";
  if (std::system(cmd.c_str()) != 0) return dir;
  mkdir(dir.c_str(), 0755);
  return dir;
}

std::string Read(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Lines per API name in the pool's file, or in the CSV's Function column.
std::map<std::string, int> CountPoolLines(const std::string& text) {
  std::map<std::string, int> n;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) ++n[line];
  return n;
}

std::map<std::string, int> CountCsvFunctions(const std::string& text) {
  std::map<std::string, int> n;
  std::istringstream in(text);
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    const size_t a = line.find("\",\"");
    const size_t b = line.find('"', a + 3);
    if (a == std::string::npos || b == std::string::npos) continue;
    ++n[line.substr(a + 3, b - a - 3)];
  }
  return n;
}

bool DiedOfSegv(int status) {
  return WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV;
}

off_t SizeOf(const std::string& path) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0 ? st.st_size : -1;
}

// What one crash left: how the probe ended, its calls recorded per API name,
// and what it (and roctrace) printed.
struct Crash {
  int status = 0;
  std::map<std::string, int> calls;
  std::string log;
  int Calls(const char* name) const {
    const auto it = calls.find(name);
    return it == calls.end() ? 0 : it->second;
  }
};

enum class Tracer { kPool, kRoctrace };

// Runs the probe in `mode` as a roctracer client with a pool of its own, or
// under roctrace (which must write its database and timeline too), and
// checks it died of SIGSEGV.
Crash CrashProbe(Tracer tracer, const std::string& mode) {
  Crash crash;
  if (tracer == Tracer::kPool) {
    const std::string dir = TempDir(("pool_" + mode).c_str());
    crash.status = RunProgram({kProbe, mode, dir + "/records"}, dir + "/log");
    crash.calls = CountPoolLines(Read(dir + "/records"));
    crash.log = Read(dir + "/log");
  } else {
    const std::string dir = TempDir(("roctrace_" + mode).c_str());
    crash.status = RunProgram(
        {kRoctrace, "--hip-trace", "--output-format", "csv", "rocpd", "pftrace",
         "-d", dir + "/out", "-o", "run", "--", kProbe, mode},
        dir + "/log");
    crash.calls = CountCsvFunctions(Read(dir + "/out/run_hip_api_trace.csv"));
    crash.log = Read(dir + "/log");
    EXPECT_GT(SizeOf(dir + "/out/run_results.db"), 0) << crash.log;
    EXPECT_GT(SizeOf(dir + "/out/run_results.pftrace"), 0) << crash.log;
  }
  EXPECT_TRUE(DiedOfSegv(crash.status)) << crash.status << "\n" << crash.log;
  return crash;
}

// first_ms: every call made before the crash.
void ExpectEveryCallOfTheFirstMillisecond(const Crash& crash) {
  EXPECT_EQ(5, crash.Calls("hipGetErrorString")) << crash.log;
  EXPECT_EQ(1, crash.Calls("hipGetErrorName")) << crash.log;
}

// load: the call made just before the crash, and the others' calls until
// then.
void ExpectTheCallsMadeUnderLoad(const Crash& crash) {
  EXPECT_EQ(1, crash.Calls("hipGetErrorName")) << crash.log;
  EXPECT_GT(crash.Calls("hipGetErrorString"), 1000) << crash.log;
}

TEST(CrashFlushTest, PoolRecordsOfACrashInTheFirstMillisecond) {
  ExpectEveryCallOfTheFirstMillisecond(CrashProbe(Tracer::kPool, "first_ms"));
}

TEST(CrashFlushTest, PoolRecordsOfACrashUnderLoad) {
  ExpectTheCallsMadeUnderLoad(CrashProbe(Tracer::kPool, "load"));
}

TEST(CrashFlushTest, RoctraceFilesOfACrashInTheFirstMillisecond) {
  ExpectEveryCallOfTheFirstMillisecond(
      CrashProbe(Tracer::kRoctrace, "first_ms"));
}

TEST(CrashFlushTest, RoctraceFilesOfACrashUnderLoad) {
  ExpectTheCallsMadeUnderLoad(CrashProbe(Tracer::kRoctrace, "load"));
}

}  // namespace
