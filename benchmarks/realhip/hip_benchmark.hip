// The tracer's added cost per kernel launch and per copy through the real
// HIP runtime (the installed libamdhip64 5.2.3) on softhsa. Built by hipcc;
// run with softhsa first on LD_LIBRARY_PATH, and, for the traced modes,
// libroctracer64.so.4 preloaded and as HSA_TOOLS_LIB (run_hip_benchmark.sh
// does both). Modes, in one process:
//   0 "off":    the tracer loaded (or not), nothing enabled;
//   1 "traced": HIP_API, HIP_OPS and HSA_OPS activity into a pool whose
//               callback only counts.
// The tracer's API is reached with dlsym, so the program runs without it
// (mode 1 then skips).
#include <benchmark/benchmark.h>
#include <dlfcn.h>
#include <hip/hip_runtime.h>
#include <hsa/hsa.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

__global__ void empty_kernel() {}

// Its host twin does nothing either: what is measured is HIP's launch, the
// runtime's dispatch and the tracer's part in both.
extern "C" void softhsa_twin__Z12empty_kernelv(
    const void*, const hsa_kernel_dispatch_packet_t*, uint32_t, uint32_t,
    uint32_t) {}

namespace {

constexpr int kBatch = 64;  // a stream synchronisation every kBatch

// The parts of roctracer.h used, by their C signatures.
struct Properties {
  uint32_t mode;
  size_t buffer_size;
  void* alloc_fun;
  void* alloc_arg;
  void (*buffer_callback_fun)(const char*, const char*, void*);
  void* buffer_callback_arg;
};
using OpenPool = int (*)(const Properties*, void**);
using Enable = int (*)(uint32_t, void*);
using Disable = int (*)(uint32_t);
using Flush = int (*)(void*);
constexpr uint32_t kHsaOps = 1, kHipOps = 2, kHipApi = 3;
constexpr size_t kRecordSize = 64;

std::atomic<uint64_t> g_records{0};
void Count(const char* begin, const char* end, void*) {
  g_records += (end - begin) / kRecordSize;
}

struct Tracer {
  void* pool = nullptr;
  Enable enable = nullptr;
  Disable disable = nullptr;
  Flush flush = nullptr;
  Tracer() {
    void* lib = dlopen("libroctracer64.so.4", RTLD_NOW | RTLD_NOLOAD);
    if (lib == nullptr) return;
    auto open = reinterpret_cast<OpenPool>(dlsym(lib, "roctracer_open_pool_expl"));
    enable = reinterpret_cast<Enable>(
        dlsym(lib, "roctracer_enable_domain_activity_expl"));
    disable = reinterpret_cast<Disable>(
        dlsym(lib, "roctracer_disable_domain_activity"));
    flush = reinterpret_cast<Flush>(dlsym(lib, "roctracer_flush_activity_expl"));
    Properties p{};
    p.buffer_size = 1 << 20;
    p.buffer_callback_fun = &Count;
    if (open == nullptr || open(&p, &pool) != 0) pool = nullptr;
  }
  bool Set(bool on) {
    if (pool == nullptr) return !on;
    for (uint32_t d : {kHipApi, kHipOps, kHsaOps}) {
      if ((on ? enable(d, pool) : disable(d)) != 0) return false;
    }
    return true;
  }
};

Tracer& TheTracer() {
  static Tracer* t = new Tracer;
  return *t;
}

#define CHECK(call)                                              \
  do {                                                           \
    if ((call) != hipSuccess) {                                  \
      fprintf(stderr, "%s failed\n", #call);                     \
      abort();                                                   \
    }                                                            \
  } while (0)

// Sets the mode; false (the benchmark skips) when it cannot be had.
bool Mode(benchmark::State& state) {
  const bool on = state.range(0) == 1;
  if (!TheTracer().Set(on)) {
    state.SkipWithError(on ? "the tracer is not loaded" : "cannot disable");
    return false;
  }
  state.SetLabel(on ? "traced" : "off");
  return true;
}

void Finish(benchmark::State& state, uint64_t records_before) {
  if (TheTracer().pool != nullptr) TheTracer().flush(TheTracer().pool);
  state.counters["records_per_op"] = benchmark::Counter(
      static_cast<double>(g_records - records_before) /
      static_cast<double>(state.iterations()));
  TheTracer().Set(false);
}

void BM_KernelLaunch(benchmark::State& state) {
  if (!Mode(state)) return;
  hipStream_t stream;
  CHECK(hipStreamCreate(&stream));
  uint64_t before = g_records, n = 0;
  for (auto _ : state) {
    hipLaunchKernelGGL(empty_kernel, dim3(1), dim3(64), 0, stream);
    if (++n % kBatch == 0) CHECK(hipStreamSynchronize(stream));
  }
  CHECK(hipStreamSynchronize(stream));
  Finish(state, before);
  CHECK(hipStreamDestroy(stream));
}
BENCHMARK(BM_KernelLaunch)->Arg(0)->Arg(1)->UseRealTime();
// The CPU time of every thread of the process (HIP's, softhsa's, the
// tracer's completion thread): what tracing costs the machine per launch,
// not only the calling thread. Under load it varies less than wall time.
BENCHMARK(BM_KernelLaunch)
    ->Name("BM_KernelLaunch_ProcessCPU")
    ->Arg(0)
    ->Arg(1)
    ->MeasureProcessCPUTime();

void BM_CopyAsync(benchmark::State& state) {
  if (!Mode(state)) return;
  hipStream_t stream;
  CHECK(hipStreamCreate(&stream));
  void *host, *device;
  CHECK(hipHostMalloc(&host, 64));
  CHECK(hipMalloc(&device, 64));
  uint64_t before = g_records, n = 0;
  for (auto _ : state) {
    CHECK(hipMemcpyAsync(device, host, 64, hipMemcpyHostToDevice, stream));
    if (++n % kBatch == 0) CHECK(hipStreamSynchronize(stream));
  }
  CHECK(hipStreamSynchronize(stream));
  Finish(state, before);
  CHECK(hipFree(device));
  CHECK(hipHostFree(host));
  CHECK(hipStreamDestroy(stream));
}
BENCHMARK(BM_CopyAsync)->Arg(0)->Arg(1)->UseRealTime();
BENCHMARK(BM_CopyAsync)
    ->Name("BM_CopyAsync_ProcessCPU")
    ->Arg(0)
    ->Arg(1)
    ->MeasureProcessCPUTime();

}  // namespace

BENCHMARK_MAIN();
