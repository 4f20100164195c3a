// A program's 1M hipGetErrorString calls untraced and under
//   roctrace --sys-trace --output-format rocpd pftrace csv
// end to end: from spawn to exit, every output file closed. Wall time per
// call, the children's CPU time per call (the fair figure on a shared
// machine) and output bytes per call.
//   bazel build --config=opt //roctrace:end_to_end_benchmark
//   B=$PWD/bazel-bin/roctrace
//   $B/end_to_end_benchmark $B/roctrace $B/traced_program
#include <benchmark/benchmark.h>
#include <dirent.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

extern char** environ;

namespace {

std::string g_roctrace, g_program;
constexpr long kCalls = 1000000;

double ChildCpuSeconds() {
  struct rusage ru {};
  getrusage(RUSAGE_CHILDREN, &ru);
  return static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
         1e-6 * static_cast<double>(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
}

// Runs argv with stdout/stderr to /dev/null; returns its exit status.
int Run(std::vector<std::string> args) {
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(&a[0]);
  argv.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
  pid_t pid;
  if (posix_spawn(&pid, argv[0], &fa, nullptr, argv.data(), environ) != 0) {
    return -1;
  }
  posix_spawn_file_actions_destroy(&fa);
  int status = 0;
  waitpid(pid, &status, 0);
  return status;
}

uint64_t DirBytes(const std::string& dir) {
  uint64_t total = 0;
  if (DIR* d = opendir(dir.c_str())) {
    while (dirent* e = readdir(d)) {
      std::string path = dir + "/" + e->d_name;
      struct stat st {};
      if (stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode)) {
        total += static_cast<uint64_t>(st.st_size);
        std::remove(path.c_str());
      }
    }
    closedir(d);
  }
  return total;
}

void Measure(benchmark::State& state, bool traced) {
  char tmpl[] = "/tmp/roctrace_e2e_XXXXXX";
  std::string dir = mkdtemp(tmpl);
  uint64_t bytes = 0;
  double cpu = 0;
  for (auto _ : state) {
    std::vector<std::string> args;
    if (traced) {
      args = {g_roctrace, "--sys-trace", "--output-format",
              "rocpd",    "pftrace",     "csv",
              "-d",       dir,           "-o",
              "e2e",      "--"};
    }
    args.push_back(g_program);
    args.push_back("loop");
    args.push_back(std::to_string(kCalls));
    double cpu_before = ChildCpuSeconds();
    if (Run(args) != 0) state.SkipWithError("the program failed");
    cpu += ChildCpuSeconds() - cpu_before;
    bytes = DirBytes(dir);
  }
  rmdir(dir.c_str());
  // The program makes kCalls + kCalls/10 + 1 calls (warm-up included).
  double calls = static_cast<double>(kCalls + kCalls / 10 + 1);
  state.counters["ns_per_call"] = benchmark::Counter(
      calls * static_cast<double>(state.iterations()),
      benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters["cpu_ns_per_call"] =
      1e9 * cpu / (calls * static_cast<double>(state.iterations()));
  state.counters["bytes_per_call"] = static_cast<double>(bytes) / calls;
}

void BM_Untraced(benchmark::State& state) { Measure(state, false); }
void BM_Roctrace(benchmark::State& state) { Measure(state, true); }

BENCHMARK(BM_Untraced)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(3);
BENCHMARK(BM_Roctrace)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(3);

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s ROCTRACE TRACED_PROGRAM\n", argv[0]);
    return 2;
  }
  g_roctrace = argv[1];
  g_program = argv[2];
  benchmark::RunSpecifiedBenchmarks();
  return 0;
}
