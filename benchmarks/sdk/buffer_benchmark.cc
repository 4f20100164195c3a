// Cost of buffer tracing per traced call: the SDK consumer's ENTER and EXIT
// for an op a context buffer-traces into a LOSSLESS buffer whose callback
// does nothing, invoked directly as the interception layer invokes it. The
// record goes to the calling thread's own pool buffer (no lock). Threads:
// the same on N threads at once into one buffer. Run with:
//   bazel run --config=opt //benchmarks/sdk:buffer_benchmark --
//     --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <atomic>
#include <cstring>

#include "ext/prof_protocol.h"
#include "hsa_api_data.h"
#include "rocprofiler-sdk/rocprofiler.h"
#include "tests/sdk/fake_consumer_seam.h"
#include "tests/sdk/tool_configure.h"

namespace {

rocprofiler_context_id_t g_ctx;
// Traces rocTX ranges; started and stopped once by
// BM_BufferTracedEnterExitAfterRangeContext.
rocprofiler_context_id_t g_range_ctx;
rocprofiler_buffer_id_t g_buffer;
std::atomic<uint64_t> g_records{0};

void EmptyConsumer(rocprofiler_context_id_t, rocprofiler_buffer_id_t,
                   rocprofiler_record_header_t**, size_t n, void*, uint64_t) {
  g_records.fetch_add(n, std::memory_order_relaxed);
}

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
  return rocprofiler_start_context(g_ctx);
}

struct Registered {
  Registered() {
    rocprofiler_force_configure(&sdk_test::UnnamedConfigure<&Init>);
  }
} g_registered;

void BufferTracedEnterExit(benchmark::State& state) {
  roctracer::ApiConsumerFn consume = fake_seam::Consumer();
  hsa_api_data_t d;
  std::memset(&d, 0, sizeof(d));
  uint64_t corr = static_cast<uint64_t>(state.thread_index()) << 40;
  for (auto _ : state) {
    roctracer::ApiCallInfo info{ACTIVITY_DOMAIN_HSA_API,
                                HSA_API_ID_hsa_status_string,
                                ACTIVITY_API_PHASE_ENTER,
                                ++corr,
                                0,
                                &d};
    consume(info);
    info.phase = ACTIVITY_API_PHASE_EXIT;
    consume(info);
  }
  state.SetItemsProcessed(state.iterations());
  // Outside the timed loop: the consumer catches up between runs.
  if (state.thread_index() == 0) rocprofiler_flush_buffer(g_buffer);
}
void BM_BufferTracedEnterExit(benchmark::State& state) {
  BufferTracedEnterExit(state);
}
BENCHMARK(BM_BufferTracedEnterExit)->ThreadRange(1, 16)->UseRealTime();

// The same after a context tracing rocTX ranges ran once: pushes and pops
// are then watched for good (the installed consumer sends rocTX calls to
// the range bookkeeping). Run it on its own (--benchmark_filter): it
// changes the consumer for the rest of the process.
void BM_BufferTracedEnterExitAfterRangeContext(benchmark::State& state) {
  static const bool once = [] {
    rocprofiler_start_context(g_range_ctx);
    rocprofiler_stop_context(g_range_ctx);
    return true;
  }();
  benchmark::DoNotOptimize(once);
  BufferTracedEnterExit(state);
}
BENCHMARK(BM_BufferTracedEnterExitAfterRangeContext)->UseRealTime();

// An op the context does not trace: the consumer's filter only.
void BM_UntracedEnterExit(benchmark::State& state) {
  roctracer::ApiConsumerFn consume = fake_seam::Consumer();
  hsa_api_data_t d;
  std::memset(&d, 0, sizeof(d));
  uint64_t corr = 0;
  for (auto _ : state) {
    roctracer::ApiCallInfo info{ACTIVITY_DOMAIN_HSA_API,
                                HSA_API_ID_hsa_system_get_info,
                                ACTIVITY_API_PHASE_ENTER,
                                ++corr,
                                0,
                                &d};
    consume(info);
    info.phase = ACTIVITY_API_PHASE_EXIT;
    consume(info);
  }
}
BENCHMARK(BM_UntracedEnterExit);

}  // namespace
