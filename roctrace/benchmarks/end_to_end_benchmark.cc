// A program's 1M hipGetErrorString calls untraced and under roctrace, end
// to end: from spawn to exit, every output file closed. Per traced run:
//   added_ns_per_call      wall time over the untraced run's (the same
//                          session's median), per call
//   added_cpu_ns_per_call  the same for CPU time of all processes (the
//                          program, its writer threads, roctrace)
//   loop_ns_per_call       the program's own timing of its 1M-call loop
//                          (what the application's thread pays)
//   db_bytes_per_call, pftrace_bytes_per_call, csv_bytes_per_call
// `threads:T` runs make the same calls from T threads at once (the
// program's loop_threads mode); the untraced baseline has as many.
//   bazel build --config=opt //roctrace:end_to_end_benchmark
//   B=$PWD/bazel-bin/roctrace
//   $B/end_to_end_benchmark $B/roctrace $B/traced_program [LAUNCHER...]
//       --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
// LAUNCHER, when given, is put before roctrace and before the program (a
// bundled loader, `ld-linux-x86-64.so.2 --library-path lib`, on a machine
// whose own libraries differ: tools/scaling_bundle.sh).
#include <benchmark/benchmark.h>
#include <dirent.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <string>
#include <thread>
#include <vector>

extern char** environ;

