// Cost of the SDK front end's consumer per traced call, invoked directly the
// way the interception layer invokes it (runtime/intercept/api_consumer.h),
// next to the cheap real calls it would wrap. Run with:
//   bazel run --config=opt //benchmarks/sdk:consumer_benchmark --
//     --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>
#include <dlfcn.h>
#include <hip/hip_runtime_api.h>
#include <hsa/hsa.h>

#include <cstring>

#include "ext/prof_protocol.h"
#include "hip_api_data.h"
#include "hsa_api_data.h"
#include "rocprofiler-sdk/rocprofiler.h"
#include "tests/sdk/fake_consumer_seam.h"
#include "tests/sdk/tool_configure.h"

namespace {

rocprofiler_context_id_t g_ctx;

void EmptyCallback(rocprofiler_callback_tracing_record_t,
                   rocprofiler_user_data_t*, void*) {}

int Init(rocprofiler_client_finalize_t, void*) {
  rocprofiler_create_context(&g_ctx);
  // hsa_status_string and hipGetErrorString only: other ops exercise the
  // "consumer called for an op no context traces" path.
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
  return rocprofiler_start_context(g_ctx);
}

struct Registered {
  Registered() {
    rocprofiler_force_configure(&sdk_test::UnnamedConfigure<&Init>);
  }
} g_registered;

using StatusStringFn = hsa_status_t (*)(hsa_status_t, const char**);
using ErrorStringFn = const char* (*)(hipError_t);

StatusStringFn RealStatusString() {
  void* lib = dlopen("libhsa-runtime64.so.1", RTLD_NOW | RTLD_NOLOAD);
  return reinterpret_cast<StatusStringFn>(dlsym(lib, "hsa_status_string"));
}
ErrorStringFn RealErrorString() {
  void* lib = dlopen("libamdhip64.so.5", RTLD_NOW | RTLD_NOLOAD);
  return reinterpret_cast<ErrorStringFn>(dlsym(lib, "hipGetErrorString"));
}

void BM_HsaStatusStringDirect(benchmark::State& state) {
  StatusStringFn volatile fn = RealStatusString();
  const char* s = nullptr;
  for (auto _ : state) benchmark::DoNotOptimize(fn(HSA_STATUS_ERROR, &s));
}
BENCHMARK(BM_HsaStatusStringDirect);

// What a traced call adds on the SDK's side: data filled as a stub does,
// the consumer at ENTER and EXIT around the real call, one context, empty
// tool callback. The interception layer's own cost (correlation ID, per-op
// check) is not included.
void BM_HsaStatusStringThroughConsumer(benchmark::State& state) {
  StatusStringFn volatile fn = RealStatusString();
  roctracer::ApiConsumerFn consume = fake_seam::Consumer();
  const char* s = nullptr;
  uint64_t corr = 0;
  for (auto _ : state) {
    hsa_api_data_t d;
    d.args.hsa_status_string.status = HSA_STATUS_ERROR;
    d.args.hsa_status_string.status_string = &s;
    roctracer::ApiCallInfo info{ACTIVITY_DOMAIN_HSA_API,
                                HSA_API_ID_hsa_status_string,
                                ACTIVITY_API_PHASE_ENTER,
                                ++corr,
                                0,
                                &d};
    consume(info);
    d.hsa_status_t_retval = fn(HSA_STATUS_ERROR, &s);
    info.phase = ACTIVITY_API_PHASE_EXIT;
    consume(info);
    benchmark::DoNotOptimize(d.hsa_status_t_retval);
  }
}
BENCHMARK(BM_HsaStatusStringThroughConsumer);

// The consumer alone (ENTER + EXIT) for one HSA op, no real call.
void ConsumerEnterExit(benchmark::State& state, uint32_t op) {
  roctracer::ApiConsumerFn consume = fake_seam::Consumer();
  hsa_api_data_t d;
  std::memset(&d, 0, sizeof(d));
  uint64_t corr = 0;
  for (auto _ : state) {
    roctracer::ApiCallInfo info{
        ACTIVITY_DOMAIN_HSA_API, op, ACTIVITY_API_PHASE_ENTER, ++corr, 0, &d};
    consume(info);
    info.phase = ACTIVITY_API_PHASE_EXIT;
    consume(info);
  }
}

// An op an SDK context traces.
void BM_ConsumerEnterExitHsa(benchmark::State& state) {
  ConsumerEnterExit(state, HSA_API_ID_hsa_status_string);
}
BENCHMARK(BM_ConsumerEnterExitHsa);

// An op roctracer enabled but no SDK context traces.
void BM_ConsumerEnterExitUntraced(benchmark::State& state) {
  ConsumerEnterExit(state, HSA_API_ID_hsa_system_get_info);
}
BENCHMARK(BM_ConsumerEnterExitUntraced);

void BM_HipGetErrorStringDirect(benchmark::State& state) {
  ErrorStringFn volatile fn = RealErrorString();
  for (auto _ : state) benchmark::DoNotOptimize(fn(hipErrorInvalidValue));
}
BENCHMARK(BM_HipGetErrorStringDirect);

// HIP's payload copy is larger (the args union spans every HIP API).
void BM_HipGetErrorStringThroughConsumer(benchmark::State& state) {
  ErrorStringFn volatile fn = RealErrorString();
  roctracer::ApiConsumerFn consume = fake_seam::Consumer();
  union Storage {
    Storage() {}
    hip_api_data_t d;
  } storage;
  hip_api_data_t& d = storage.d;
  uint64_t corr = 0;
  for (auto _ : state) {
    d.args.hipGetErrorString.hipError = hipErrorInvalidValue;
    roctracer::ApiCallInfo info{ACTIVITY_DOMAIN_HIP_API,
                                HIP_API_ID_hipGetErrorString,
                                ACTIVITY_API_PHASE_ENTER,
                                ++corr,
                                0,
                                &d};
    consume(info);
    d.const_char_ptr_retval = fn(hipErrorInvalidValue);
    info.phase = ACTIVITY_API_PHASE_EXIT;
    consume(info);
    benchmark::DoNotOptimize(d.const_char_ptr_retval);
  }
}
BENCHMARK(BM_HipGetErrorStringThroughConsumer);

}  // namespace
