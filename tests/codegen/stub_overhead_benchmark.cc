// Cost of the generated stubs on the "wrappers installed, nothing enabled"
// path, against calling the same function directly. Run with:
//   bazel run --config=opt //tests/codegen:stub_overhead_benchmark --
//     --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>
#include <dlfcn.h>
#include <hip/hip_runtime_api.h>

#include <cstring>

#include "hsa_table_wrappers.h"

namespace {

__attribute__((noinline)) hsa_signal_value_t FakeLoad(hsa_signal_t signal) {
  benchmark::DoNotOptimize(signal);
  return static_cast<hsa_signal_value_t>(signal.handle);
}

struct Tables {
  Tables() {
    std::memset(reinterpret_cast<char*>(&c.core) + sizeof(ApiTableVersion), 0,
                sizeof(CoreApiTable) - sizeof(ApiTableVersion));
    c.core.hsa_signal_load_relaxed_fn = &FakeLoad;
    c.root.amd_ext_ = nullptr;
    c.root.finalizer_ext_ = nullptr;
    c.root.image_ext_ = nullptr;
  }
  HsaApiTableContainer c;
};

void BM_HsaSlotDirect(benchmark::State& state) {
  Tables t;
  auto* volatile fn = t.c.core.hsa_signal_load_relaxed_fn;
  hsa_signal_t s{42};
  for (auto _ : state) benchmark::DoNotOptimize(fn(s));
}
BENCHMARK(BM_HsaSlotDirect);

void BM_HsaSlotWrapperInactive(benchmark::State& state) {
  Tables t;
  roctracer::hsa_api::InstallTableWrappers(&t.c.root);
  auto* volatile fn = t.c.core.hsa_signal_load_relaxed_fn;
  hsa_signal_t s{42};
  for (auto _ : state) benchmark::DoNotOptimize(fn(s));
  roctracer::hsa_api::RestoreTableWrappers();
}
BENCHMARK(BM_HsaSlotWrapperInactive);

void BM_HipGetErrorStringDirect(benchmark::State& state) {
  void* lib = dlopen("libamdhip64.so.5", RTLD_NOW | RTLD_NOLOAD);
  auto* volatile fn = reinterpret_cast<const char* (*)(hipError_t)>(
      dlsym(lib, "hipGetErrorString"));
  for (auto _ : state) benchmark::DoNotOptimize(fn(hipErrorInvalidValue));
}
BENCHMARK(BM_HipGetErrorStringDirect);

void BM_HipGetErrorStringWrapperInactive(benchmark::State& state) {
  auto* volatile fn = &hipGetErrorString;  // this binary's symbol wrapper
  for (auto _ : state) benchmark::DoNotOptimize(fn(hipErrorInvalidValue));
}
BENCHMARK(BM_HipGetErrorStringWrapperInactive);

}  // namespace
