// Whether rocprofiler-sdk tracing scales with threads, through the real
// interception layer (libroctracer64.so linked ahead of the runtimes, this
// binary's hipGetErrorString the library's stub) and the public SDK API, as
// a tool such as Kineto uses it: aggregate calls per second of N threads,
// with both contexts stopped (mode 0), an empty callback-tracing callback
// (mode 1), and HIP runtime API buffer tracing into one buffer whose
// callback only counts records (mode 2). Wall time (UseRealTime): the
// per-thread rate of N threads against 1 thread gives the scaling.
//   bazel build //benchmarks/sdk:threads_benchmark
//   bazel-bin/benchmarks/sdk/threads_benchmark
//       --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>
#include <hip/hip_runtime_api.h>

#include <atomic>
#include <cstdlib>
#include <thread>

#include "rocprofiler-sdk/rocprofiler.h"

namespace {

enum Mode { kNothing = 0, kCallback = 1, kBuffer = 2 };

rocprofiler_context_id_t g_callback_ctx;
rocprofiler_context_id_t g_buffer_ctx;
rocprofiler_buffer_id_t g_buffer;
std::atomic<uint64_t> g_records{0};

void Check(rocprofiler_status_t status) {
  if (status != ROCPROFILER_STATUS_SUCCESS) std::abort();
}

void EmptyCallback(rocprofiler_callback_tracing_record_t,
                   rocprofiler_user_data_t*, void*) {}

void CountRecords(rocprofiler_context_id_t, rocprofiler_buffer_id_t,
                  rocprofiler_record_header_t**, size_t n, void*, uint64_t) {
  g_records.fetch_add(n, std::memory_order_relaxed);
}

int Init(rocprofiler_client_finalize_t, void*) {
  const rocprofiler_tracing_operation_t ops[] = {
      ROCPROFILER_HIP_RUNTIME_API_ID_hipGetErrorString};
  Check(rocprofiler_create_context(&g_callback_ctx));
  Check(rocprofiler_configure_callback_tracing_service(
      g_callback_ctx, ROCPROFILER_CALLBACK_TRACING_HIP_RUNTIME_API, ops, 1,
      &EmptyCallback, nullptr));
  Check(rocprofiler_create_context(&g_buffer_ctx));
  Check(rocprofiler_create_buffer(g_buffer_ctx, 1 << 22, 1 << 21,
                                  ROCPROFILER_BUFFER_POLICY_LOSSLESS,
                                  &CountRecords, nullptr, &g_buffer));
  Check(rocprofiler_configure_buffer_tracing_service(
      g_buffer_ctx, ROCPROFILER_BUFFER_TRACING_HIP_RUNTIME_API, ops, 1,
      g_buffer));
  return 0;
}

}  // namespace

// Found by the library's scan at the runtimes' first call (linked with
// -rdynamic).
extern "C" rocprofiler_tool_configure_result_t* rocprofiler_configure(
    uint32_t, const char*, uint32_t, rocprofiler_client_id_t* id) {
  id->name = "threads_benchmark";
  static rocprofiler_tool_configure_result_t r{sizeof(r), &Init, nullptr,
                                               nullptr};
  return &r;
}

namespace {

void Start(int mode) {
  if (mode == kCallback) Check(rocprofiler_start_context(g_callback_ctx));
  if (mode == kBuffer) Check(rocprofiler_start_context(g_buffer_ctx));
}

void Stop(int mode) {
  if (mode == kCallback) Check(rocprofiler_stop_context(g_callback_ctx));
  if (mode == kBuffer) {
    Check(rocprofiler_stop_context(g_buffer_ctx));
    Check(rocprofiler_flush_buffer(g_buffer));
  }
}

void BM_HipGetErrorString(benchmark::State& state) {
  const int mode = static_cast<int>(state.range(0));
  auto* volatile fn = &hipGetErrorString;  // the library's stub
  // The first call registers the tool; every thread's warms its own state.
  benchmark::DoNotOptimize(fn(hipErrorInvalidValue));
  if (state.thread_index() == 0) Start(mode);
  for (auto _ : state) benchmark::DoNotOptimize(fn(hipErrorInvalidValue));
  if (state.thread_index() == 0) Stop(mode);
  state.SetItemsProcessed(state.iterations());
}

void Threads(benchmark::internal::Benchmark* b) {
  b->ArgName("mode")->Arg(kNothing)->Arg(kCallback)->Arg(kBuffer);
  const int cores = static_cast<int>(std::thread::hardware_concurrency());
  for (int n = 1; n <= (cores > 1 ? cores : 1); n *= 2) b->Threads(n);
  b->UseRealTime();
}

BENCHMARK(BM_HipGetErrorString)->Apply(Threads);

}  // namespace

BENCHMARK_MAIN();
