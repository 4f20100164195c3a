// Cost of rocTX calls no context traces while the SDK consumer is installed
// (a context buffer-traces one HSA call; thread and process ranges watched
// for good, as after a context tracing them ran once): libroctx's functions
// through the tracer's rocTX bridge, in one process. Run with:
//   bazel run //benchmarks/sdk:roctx_untraced_benchmark --
//     --benchmark_filter=<one>
#include <benchmark/benchmark.h>

#include "rocprofiler-sdk-roctx/roctx.h"
#include "rocprofiler-sdk/rocprofiler.h"
#include "runtime/private/roctx_link.h"
#include "tests/sdk/tool_configure.h"

extern "C" roctracer::RoctxLink* roctx_internal_link(void);

namespace {

rocprofiler_context_id_t g_ctx;
rocprofiler_context_id_t g_range_ctx;
rocprofiler_buffer_id_t g_buffer;

void EmptyConsumer(rocprofiler_context_id_t, rocprofiler_buffer_id_t,
                   rocprofiler_record_header_t**, size_t, void*, uint64_t) {}

void EmptyCallback(rocprofiler_callback_tracing_record_t,
                   rocprofiler_user_data_t*, void*) {}

int Init(rocprofiler_client_finalize_t, void*) {
  rocprofiler_create_context(&g_range_ctx);
  rocprofiler_configure_callback_tracing_service(
      g_range_ctx, ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_RANGE_API, nullptr,
      0, &EmptyCallback, nullptr);
  rocprofiler_create_context(&g_ctx);
  rocprofiler_create_buffer(g_ctx, 1 << 22, 1 << 16,
                            ROCPROFILER_BUFFER_POLICY_LOSSLESS, &EmptyConsumer,
                            nullptr, &g_buffer);
  const rocprofiler_tracing_operation_t ops[] = {
      ROCPROFILER_HSA_CORE_API_ID_hsa_status_string};
  rocprofiler_configure_buffer_tracing_service(
      g_ctx, ROCPROFILER_BUFFER_TRACING_HSA_CORE_API, ops, 1, g_buffer);
  rocprofiler_start_context(g_range_ctx);
  rocprofiler_stop_context(g_range_ctx);
  return rocprofiler_start_context(g_ctx);
}

struct Registered {
  Registered() {
    rocprofiler_force_configure(&sdk_test::UnnamedConfigure<&Init>);
    roctracer::AttachRoctx(roctx_internal_link());
  }
} g_registered;

void BM_MarkA(benchmark::State& state) {
  for (auto _ : state) roctxMarkA("mark");
}
BENCHMARK(BM_MarkA);

void BM_PushPop(benchmark::State& state) {
  for (auto _ : state) {
    roctxRangePushA("push");
    roctxRangePop();
  }
}
BENCHMARK(BM_PushPop);

void BM_StartStop(benchmark::State& state) {
  for (auto _ : state) roctxRangeStop(roctxRangeStartA("start"));
}
BENCHMARK(BM_StartStop);

void BM_GetThreadId(benchmark::State& state) {
  roctx_thread_id_t tid = 0;
  for (auto _ : state) roctxGetThreadId(&tid);
  benchmark::DoNotOptimize(tid);
}
BENCHMARK(BM_GetThreadId);

}  // namespace

BENCHMARK_MAIN();
