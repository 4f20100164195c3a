// The tracer's added cost per kernel dispatch and per async copy on softhsa,
// traced against untraced in one run. Each benchmark runs in three modes:
//   0 "no_tool":  the runtime without the tracer (plain queues);
//   1 "tool_off": libroctracer64.so.4 loaded as the HSA tool, HSA_OPS off
//                 (intercept queues, packets passed on untouched);
//   2 "traced":   HSA_OPS records of every dispatch, barrier and copy into a
//                 pool whose callback only counts;
//   3 "sdk":      a rocprofiler-sdk tool's context with KERNEL_DISPATCH
//                 (ENQUEUE and COMPLETE) and MEMORY_COPY callbacks that only
//                 count, HSA_OPS off (BM_Dispatch and BM_Copy only);
//   4 "rows":     roctrace's kernel observer (roctrace/tool/kernel_observer.h)
//                 alone, what `roctrace --kernel-trace` adds on the seam; its
//                 rows are taken and dropped on the completion thread;
//   5 "all":      every observer at once: HSA_OPS and HIP_OPS records into
//                 the counting pool, an HSA_EVT callback, the SDK context
//                 and roctrace's kernel observer (BM_Dispatch only);
//   6 "sdk_buffer": a rocprofiler-sdk tool's context buffer-tracing
//                 KERNEL_DISPATCH into a buffer whose callback only counts
//                 records, HSA_OPS off (BM_Dispatch and
//                 BM_DispatchRoundTrip).
// The runtime is shut down and initialised again (with or without
// HSA_TOOLS_LIB) when the mode changes; softhsa loads tools at every first
// hsa_init. The tracer's API is reached with dlsym: the binary does not link
// it, so mode 0 runs without it.
#include <benchmark/benchmark.h>
#include <dlfcn.h>
#include <roctracer.h>
#include <roctracer_ext.h>

#include <atomic>
#include <cstdlib>
#include <mutex>
#include <vector>

#include "rocprofiler-sdk/rocprofiler.h"
#include "roctrace/tool/kernel_observer.h"
#include "runtime/private/observer_export.h"
#include "tests/sdk/tool_configure.h"
#include "tests/softhsa/hsa_test_util.h"

namespace {

constexpr char kKernels[] = "tests/gpu/libgpu_kernels.so";
constexpr char kTracer[] = "./libroctracer64.so.4";  // in the runfiles
constexpr uint32_t kBatch = 64;

std::atomic<uint64_t> g_records{0};
void CountRecords(const char* begin, const char* end, void*) {
  g_records += (end - begin) / sizeof(activity_record_t);
}

struct Runtime;
Runtime& Rt();

// Keeps no rows: a real tool converts them on its own thread.
roctrace::KernelObserver* g_rows =
    new roctrace::KernelObserver([] { g_rows->Take(); });
void CountEvents(uint32_t, uint32_t, const void*, void*) {}

std::atomic<uint64_t> g_sdk_callbacks{0};
rocprofiler_context_id_t g_sdk_context{0};
// Mode 6: the buffer-tracing context, its buffer and the records delivered.
std::atomic<uint64_t> g_sdk_records{0};
rocprofiler_context_id_t g_sdk_buffer_context{0};
rocprofiler_buffer_id_t g_sdk_buffer{0};
void CountSdkRecords(rocprofiler_context_id_t, rocprofiler_buffer_id_t,
                     rocprofiler_record_header_t**, size_t n, void*, uint64_t) {
  g_sdk_records.fetch_add(n, std::memory_order_relaxed);
}
void CountCallback(rocprofiler_callback_tracing_record_t,
                   rocprofiler_user_data_t*, void*) {
  g_sdk_callbacks.fetch_add(1, std::memory_order_relaxed);
}

// The SDK tool's initialize: counts dispatch and copy callbacks in a context
// and dispatch buffer records in another, which SdkTool starts and stops.
// The SDK is reached through the loaded tracer.
int SdkInit(rocprofiler_client_finalize_t, void*);

struct Runtime {
  int mode = -1;
  hsa_agent_t gpu{0}, cpu{0};
  hsa_test::Loaded code;
  uint64_t empty = 0;
  roctracer_pool_t* pool = nullptr;
  void* tracer = nullptr;
  std::vector<hsa_queue_t*> queues;