namespace {

std::string g_roctrace, g_program;
std::vector<std::string> g_launcher;
constexpr long kCalls = 1000000;
// The program makes kCalls + kCalls/10 + 1 calls (warm-up included).
constexpr double kAllCalls = kCalls + kCalls / 10 + 1;

double ChildCpuSeconds() {
  struct rusage ru {};
  getrusage(RUSAGE_CHILDREN, &ru);
  return static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
         1e-6 * static_cast<double>(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
}

// Runs argv with stdout to `out` and stderr to /dev/null; its exit status.
int Run(std::vector<std::string> args, const std::string& out) {
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(&a[0]);
  argv.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, out.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
  pid_t pid;
  int rc = posix_spawn(&pid, argv[0], &fa, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) return -1;
  int status = 0;
  waitpid(pid, &status, 0);
  return status;
}

bool EndsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

struct Sizes {
  uint64_t db = 0, pftrace = 0, csv = 0;
};

// Sizes of the outputs in `dir` by kind; removes them.
Sizes TakeSizes(const std::string& dir) {
  Sizes sizes;
  if (DIR* d = opendir(dir.c_str())) {
    while (dirent* e = readdir(d)) {
      std::string path = dir + "/" + e->d_name;
      struct stat st {};
      if (stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) continue;
      uint64_t n = static_cast<uint64_t>(st.st_size);
      if (EndsWith(path, ".db")) sizes.db += n;
      if (EndsWith(path, ".pftrace")) sizes.pftrace += n;
      if (EndsWith(path, ".csv")) sizes.csv += n;
      std::remove(path.c_str());
    }
    closedir(d);
  }
  return sizes;
}

struct RunResult {
  double wall_s, cpu_s, loop_ns;
  Sizes sizes;
  bool ok;
};

RunResult RunOnce(const std::vector<std::string>& formats,
                  const std::string& dir, int threads) {
  std::vector<std::string> args;
  if (!formats.empty()) {
    args = g_launcher;
    args.insert(args.end(), {g_roctrace, "--sys-trace", "--output-format"});
    args.insert(args.end(), formats.begin(), formats.end());
    args.insert(args.end(), {"-d", dir, "-o", "e2e", "--"});
  }
  args.insert(args.end(), g_launcher.begin(), g_launcher.end());
  if (threads == 1) {
    args.insert(args.end(), {g_program, "loop", std::to_string(kCalls)});
  } else {
    args.insert(args.end(), {g_program, "loop_threads", std::to_string(threads),
                             std::to_string(kCalls)});
  }
  std::string out = dir + ".stdout";
  RunResult r{};
  double cpu_before = ChildCpuSeconds();
  auto start = std::chrono::steady_clock::now();
  r.ok = Run(args, out) == 0;
  r.wall_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  r.cpu_s = ChildCpuSeconds() - cpu_before;
  std::ifstream in(out);
  in >> r.loop_ns;
  std::remove(out.c_str());
  r.sizes = TakeSizes(dir);
  return r;
}

std::string ScratchDir() {
  char tmpl[] = "/tmp/roctrace_e2e_XXXXXX";
  if (mkdtemp(tmpl) == nullptr) std::abort();
  return tmpl;
}

// The untraced baseline of `threads` threads: median of 5 runs, measured
// once per session.
const RunResult& Untraced(int threads) {
  static std::map<int, RunResult> medians;
  auto found = medians.find(threads);
  if (found != medians.end()) return found->second;
  RunResult& median = medians[threads];
  median = [threads] {
    std::string dir = ScratchDir();
    std::vector<RunResult> runs;
    for (int i = 0; i < 5; ++i) runs.push_back(RunOnce({}, dir, threads));
    rmdir(dir.c_str());
    auto mid = [&](double RunResult::*field) {
      std::vector<double> v;
      for (const RunResult& r : runs) v.push_back(r.*field);
      std::sort(v.begin(), v.end());
      return v[v.size() / 2];
    };
    RunResult m{};
    m.wall_s = mid(&RunResult::wall_s);
    m.cpu_s = mid(&RunResult::cpu_s);
    m.loop_ns = mid(&RunResult::loop_ns);
    m.ok = true;
    return m;
  }();
  return median;
}

// state.range(0): the program's threads.
void Measure(benchmark::State& state, std::vector<std::string> formats) {
  const int threads = static_cast<int>(state.range(0));
  const RunResult& base = Untraced(threads);
  std::string dir = ScratchDir();
  RunResult sum{};
  for (auto _ : state) {
    RunResult r = RunOnce(formats, dir, threads);
    if (!r.ok) state.SkipWithError("the program failed");
    sum.wall_s += r.wall_s;
    sum.cpu_s += r.cpu_s;
    sum.loop_ns += r.loop_ns;
    sum.sizes = r.sizes;
  }
  rmdir(dir.c_str());
  double n = static_cast<double>(state.iterations());
  state.counters["added_ns_per_call"] =
      1e9 * (sum.wall_s / n - base.wall_s) / kAllCalls;
  state.counters["added_cpu_ns_per_call"] =
      1e9 * (sum.cpu_s / n - base.cpu_s) / kAllCalls;
  state.counters["loop_ns_per_call"] = sum.loop_ns / n;
  state.counters["untraced_loop_ns_per_call"] = base.loop_ns;
  state.counters["db_bytes_per_call"] =
      static_cast<double>(sum.sizes.db) / kAllCalls;
  state.counters["pftrace_bytes_per_call"] =
      static_cast<double>(sum.sizes.pftrace) / kAllCalls;
  state.counters["csv_bytes_per_call"] =
      static_cast<double>(sum.sizes.csv) / kAllCalls;
}

void BM_Rocpd(benchmark::State& s) { Measure(s, {"rocpd"}); }
void BM_Pftrace(benchmark::State& s) { Measure(s, {"pftrace"}); }
void BM_Csv(benchmark::State& s) { Measure(s, {"csv"}); }
void BM_PftraceCsv(benchmark::State& s) { Measure(s, {"pftrace", "csv"}); }
void BM_RocpdPftraceCsv(benchmark::State& s) {
  Measure(s, {"rocpd", "pftrace", "csv"});
}

// One thread, and as many as the machine has cores.
void OneThread(benchmark::internal::Benchmark* b) {
  b->ArgName("threads")->Arg(1)->Unit(benchmark::kMillisecond);
  b->UseRealTime()->Iterations(1);
}
void EveryCore(benchmark::internal::Benchmark* b) {
  OneThread(b);
  const int cores = static_cast<int>(std::thread::hardware_concurrency());
  if (cores > 1) b->Arg(cores);
}

BENCHMARK(BM_Rocpd)->Apply(OneThread);
BENCHMARK(BM_Pftrace)->Apply(OneThread);
BENCHMARK(BM_Csv)->Apply(OneThread);
BENCHMARK(BM_PftraceCsv)->Apply(OneThread);
BENCHMARK(BM_RocpdPftraceCsv)->Apply(EveryCore);

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s ROCTRACE TRACED_PROGRAM [LAUNCHER...]\n",
                 argv[0]);
    return 2;
  }
  g_roctrace = argv[1];
  g_program = argv[2];
  g_launcher.assign(argv + 3, argv + argc);
  benchmark::RunSpecifiedBenchmarks();
  return 0;
}
