// The product as users run it: libroctracer64.so linked ahead of the ROCm
// runtimes, so this binary's hsa_status_string / hipGetErrorString are the
// library's interposing stubs, configured through the public roctracer API
// only. Each traced mode is compared with the same function called directly
// through the runtime's own handle, in the same run.
//   bazel build --config=opt //benchmarks/intercept:shared_library_benchmark
//   ./bazel-bin/benchmarks/intercept/shared_library_benchmark
//       --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>
#include <dlfcn.h>
#include <hip/hip_runtime_api.h>
#include <hsa/hsa.h>
#include <roctracer.h>
#include <roctracer_hip.h>
#include <roctracer_hsa.h>

#include <cstdlib>

#include "runtime/private/tool_activity.h"

namespace {

// kActivityRead: kActivity with a buffer callback that reads every record,
// as a consumer does (roctrace's): the buffers' lines are then in another
// core's cache when the calling thread writes them again.
enum Mode {
  kNothing = 0,
  kCallback = 1,
  kActivity = 2,
  kTool = 3,
  kActivityRead = 4
};

void EmptyCallback(uint32_t, uint32_t, const void*, void*) {}
void EmptyBuffer(const char*, const char*, void*) {}
void ReadingBuffer(const char* begin, const char* end, void*) {
  uint64_t sum = 0;
  for (const char* p = begin; p < end; p += sizeof(activity_record_t)) {
    sum += reinterpret_cast<const activity_record_t*>(p)->correlation_id;
  }
  benchmark::DoNotOptimize(sum);
}

// Enables `mode` for one op for the duration of a benchmark.
class Tracing {
 public:
  Tracing(activity_domain_t domain, uint32_t op, int mode)
      : domain_(domain), op_(op), mode_(mode) {
    if (mode_ == kCallback) {
      Check(
          roctracer_enable_op_callback(domain_, op_, &EmptyCallback, nullptr));
    } else if (mode_ == kActivity || mode_ == kActivityRead) {
      roctracer_properties_t properties{};
      properties.buffer_size = 1 << 20;
      properties.buffer_callback_fun =
          mode_ == kActivity ? &EmptyBuffer : &ReadingBuffer;
      Check(roctracer_open_pool(&properties));
      Check(roctracer_enable_op_activity(domain_, op_));
    } else if (mode_ == kTool) {
      roctracer_properties_t properties{};
      properties.buffer_size = 1 << 20;
      properties.buffer_callback_fun = &EmptyBuffer;
      Check(roctracer_open_pool_expl(&properties, &pool_));
      Check(roctracer_internal_tool_enable_op_activity(domain_, op_, pool_));
      Check(roctracer_internal_tool_enable_op_callback(
          domain_, op_, &EmptyCallback, nullptr));
    }
  }
  ~Tracing() {
    if (mode_ == kCallback) {
      Check(roctracer_disable_op_callback(domain_, op_));
    } else if (mode_ == kActivity || mode_ == kActivityRead) {
      Check(roctracer_disable_op_activity(domain_, op_));
      Check(roctracer_close_pool());
    } else if (mode_ == kTool) {
      Check(roctracer_internal_tool_disable_op_callback(domain_, op_));
      Check(roctracer_close_pool_expl(pool_));  // disables its activity
    }
  }

 private:
  static void Check(roctracer_status_t status) {
    if (status != ROCTRACER_STATUS_SUCCESS) std::abort();
  }
  activity_domain_t domain_;
  uint32_t op_;
  int mode_;
  roctracer_pool_t* pool_ = nullptr;
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

void BM_HsaStatusString_Traced(benchmark::State& state) {
  Tracing tracing(ACTIVITY_DOMAIN_HSA_API, HSA_API_ID_hsa_status_string,
                  static_cast<int>(state.range(0)));
  auto* volatile fn = &hsa_status_string;  // the library's stub
  const char* text = nullptr;
  for (auto _ : state) benchmark::DoNotOptimize(fn(HSA_STATUS_ERROR, &text));
}
BENCHMARK(BM_HsaStatusString_Traced)
    ->Arg(kNothing)
    ->Arg(kCallback)
    ->Arg(kActivity)
    ->Arg(kTool);

void BM_HipGetErrorString_Direct(benchmark::State& state) {
  auto* volatile fn = Direct<const char* (*)(hipError_t)>("libamdhip64.so.5",
                                                          "hipGetErrorString");
  for (auto _ : state) benchmark::DoNotOptimize(fn(hipErrorInvalidValue));
}
BENCHMARK(BM_HipGetErrorString_Direct);

void BM_HipGetErrorString_Traced(benchmark::State& state) {
  Tracing tracing(ACTIVITY_DOMAIN_HIP_API, HIP_API_ID_hipGetErrorString,
                  static_cast<int>(state.range(0)));
  auto* volatile fn = &hipGetErrorString;
  for (auto _ : state) benchmark::DoNotOptimize(fn(hipErrorInvalidValue));
}
BENCHMARK(BM_HipGetErrorString_Traced)
    ->Arg(kNothing)
    ->Arg(kCallback)
    ->Arg(kActivity)
    ->Arg(kTool)
    ->Arg(kActivityRead);

}  // namespace
