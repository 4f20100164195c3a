// Per-call cost on the path the GOT patcher creates: this binary links the
// runtimes itself, and libroctracer64.so is dlopen'ed (RTLD_LOCAL) at start,
// as a profiler arrives in PyTorch's layout. Its calls then reach the stubs
// through its own patched GOT slots. Modes as in shared_library_benchmark
// (0 nothing enabled, 1 empty callback, 2 activity into a pool), against the
// same function called directly through the runtime's handle.
//   bazel run --config=opt //benchmarks/intercept:dlopen_layout_benchmark --
//       --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>
#include <dlfcn.h>
#include <hip/hip_runtime_api.h>
#include <hsa/hsa.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace {

constexpr uint32_t kHsaApi = 0;  // ACTIVITY_DOMAIN_HSA_API
constexpr uint32_t kHipApi = 3;  // ACTIVITY_DOMAIN_HIP_API
enum Mode { kNothing = 0, kCallback = 1, kActivity = 2 };

using Callback = void (*)(uint32_t, uint32_t, const void*, void*);
using BufferCallback = void (*)(const char*, const char*, void*);
// roctracer_properties_t's leading members (roctracer.h).
struct Properties {
  uint32_t mode;
  size_t buffer_size;
  void* alloc_fun;
  void* alloc_arg;
  BufferCallback buffer_callback_fun;
  void* buffer_callback_arg;
};

struct Api {
  int (*enable_op_callback)(uint32_t, uint32_t, Callback, void*);
  int (*disable_op_callback)(uint32_t, uint32_t);
  int (*open_pool)(const Properties*);
  int (*close_pool)();
  int (*enable_op_activity)(uint32_t, uint32_t);
  int (*disable_op_activity)(uint32_t, uint32_t);
  int (*op_code)(uint32_t, const char*, uint32_t*, uint32_t*);
} g_api;

const char* g_library = "libroctracer64.so";

template <class Fn>
void Bind(void* h, Fn* fn, const char* name) {
  *fn = reinterpret_cast<Fn>(dlsym(h, name));
  if (*fn == nullptr) {
    std::fprintf(stderr, "%s: %s\n", name, dlerror());
    std::exit(1);
  }
}

void LoadTracer() {
  void* h = dlopen(g_library, RTLD_NOW | RTLD_LOCAL);
  if (h == nullptr) {
    std::fprintf(stderr, "%s\n", dlerror());
    std::exit(1);
  }
  Bind(h, &g_api.enable_op_callback, "roctracer_enable_op_callback");
  Bind(h, &g_api.disable_op_callback, "roctracer_disable_op_callback");
  Bind(h, &g_api.open_pool, "roctracer_open_pool");
  Bind(h, &g_api.close_pool, "roctracer_close_pool");
  Bind(h, &g_api.enable_op_activity, "roctracer_enable_op_activity");
  Bind(h, &g_api.disable_op_activity, "roctracer_disable_op_activity");
  Bind(h, &g_api.op_code, "roctracer_op_code");
}

void EmptyCallback(uint32_t, uint32_t, const void*, void*) {}
void EmptyBuffer(const char*, const char*, void*) {}

void Check(int status) {
  if (status != 0) std::abort();
}

class Tracing {
 public:
  Tracing(uint32_t domain, const char* name, int mode)
      : domain_(domain), mode_(mode) {
    Check(g_api.op_code(domain, name, &op_, nullptr));
    if (mode_ == kCallback) {
      Check(g_api.enable_op_callback(domain_, op_, &EmptyCallback, nullptr));
    } else if (mode_ == kActivity) {
      Properties p{};
      p.buffer_size = 1 << 20;
      p.buffer_callback_fun = &EmptyBuffer;
      Check(g_api.open_pool(&p));
      Check(g_api.enable_op_activity(domain_, op_));
    }
  }
  ~Tracing() {
    if (mode_ == kCallback) {
      Check(g_api.disable_op_callback(domain_, op_));
    } else if (mode_ == kActivity) {
      Check(g_api.disable_op_activity(domain_, op_));
      Check(g_api.close_pool());
    }
  }

 private:
  uint32_t domain_;
  uint32_t op_ = 0;
  int mode_;
};

template <class Fn>
Fn Direct(const char* library, const char* name) {
  void* handle = dlopen(library, RTLD_NOW | RTLD_NOLOAD);
  if (handle == nullptr) std::abort();
  return reinterpret_cast<Fn>(dlsym(handle, name));
}

void BM_HsaStatusString_Direct(benchmark::State& state) {
  auto* volatile fn = Direct<hsa_status_t (*)(hsa_status_t, const char**)>(
      "libhsa-runtime64.so.1", "hsa_status_string");
  const char* text = nullptr;
  for (auto _ : state) benchmark::DoNotOptimize(fn(HSA_STATUS_ERROR, &text));
}
BENCHMARK(BM_HsaStatusString_Direct);

// A plain call: through this binary's PLT/GOT slot, patched to the stub.
void BM_HsaStatusString_Patched(benchmark::State& state) {
  Tracing tracing(kHsaApi, "hsa_status_string",
                  static_cast<int>(state.range(0)));
  const char* text = nullptr;
  for (auto _ : state) {
    benchmark::DoNotOptimize(hsa_status_string(HSA_STATUS_ERROR, &text));
  }
}
BENCHMARK(BM_HsaStatusString_Patched)
    ->Arg(kNothing)
    ->Arg(kCallback)
    ->Arg(kActivity);

void BM_HipGetErrorString_Direct(benchmark::State& state) {
  auto* volatile fn = Direct<const char* (*)(hipError_t)>("libamdhip64.so.5",
                                                          "hipGetErrorString");
  for (auto _ : state) benchmark::DoNotOptimize(fn(hipErrorInvalidValue));
}
BENCHMARK(BM_HipGetErrorString_Direct);

void BM_HipGetErrorString_Patched(benchmark::State& state) {
  Tracing tracing(kHipApi, "hipGetErrorString",
                  static_cast<int>(state.range(0)));
  for (auto _ : state) {
    benchmark::DoNotOptimize(hipGetErrorString(hipErrorInvalidValue));
  }
}
BENCHMARK(BM_HipGetErrorString_Patched)
    ->Arg(kNothing)
    ->Arg(kCallback)
    ->Arg(kActivity);

}  // namespace

int main(int argc, char** argv) {
  if (const char* lib = std::getenv("ROCTRACER_LIBRARY")) g_library = lib;
  // HIP in use before the tracer arrives.
  benchmark::DoNotOptimize(hipGetErrorString(hipSuccess));
  LoadTracer();
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  return 0;
}
