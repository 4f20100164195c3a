// Cost of rocTX annotations with no tracer listening (target: <= 2 ns per
// mark), compared in the same run with an empty call into another shared
// library; and, for scale, with a tracer loaded but ROCTX not enabled, and with
// an empty ROCTX callback enabled.
#include <benchmark/benchmark.h>
#include <dlfcn.h>
#include <roctracer.h>
#include <roctx.h>

extern "C" void bench_empty_call(const char* message);

namespace {

void EmptyCallback(uint32_t, uint32_t, const void*, void*) {}

void BM_EmptyCallIntoSharedLibrary(benchmark::State& state) {
  for (auto _ : state) bench_empty_call("message");
}
BENCHMARK(BM_EmptyCallIntoSharedLibrary);

void BM_roctxMarkA_NotEnabled(benchmark::State& state) {
  for (auto _ : state) roctxMarkA("message");
}
BENCHMARK(BM_roctxMarkA_NotEnabled);

void BM_roctxRangePushPop_NotEnabled(benchmark::State& state) {
  for (auto _ : state) {
    roctxRangePushA("message");
    roctxRangePop();
  }
}
BENCHMARK(BM_roctxRangePushPop_NotEnabled);

void BM_roctxRangeStartStop_NotEnabled(benchmark::State& state) {
  for (auto _ : state) roctxRangeStop(roctxRangeStartA("message"));
}
BENCHMARK(BM_roctxRangeStartStop_NotEnabled);

void BM_roctxMarkA_CallbackEnabled(benchmark::State& state) {
  if (roctracer_enable_op_callback(ACTIVITY_DOMAIN_ROCTX, 0, EmptyCallback,
                                   nullptr) != ROCTRACER_STATUS_SUCCESS) {
    state.SkipWithError(roctracer_error_string());
    return;
  }
  for (auto _ : state) roctxMarkA("message");
  roctracer_disable_op_callback(ACTIVITY_DOMAIN_ROCTX, 0);
}
BENCHMARK(BM_roctxMarkA_CallbackEnabled);

}  // namespace

BENCHMARK_MAIN();
