// Callback tracing of one cheap real call with an empty tool callback,
// through the real interception layer (libroctracer64.so linked ahead of the
// ROCm libraries, so this binary's hsa_status_string / hipGetErrorString are
// the library's interposing stubs), against the same functions called
// directly through the runtimes' own handles.
//
// BM_Threads: whether tracing scales, as a tool such as Kineto uses it:
// aggregate hipGetErrorString calls per second of N threads with every
// context stopped (mode 0), the empty callback (mode 1), and HIP runtime API
// buffer tracing into one buffer whose callback only counts records (mode
// 2). Wall time: the rate of N threads against 1 thread is the scaling
// (tools/scaling_bundle.sh runs it on a machine with more cores). Run with:
//   bazel run --config=opt //benchmarks/sdk:e2e_benchmark --
//     --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>
#include <dlfcn.h>
#include <hip/hip_runtime_api.h>
#include <hsa/hsa.h>

#include <atomic>
#include <cstdlib>
#include <thread>

#include "rocprofiler-sdk/rocprofiler.h"
#include "tests/sdk/tool_configure.h"

namespace {

rocprofiler_context_id_t g_ctx;
bool g_tracing_started = false;
// BM_Threads' buffer-tracing context.
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
  Check(rocprofiler_create_context(&g_buffer_ctx));
  Check(rocprofiler_create_buffer(g_buffer_ctx, 1 << 22, 1 << 21,
                                  ROCPROFILER_BUFFER_POLICY_LOSSLESS,
                                  &CountRecords, nullptr, &g_buffer));
  const rocprofiler_tracing_operation_t buffered_ops[] = {
      ROCPROFILER_HIP_RUNTIME_API_ID_hipGetErrorString};
  Check(rocprofiler_configure_buffer_tracing_service(
      g_buffer_ctx, ROCPROFILER_BUFFER_TRACING_HIP_RUNTIME_API, buffered_ops, 1,
      g_buffer));
  rocprofiler_create_context(&g_ctx);
  const rocprofiler_tracing_operation_t hsa_ops[] = {
      ROCPROFILER_HSA_CORE_API_ID_hsa_status_string};
  rocprofiler_configure_callback_tracing_service(
      g_ctx, ROCPROFILER_CALLBACK_TRACING_HSA_CORE_API, hsa_ops, 1,
      &EmptyCallback, nullptr);
  const rocprofiler_tracing_operation_t hip_ops[] = {
      ROCPROFILER_HIP_RUNTIME_API_ID_hipGetErrorString};
  rocprofiler_configure_callback_tracing_service(
      g_ctx, ROCPROFILER_CALLBACK_TRACING_HIP_RUNTIME_API, hip_ops, 1,
      &EmptyCallback, nullptr);
  return 0;
}

}  // namespace

// Found by the library's scan at the runtimes' first call (linked with
// -rdynamic).
extern "C" rocprofiler_tool_configure_result_t* rocprofiler_configure(
    uint32_t, const char*, uint32_t, rocprofiler_client_id_t* id) {
  return sdk_test::Configure<&Init>(id, "e2e_benchmark");
}

namespace {

void StartTracing(bool on) {
  // The runtimes' first call registers the tool (whichever benchmark runs
  // first).
  static const bool registered = [] {
    const char* s = nullptr;
    hsa_status_string(HSA_STATUS_ERROR, &s);
    return true;
  }();
  (void)registered;
  if (on != g_tracing_started) {
    (on ? rocprofiler_start_context : rocprofiler_stop_context)(g_ctx);
    g_tracing_started = on;
  }
}

void BM_HsaStatusStringDirect(benchmark::State& state) {
  void* lib = dlopen("libhsa-runtime64.so.1", RTLD_NOW | RTLD_NOLOAD);
  auto* volatile fn =
      reinterpret_cast<hsa_status_t (*)(hsa_status_t, const char**)>(
          dlsym(lib, "hsa_status_string"));
  const char* s = nullptr;
  for (auto _ : state) benchmark::DoNotOptimize(fn(HSA_STATUS_ERROR, &s));
}
BENCHMARK(BM_HsaStatusStringDirect);

void BM_HsaStatusStringStubIdle(benchmark::State& state) {
  StartTracing(false);
  auto* volatile fn = &hsa_status_string;
  const char* s = nullptr;
  for (auto _ : state) benchmark::DoNotOptimize(fn(HSA_STATUS_ERROR, &s));
}
BENCHMARK(BM_HsaStatusStringStubIdle);

void BM_HsaStatusStringSdkTraced(benchmark::State& state) {
  StartTracing(true);
  auto* volatile fn = &hsa_status_string;
  const char* s = nullptr;
  for (auto _ : state) benchmark::DoNotOptimize(fn(HSA_STATUS_ERROR, &s));
  StartTracing(false);
}
BENCHMARK(BM_HsaStatusStringSdkTraced);

void BM_HipGetErrorStringDirect(benchmark::State& state) {
  void* lib = dlopen("libamdhip64.so.5", RTLD_NOW | RTLD_NOLOAD);
  auto* volatile fn = reinterpret_cast<const char* (*)(hipError_t)>(
      dlsym(lib, "hipGetErrorString"));
  for (auto _ : state) benchmark::DoNotOptimize(fn(hipErrorInvalidValue));
}
BENCHMARK(BM_HipGetErrorStringDirect);

void BM_HipGetErrorStringSdkTraced(benchmark::State& state) {
  StartTracing(true);
  auto* volatile fn = &hipGetErrorString;
  for (auto _ : state) benchmark::DoNotOptimize(fn(hipErrorInvalidValue));
  StartTracing(false);
}
BENCHMARK(BM_HipGetErrorStringSdkTraced);

enum Mode { kNothing = 0, kCallback = 1, kBuffer = 2 };

void BM_Threads(benchmark::State& state) {
  const int mode = static_cast<int>(state.range(0));
  auto* volatile fn = &hipGetErrorString;
  benchmark::DoNotOptimize(fn(hipErrorInvalidValue));  // this thread's state
  if (state.thread_index() == 0) {
    StartTracing(mode == kCallback);  // registers the tool at the first run
    if (mode == kBuffer) Check(rocprofiler_start_context(g_buffer_ctx));
  }
  for (auto _ : state) benchmark::DoNotOptimize(fn(hipErrorInvalidValue));
  if (state.thread_index() == 0) {
    if (mode == kCallback) StartTracing(false);
    if (mode == kBuffer) {
      Check(rocprofiler_stop_context(g_buffer_ctx));
      Check(rocprofiler_flush_buffer(g_buffer));
    }
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Threads)->Apply([](benchmark::internal::Benchmark* b) {
  b->ArgName("mode")->Arg(kNothing)->Arg(kCallback)->Arg(kBuffer);
  const int cores = static_cast<int>(std::thread::hardware_concurrency());
  for (int n = 1; n <= (cores > 1 ? cores : 1); n *= 2) b->Threads(n);
  b->UseRealTime();
});

}  // namespace