  template <class Fn>
  Fn Api(const char* name) {
    return reinterpret_cast<Fn>(dlsym(tracer, name));
  }

  // The SDK tool registers once (the tracer stays loaded: `tracer` holds
  // it); its callback context runs only in modes 3 and 5, its buffer
  // context only in mode 6.
  void SdkTool(bool on, rocprofiler_context_id_t* context = &g_sdk_context) {
    if (tracer == nullptr) return;
    if (on && g_sdk_context.handle == 0) {
      using Configure = decltype(&rocprofiler_force_configure);
      Api<Configure>("rocprofiler_force_configure")(
          &sdk_test::UnnamedConfigure<&SdkInit>);
    }
    if (context->handle == 0) abort();
    if (on) {
      Api<decltype(&rocprofiler_start_context)>("rocprofiler_start_context")(
          *context);
    } else {
      Api<decltype(&rocprofiler_stop_context)>("rocprofiler_stop_context")(
          *context);
    }
  }

  // Delivers what the mode 6 buffer holds and waits for its callback.
  void FlushSdkBuffer() {
    Api<decltype(&rocprofiler_flush_buffer)>("rocprofiler_flush_buffer")(
        g_sdk_buffer);
  }

  // roctrace's kernel observer, through the library's private export.
  void KernelRows(bool on) {
    if (on) {
      using Add = decltype(&roctracer_internal_gpu_add_observer);
      if (!Api<Add>("roctracer_internal_gpu_add_observer")(
              roctracer::gpu::kObserverAbiVersion, g_rows)) {
        abort();
      }
    } else {
      Api<decltype(&roctracer_internal_gpu_remove_observer)>(
          "roctracer_internal_gpu_remove_observer")(g_rows);
      g_rows->Take();
    }
  }

