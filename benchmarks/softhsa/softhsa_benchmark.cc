// softhsa's speed as an HSA application sees it: empty kernel dispatches
// through one queue, the latency from a signal store to its async handler,
// async copy bandwidth. Every call goes through the exported symbols and the
// API table, as an application's (and a tool's) would.
#include <benchmark/benchmark.h>
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>

#include <cstdlib>
#include <cstring>

#include "tests/softhsa/hsa_test_util.h"

namespace {

constexpr char kKernels[] = "tests/softhsa/libtest_kernels.so";

struct Runtime {
  hsa_agent_t gpu{0}, cpu{0};
  hsa_amd_memory_pool_t pool{0};
  hsa_test::Loaded code;
  uint64_t empty = 0;
  Runtime() {
    if (hsa_init() != HSA_STATUS_SUCCESS) abort();
    gpu = hsa_test::Agents(HSA_DEVICE_TYPE_GPU)[0];
    cpu = hsa_test::Agents(HSA_DEVICE_TYPE_CPU)[0];
    pool = hsa_test::KernargPool();
    if (hsa_test::LoadFile(kKernels, gpu, &code) != HSA_STATUS_SUCCESS) abort();
    empty = hsa_test::KernelObject(code.executable, gpu, "empty");
  }
};

Runtime& Rt() {
  static Runtime rt;
  return rt;
}

hsa_signal_value_t WaitZero(hsa_signal_t s) {
  return hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_EQ, 0, UINT64_MAX,
                                   HSA_WAIT_STATE_BLOCKED);
}

// Throughput: packets are written back to back; every `batch`-th carries
// the completion signal the producer then waits for (so the queue never
// overflows).
void BM_EmptyDispatch(benchmark::State& state) {
  Runtime& rt = Rt();
  const uint32_t batch = static_cast<uint32_t>(state.range(0));
  hsa_queue_t* q = nullptr;
  hsa_queue_create(rt.gpu, 4096, HSA_QUEUE_TYPE_SINGLE, nullptr, nullptr, 0, 0,
                   &q);
  {
    hsa_test::BatchedDispatcher dispatcher(q, rt.empty, batch);
    for (auto _ : state) dispatcher.Next();
  }
  state.SetItemsProcessed(state.iterations());
  hsa_queue_destroy(q);
}
BENCHMARK(BM_EmptyDispatch)->Arg(64)->Arg(1024)->UseRealTime();

// Latency: one dispatch, its completion signal, wait; repeat.
void BM_DispatchRoundTrip(benchmark::State& state) {
  Runtime& rt = Rt();
  hsa_queue_t* q = nullptr;
  hsa_queue_create(rt.gpu, 64, HSA_QUEUE_TYPE_SINGLE, nullptr, nullptr, 0, 0,
                   &q);
  hsa_signal_t done;
  hsa_signal_create(1, 0, nullptr, &done);
  auto p = hsa_test::DispatchPacket(rt.empty, nullptr, 1, 1, done);
  for (auto _ : state) {
    hsa_test::Submit(q, &p);
    WaitZero(done);
    hsa_signal_store_relaxed(done, 1);
  }
  hsa_queue_destroy(q);
  hsa_signal_destroy(done);
}
BENCHMARK(BM_DispatchRoundTrip)->UseRealTime();

bool Handler(hsa_signal_value_t, void* arg) {
  hsa_signal_store_screlease(*static_cast<hsa_signal_t*>(arg), 0);
  return false;
}

// From a signal store to the handler's own store seen by the storing thread.
void BM_AsyncHandlerLatency(benchmark::State& state) {
  Rt();
  hsa_signal_t trigger, back;
  hsa_signal_create(1, 0, nullptr, &trigger);
  hsa_signal_create(1, 0, nullptr, &back);
  for (auto _ : state) {
    hsa_amd_signal_async_handler(trigger, HSA_SIGNAL_CONDITION_EQ, 0, Handler,
                                 &back);
    hsa_signal_store_screlease(trigger, 0);
    WaitZero(back);
    hsa_signal_store_relaxed(back, 1);
    hsa_signal_store_relaxed(trigger, 1);
  }
  hsa_signal_destroy(trigger);
  hsa_signal_destroy(back);
}
BENCHMARK(BM_AsyncHandlerLatency)->UseRealTime();

void BM_AsyncCopy(benchmark::State& state) {
  Runtime& rt = Rt();
  const size_t size = static_cast<size_t>(state.range(0));
  void *src = nullptr, *dst = nullptr;
  hsa_amd_memory_pool_allocate(rt.pool, size, 0, &src);
  hsa_amd_memory_pool_allocate(hsa_test::Pools(rt.gpu)[0], size, 0, &dst);
  memset(src, 1, size);
  memset(dst, 2, size);
  hsa_signal_t done;
  hsa_signal_create(1, 0, nullptr, &done);
  for (auto _ : state) {
    hsa_amd_memory_async_copy(dst, rt.gpu, src, rt.cpu, size, 0, nullptr, done);
    WaitZero(done);
    hsa_signal_store_relaxed(done, 1);
  }
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(size));
  hsa_signal_destroy(done);
  hsa_amd_memory_pool_free(src);
  hsa_amd_memory_pool_free(dst);
}
BENCHMARK(BM_AsyncCopy)
    ->Arg(4 << 10)
    ->Arg(1 << 20)
    ->Arg(64 << 20)
    ->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
