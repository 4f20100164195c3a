// Whether traced API calls scale with threads: aggregate calls per second of
// N threads calling the same cheap runtime function, untraced and traced,
// through libroctracer64.so linked ahead of the runtimes (as users link it),
// public API only. Every figure is wall time (UseRealTime), so
// items_per_second is the aggregate rate of all threads; the per-thread
// rates of N threads against 1 thread in the same run give the scaling.
//
// hipGetErrorString is the cheap call: its untraced rate scales with threads
// (hsa_status_string's does not: the runtime serialises it), so it is the
// ceiling a traced call is compared with. hsa_status_string is kept for the
// HSA domain's own path.
//   bazel build //benchmarks/intercept:threads_benchmark
//   bazel-bin/benchmarks/intercept/threads_benchmark
//       --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>
#include <hip/hip_runtime_api.h>
#include <hsa/hsa.h>
#include <roctracer.h>
#include <roctracer_hip.h>
#include <roctracer_hsa.h>
#include <roctracer_roctx.h>
#include <roctx.h>

#include <atomic>
#include <cstdlib>
#include <thread>

namespace {

// kActivitySmallRing: activity into a pool of 256 KiB buffers, whose rings
// (4 buffers, 1 MiB a thread) stay in the cores' caches, where kActivity's
// 4 MiB buffers (2 a thread, 8 MiB) go to memory once there are several
// threads: the two side by side tell the cost of the record bytes' memory
// traffic from that of the path itself.
enum Mode {
  kNothing = 0,
  kCallback = 1,
  kActivity = 2,
  kActivitySmallRing = 3
};

void EmptyCallback(uint32_t, uint32_t, const void*, void*) {}

std::atomic<uint64_t> g_delivered_bytes{0};
void CountingBuffer(const char* begin, const char* end, void*) {
  g_delivered_bytes.fetch_add(static_cast<uint64_t>(end - begin),
                              std::memory_order_relaxed);
}

void Check(roctracer_status_t status) {
  if (status != ROCTRACER_STATUS_SUCCESS) std::abort();
}

// Set up by thread 0 before the timed loop and torn down after it (Google
// Benchmark starts and ends every thread's loop together).
void Enable(activity_domain_t domain, uint32_t op, int mode) {
  if (mode == kCallback) {
    Check(roctracer_enable_op_callback(domain, op, &EmptyCallback, nullptr));
  } else if (mode == kActivity || mode == kActivitySmallRing) {
    roctracer_properties_t properties{};
    properties.buffer_size = mode == kActivity ? 1 << 22 : 1 << 18;
    properties.buffer_callback_fun = &CountingBuffer;
    Check(roctracer_open_pool(&properties));
    Check(roctracer_enable_op_activity(domain, op));
  }
}

void Disable(activity_domain_t domain, uint32_t op, int mode) {
  if (mode == kCallback) {
    Check(roctracer_disable_op_callback(domain, op));
  } else if (mode == kActivity || mode == kActivitySmallRing) {
    Check(roctracer_disable_op_activity(domain, op));
    Check(roctracer_flush_activity());
    Check(roctracer_close_pool());
  }
}

template <class Call>
void Run(benchmark::State& state, activity_domain_t domain, uint32_t op,
         Call call) {
  const int mode = static_cast<int>(state.range(0));
  const uint64_t delivered_before =
      g_delivered_bytes.load(std::memory_order_relaxed);
  if (state.thread_index() == 0) Enable(domain, op, mode);
  call();  // warm-up: lazy binding, this thread's correlation block and ring
  for (auto _ : state) call();
  if (state.thread_index() == 0) {
    Disable(domain, op, mode);
    // Every thread's records, 64 bytes each, all delivered by the flush:
    // bytes_per_second is the rate all threads wrote them at (a rocTX
    // record's text, written beside it, is not counted).
    if (mode >= kActivity) {
      state.SetBytesProcessed(static_cast<int64_t>(
          g_delivered_bytes.load(std::memory_order_relaxed) -
          delivered_before));
    }
  }
  state.SetItemsProcessed(state.iterations());
}

void BM_HipGetErrorString(benchmark::State& state) {
  auto* volatile fn = &hipGetErrorString;  // the library's stub
  Run(state, ACTIVITY_DOMAIN_HIP_API, HIP_API_ID_hipGetErrorString,
      [fn] { benchmark::DoNotOptimize(fn(hipErrorInvalidValue)); });
}

void BM_HsaStatusString(benchmark::State& state) {
  auto* volatile fn = &hsa_status_string;  // the library's stub
  Run(state, ACTIVITY_DOMAIN_HSA_API, HSA_API_ID_hsa_status_string, [fn] {
    const char* text = nullptr;
    benchmark::DoNotOptimize(fn(HSA_STATUS_ERROR, &text));
  });
}

// rocTX's path (no runtime, no Enter/Exit), for comparison.
void BM_RoctxMarkA(benchmark::State& state) {
  Run(state, ACTIVITY_DOMAIN_ROCTX, ROCTX_API_ID_roctxMarkA,
      [] { roctxMarkA("mark"); });
}

void ThreadCounts(benchmark::internal::Benchmark* b) {
  const int cores = static_cast<int>(std::thread::hardware_concurrency());
  for (int n = 1; n <= (cores > 1 ? cores : 1); n *= 2) b->Threads(n);
  b->UseRealTime();
}

void Threads(benchmark::internal::Benchmark* b) {
  b->ArgName("mode")->Arg(kNothing)->Arg(kCallback)->Arg(kActivity);
  ThreadCounts(b);
}

// rocTX's records carry their text, and rocTX's path is the shortest: the
// one that writes record bytes fastest, measured with both ring sizes.
void RoctxThreads(benchmark::internal::Benchmark* b) {
  b->ArgName("mode")->Arg(kNothing)->Arg(kCallback)->Arg(kActivity)->Arg(
      kActivitySmallRing);
  ThreadCounts(b);
}

BENCHMARK(BM_HipGetErrorString)->Apply(Threads);
BENCHMARK(BM_HsaStatusString)->Apply(Threads);
BENCHMARK(BM_RoctxMarkA)->Apply(RoctxThreads);

}  // namespace

BENCHMARK_MAIN();