  void Enter(int m) {
    if (m == mode) return;
    if (mode == 3 || mode == 5) SdkTool(false);
    if (mode == 6) SdkTool(false, &g_sdk_buffer_context);
    if (mode == 4 || mode == 5) KernelRows(false);
    if (mode == 5) {
      Api<decltype(&roctracer_disable_domain_callback)>(
          "roctracer_disable_domain_callback")(ACTIVITY_DOMAIN_HSA_EVT);
    }
    if (mode >= 0) {
      for (hsa_queue_t* q : queues) hsa_queue_destroy(q);
      queues.clear();
      if (pool != nullptr) {
        Api<decltype(&roctracer_close_pool_expl)>("roctracer_close_pool_expl")(
            pool);
        pool = nullptr;
      }
      hsa_test::Unload(&code);
      hsa_shut_down();
    }
    const char* dir = getenv("GPU_BENCH_TRACER");
    if (m > 0) {
      setenv("HSA_TOOLS_LIB", dir != nullptr ? dir : kTracer, 1);
    } else {
      unsetenv("HSA_TOOLS_LIB");
    }
    if (hsa_init() != HSA_STATUS_SUCCESS) abort();
    if (m > 0) {
      tracer = dlopen(dir != nullptr ? dir : kTracer, RTLD_NOW | RTLD_NOLOAD);
      if (tracer == nullptr) abort();
    }
    if (m == 3 || m == 5) SdkTool(true);
    if (m == 6) SdkTool(true, &g_sdk_buffer_context);
    if (m == 4 || m == 5) KernelRows(true);
    if (m == 5) {
      Api<decltype(&roctracer_enable_domain_callback)>(
          "roctracer_enable_domain_callback")(ACTIVITY_DOMAIN_HSA_EVT,
                                              &CountEvents, nullptr);
    }
    if (m == 2 || m == 5) {
      roctracer_properties_t props{};
      props.buffer_size = 1 << 16;
      props.buffer_callback_fun = &CountRecords;
      Api<decltype(&roctracer_open_pool_expl)>("roctracer_open_pool_expl")(
          &props, &pool);
      Api<decltype(&roctracer_enable_domain_activity_expl)>(
          "roctracer_enable_domain_activity_expl")(ACTIVITY_DOMAIN_HSA_OPS,
                                                   pool);
      if (m == 5) {
        Api<decltype(&roctracer_enable_domain_activity_expl)>(
            "roctracer_enable_domain_activity_expl")(ACTIVITY_DOMAIN_HIP_OPS,
                                                     pool);
      }
    }
    gpu = hsa_test::Agents(HSA_DEVICE_TYPE_GPU)[0];
    cpu = hsa_test::Agents(HSA_DEVICE_TYPE_CPU)[0];
    if (hsa_test::LoadFile(kKernels, gpu, &code) != HSA_STATUS_SUCCESS) abort();
    empty = hsa_test::KernelObject(code.executable, gpu, "empty");
    for (int i = 0; i < 4; ++i) {
      hsa_queue_t* q = nullptr;
      hsa_queue_create(gpu, 4096, HSA_QUEUE_TYPE_MULTI, nullptr, nullptr, 0, 0,
                       &q);
      queues.push_back(q);
    }
    mode = m;
  }
};

Runtime& Rt() {
  static Runtime* rt = new Runtime;
  return *rt;
}

int SdkInit(rocprofiler_client_finalize_t, void*) {
  void* t = Rt().tracer;
  auto create = reinterpret_cast<decltype(&rocprofiler_create_context)>(
      dlsym(t, "rocprofiler_create_context"));
  auto configure = reinterpret_cast<
      decltype(&rocprofiler_configure_callback_tracing_service)>(
      dlsym(t, "rocprofiler_configure_callback_tracing_service"));
  create(&g_sdk_context);
  configure(g_sdk_context, ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH,
            nullptr, 0, &CountCallback, nullptr);
  configure(g_sdk_context, ROCPROFILER_CALLBACK_TRACING_MEMORY_COPY, nullptr, 0,
            &CountCallback, nullptr);
  auto create_buffer = reinterpret_cast<decltype(&rocprofiler_create_buffer)>(
      dlsym(t, "rocprofiler_create_buffer"));
  auto configure_buffer =
      reinterpret_cast<decltype(&rocprofiler_configure_buffer_tracing_service)>(
          dlsym(t, "rocprofiler_configure_buffer_tracing_service"));
  create(&g_sdk_buffer_context);
  // Delivered every 64 KiB, with 4 MiB of room per writer thread (the
  // completion thread writes the dispatch records), as a tool would.
  if (create_buffer(g_sdk_buffer_context, 1 << 22, 1 << 16,
                    ROCPROFILER_BUFFER_POLICY_LOSSLESS, &CountSdkRecords,
                    nullptr, &g_sdk_buffer) != ROCPROFILER_STATUS_SUCCESS ||
      configure_buffer(g_sdk_buffer_context,
                       ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH, nullptr, 0,
                       g_sdk_buffer) != ROCPROFILER_STATUS_SUCCESS) {
    return 1;
  }
  return 0;
}
std::mutex g_setup;

const char* ModeName(int64_t m) {
  const char* const kNames[] = {"no_tool", "tool_off", "traced",    "sdk",
                                "rows",    "all",      "sdk_buffer"};
  return kNames[m];
}

void WaitZero(hsa_signal_t s) {
  hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_EQ, 0, UINT64_MAX,
                            HSA_WAIT_STATE_BLOCKED);
}

// Empty dispatches, each thread on its own queue, back to back; every 64th
// carries the signal its producer then waits for.
void BM_Dispatch(benchmark::State& state) {
  Runtime& rt = Rt();
  if (state.thread_index() == 0) {
    std::lock_guard<std::mutex> lock(g_setup);
    rt.Enter(static_cast<int>(state.range(0)));
  }
  state.SetLabel(ModeName(state.range(0)));
  // Benchmark's threads start together after the setup above only for
  // thread 0; the others wait for the mode.
  while (Rt().mode != state.range(0)) {
  }
  const uint64_t callbacks = g_sdk_callbacks.load();
  // Records of earlier runs still in the buffer are delivered first.
  if (state.range(0) == 6 && state.thread_index() == 0) rt.FlushSdkBuffer();
  const uint64_t records = g_sdk_records.load();
  {
    hsa_test::BatchedDispatcher dispatcher(rt.queues[state.thread_index()],
                                           rt.empty, kBatch);
    for (auto _ : state) dispatcher.Next();
  }
  state.SetItemsProcessed(state.iterations());
  // sdk: ENQUEUE ENTER and EXIT per dispatch, COMPLETE once reported (the
  // completion thread may still be behind).
  if ((state.range(0) == 3 || state.range(0) == 5) &&
      state.thread_index() == 0) {
    state.counters["callbacks_per_dispatch"] =
        static_cast<double>(g_sdk_callbacks.load() - callbacks) /
        static_cast<double>(state.iterations() * state.threads());
  }
  // sdk_buffer: one record per dispatch, once delivered (the batch still
  // filling is counted at the next flush).
  if (state.range(0) == 6 && state.thread_index() == 0) {
    rt.FlushSdkBuffer();
    state.counters["records_per_dispatch"] =
        static_cast<double>(g_sdk_records.load() - records) /
        static_cast<double>(state.iterations() * state.threads());
  }
}
BENCHMARK(BM_Dispatch)
    ->ArgName("mode")
    ->DenseRange(0, 6)
    ->Threads(1)
    ->Threads(2)
    ->Threads(4)
    ->UseRealTime();

