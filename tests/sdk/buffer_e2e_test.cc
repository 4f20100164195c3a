// End to end: a tool in this program (found by libroctracer64.so's scan at
// the runtimes' first call, through -rdynamic) buffer-traces real HIP 5.2.3 and
// HSA calls intercepted by the library, and callback-traces one of them: every
// call gives exactly one buffer record, carrying the correlation ID its
// callback records carry.
#include <hip/hip_runtime_api.h>
#include <hsa/hsa.h>

#include <map>
#include <mutex>
#include <vector>

#include "gtest/gtest.h"
#include "rocprofiler-sdk/rocprofiler.h"
#include "tests/sdk/tool_configure.h"

namespace {

std::mutex g_mutex;
std::vector<rocprofiler_buffer_tracing_hip_api_record_t> g_records;
std::vector<uint64_t> g_callback_ids;  // hipGetErrorString EXIT
rocprofiler_buffer_id_t g_buffer{0};
int g_initialized = 0;

void Deliver(rocprofiler_context_id_t, rocprofiler_buffer_id_t,
             rocprofiler_record_header_t** headers, size_t n, void*, uint64_t) {
  std::lock_guard<std::mutex> lock(g_mutex);
  for (size_t i = 0; i < n; ++i) {
    g_records.push_back(
        *static_cast<rocprofiler_buffer_tracing_hip_api_record_t*>(
            headers[i]->payload));
  }
}

void Callback(rocprofiler_callback_tracing_record_t r, rocprofiler_user_data_t*,
              void*) {
  if (r.phase != ROCPROFILER_CALLBACK_PHASE_EXIT) return;
  std::lock_guard<std::mutex> lock(g_mutex);
  g_callback_ids.push_back(r.correlation_id.internal);
}

int Initialize(rocprofiler_client_finalize_t, void*) {
  rocprofiler_context_id_t ctx{0};
  if (rocprofiler_create_context(&ctx) != ROCPROFILER_STATUS_SUCCESS ||
      rocprofiler_create_buffer(
          ctx, 1 << 20, 1 << 16, ROCPROFILER_BUFFER_POLICY_LOSSLESS, &Deliver,
          nullptr, &g_buffer) != ROCPROFILER_STATUS_SUCCESS ||
      rocprofiler_configure_buffer_tracing_service(
          ctx, ROCPROFILER_BUFFER_TRACING_HIP_RUNTIME_API, nullptr, 0,
          g_buffer) != ROCPROFILER_STATUS_SUCCESS ||
      rocprofiler_configure_buffer_tracing_service(
          ctx, ROCPROFILER_BUFFER_TRACING_HSA_CORE_API, nullptr, 0, g_buffer) !=
          ROCPROFILER_STATUS_SUCCESS) {
    return 1;
  }
  const rocprofiler_tracing_operation_t op[] = {
      ROCPROFILER_HIP_RUNTIME_API_ID_hipGetErrorString};
  if (rocprofiler_configure_callback_tracing_service(
          ctx, ROCPROFILER_CALLBACK_TRACING_HIP_RUNTIME_API, op, 1, &Callback,
          nullptr) != ROCPROFILER_STATUS_SUCCESS) {
    return 1;
  }
  g_initialized = 1;
  return rocprofiler_start_context(ctx) == ROCPROFILER_STATUS_SUCCESS ? 0 : 1;
}

}  // namespace

extern "C" __attribute__((visibility("default")))
rocprofiler_tool_configure_result_t*
rocprofiler_configure(uint32_t, const char*, uint32_t,
                      rocprofiler_client_id_t* id) {
  return sdk_test::Configure<&Initialize>(id, "buffer_e2e_test");
}

namespace {

std::vector<rocprofiler_buffer_tracing_hip_api_record_t> Take() {
  rocprofiler_flush_buffer(g_buffer);
  std::lock_guard<std::mutex> lock(g_mutex);
  std::vector<rocprofiler_buffer_tracing_hip_api_record_t> out;
  out.swap(g_records);
  return out;
}

TEST(BufferEndToEnd, EveryRealHipCallGivesOneRecordWithItsCorrelationId) {
  // The tool is registered at the runtimes' first call, as rocprofiler-sdk
  // registers tools when a runtime initializes.
  EXPECT_EQ(g_initialized, 0);
  hipGetErrorString(hipSuccess);
  ASSERT_EQ(g_initialized, 1);
  Take();
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    g_callback_ids.clear();
  }
  constexpr int kCalls = 1000;
  for (int i = 0; i < kCalls; ++i) hipGetErrorString(hipErrorInvalidValue);
  std::vector<uint64_t> ids;
  for (const auto& r : Take()) {
    if (r.kind == ROCPROFILER_BUFFER_TRACING_HIP_RUNTIME_API &&
        r.operation == ROCPROFILER_HIP_RUNTIME_API_ID_hipGetErrorString) {
      ids.push_back(r.correlation_id.internal);
      EXPECT_LE(r.start_timestamp, r.end_timestamp);
    }
  }
  ASSERT_EQ(ids.size(), static_cast<size_t>(kCalls));
  std::lock_guard<std::mutex> lock(g_mutex);
  EXPECT_EQ(ids, g_callback_ids);
}

TEST(BufferEndToEnd, EveryRealHsaCallGivesOneRecord) {
  Take();
  constexpr int kCalls = 100;
  uint64_t ts = 0;
  for (int i = 0; i < kCalls; ++i) {
    hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP, &ts);
  }
  int n = 0;
  for (const auto& r : Take()) {
    n += r.kind == ROCPROFILER_BUFFER_TRACING_HSA_CORE_API &&
         r.operation == ROCPROFILER_HSA_CORE_API_ID_hsa_system_get_info;
  }
  EXPECT_EQ(n, kCalls);
}

}  // namespace
