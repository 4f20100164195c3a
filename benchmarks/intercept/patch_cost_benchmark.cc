// What the GOT patcher (runtime/linking/got_patch.h) costs in a process with
// 200 loaded libraries (benchmarks/intercept/bench_libs, each calling HIP, HSA
// and libc), the patcher and the stubs linked into this binary as they are
// into libroctracer64.so:
//   BM_ScanAll           scan and patch every loaded object: the cost at
//                        load (and at the first enable);
//   BM_LaterDlopen/1     dlopen + dlclose of one more library, each
//                        followed by the rescan the dlsym hook / the next
//                        enable does; /0 the same without the rescans;
//   BM_NothingChanged    the check every dlsym and enable makes.
//   bazel run --config=opt //benchmarks/intercept:patch_cost_benchmark --
//       --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>
#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "runtime/linking/got_patch.h"

namespace {

constexpr int kLibraries = 200;
const char* g_dir = "benchmarks/intercept/bench_libs";

std::string LibPath(int i) {
  char name[32];
  std::snprintf(name, sizeof(name), "/lib%03d.so", i);
  return std::string(g_dir) + name;
}

void LoadAll() {
  for (int i = 0; i < kLibraries; ++i) {
    if (dlopen(LibPath(i).c_str(), RTLD_NOW | RTLD_LOCAL) == nullptr) {
      std::fprintf(stderr, "%s\n", dlerror());
      std::exit(1);
    }
  }
}

void Counters(benchmark::State& state) {
  const roctracer::got::Stats s = roctracer::got::GetStats();
  state.counters["objects"] = static_cast<double>(s.objects_scanned);
  state.counters["slots"] = static_cast<double>(s.slots_patched);
}

void BM_ScanAll(benchmark::State& state) {
  for (auto _ : state) {
    state.PauseTiming();
    roctracer::got::RestoreAll();
    state.ResumeTiming();
    roctracer::got::RescanIfChanged();
  }
  Counters(state);
}
BENCHMARK(BM_ScanAll)->Unit(benchmark::kMicrosecond);

void BM_LaterDlopen(benchmark::State& state) {
  const bool rescan = state.range(0) != 0;
  const std::string path = std::string(g_dir) + "/extra.so";
  roctracer::got::RescanIfChanged();
  for (auto _ : state) {
    void* h = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (h == nullptr) std::abort();
    if (rescan) roctracer::got::RescanIfChanged();
    dlclose(h);
    if (rescan) roctracer::got::RescanIfChanged();
  }
  Counters(state);
}
BENCHMARK(BM_LaterDlopen)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

void BM_NothingChanged(benchmark::State& state) {
  roctracer::got::RescanIfChanged();
  for (auto _ : state) roctracer::got::RescanIfChanged();
}
BENCHMARK(BM_NothingChanged);

}  // namespace

int main(int argc, char** argv) {
  if (const char* dir = std::getenv("BENCH_LIBS_DIR")) g_dir = dir;
  roctracer::got::Arm();  // as libroctracer64.so does at load
  LoadAll();
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  return 0;
}