// The same on one queue, tracing off against the SDK's modes, timed with the
// process's CPU time: what the tracer adds on every thread (the completion
// thread writes the dispatch records), which the dispatching thread's CPU
// time leaves out and which a busy machine's wall time hides in its noise.
BENCHMARK(BM_Dispatch)
    ->Name("BM_DispatchProcessCpu")
    ->ArgName("mode")
    ->Arg(1)
    ->Arg(3)
    ->Arg(6)
    ->Threads(1)
    ->MeasureProcessCPUTime()
    ->UseRealTime();

// One dispatch with a completion signal, waited for: the latency an
// application sees (the tracer adds a barrier packet behind it).
void BM_DispatchRoundTrip(benchmark::State& state) {
  Runtime& rt = Rt();
  rt.Enter(static_cast<int>(state.range(0)));
  state.SetLabel(ModeName(state.range(0)));
  hsa_signal_t done;
  hsa_signal_create(1, 0, nullptr, &done);
  auto p = hsa_test::DispatchPacket(rt.empty, nullptr, 1, 1, done);
  for (auto _ : state) {
    hsa_test::Submit(rt.queues[0], &p);
    WaitZero(done);
    hsa_signal_store_relaxed(done, 1);
  }
  state.SetItemsProcessed(state.iterations());
  hsa_signal_destroy(done);
}
BENCHMARK(BM_DispatchRoundTrip)->ArgName("mode")->DenseRange(0, 2)->Arg(6);

// 64-byte host-to-device copies back to back, one signal counting 64 down.
void BM_Copy(benchmark::State& state) {
  Runtime& rt = Rt();
  rt.Enter(static_cast<int>(state.range(0)));
  state.SetLabel(ModeName(state.range(0)));
  hsa_signal_t done;
  hsa_signal_create(kBatch, 0, nullptr, &done);
  char src[64] = {1}, dst[64];
  uint32_t n = 0;
  for (auto _ : state) {
    hsa_amd_memory_async_copy(dst, rt.gpu, src, rt.cpu, sizeof(src), 0, nullptr,
                              done);
    if (++n == kBatch) {
      WaitZero(done);
      hsa_signal_store_relaxed(done, kBatch);
      n = 0;
    }
  }
  if (n != 0) {
    hsa_signal_subtract_relaxed(done, kBatch - n);
    WaitZero(done);
  }
  state.SetItemsProcessed(state.iterations());
  hsa_signal_destroy(done);
}
BENCHMARK(BM_Copy)->ArgName("mode")->DenseRange(0, 3)->UseRealTime();

// One copy, waited for.
void BM_CopyRoundTrip(benchmark::State& state) {
  Runtime& rt = Rt();
  rt.Enter(static_cast<int>(state.range(0)));
  state.SetLabel(ModeName(state.range(0)));
  hsa_signal_t done;
  hsa_signal_create(1, 0, nullptr, &done);
  char src[64] = {1}, dst[64];
  for (auto _ : state) {
    hsa_amd_memory_async_copy(dst, rt.gpu, src, rt.cpu, sizeof(src), 0, nullptr,
                              done);
    WaitZero(done);
    hsa_signal_store_relaxed(done, 1);
  }
  state.SetItemsProcessed(state.iterations());
  hsa_signal_destroy(done);
}
BENCHMARK(BM_CopyRoundTrip)->ArgName("mode")->DenseRange(0, 2);

}  // namespace

BENCHMARK_MAIN();
