// End to end on the record path: a tool in this program that only
// buffer-traces (HIP runtime and HSA core API kinds, no callback), so the
// library's hook records each call once at EXIT (sdk/README.md, the record
// path), on real HIP 5.2.3 and HSA calls: one record per call with its own
// correlation ID, the thread's ID and external ID, ordered timestamps, and
// HIP's own nested HSA calls carrying the HIP call as their ancestor.
#include <hip/hip_runtime_api.h>
#include <hsa/hsa.h>

#include <vector>

#include "gtest/gtest.h"
#include "rocprofiler-sdk/rocprofiler.h"
#include "tests/sdk/api_record_sink.h"
#include "tests/sdk/tool_configure.h"

namespace {

sdk_test::ApiRecordSink g_sink;
rocprofiler_context_id_t g_context{0};
int g_initialized = 0;

int Initialize(rocprofiler_client_finalize_t, void*) {
  if (rocprofiler_create_context(&g_context) != ROCPROFILER_STATUS_SUCCESS ||
      !g_sink.Create(g_context)) {
    return 1;
  }
  g_initialized = 1;
  return rocprofiler_start_context(g_context) == ROCPROFILER_STATUS_SUCCESS ? 0
                                                                            : 1;
}

}  // namespace

SDK_TEST_DEFINE_ROCPROFILER_CONFIGURE(Initialize, "record_path_e2e_test")

namespace {

std::vector<sdk_test::ApiRecordSink::Record> Take() { return g_sink.Take(); }

TEST(RecordPathEndToEnd, EveryCallGivesOneRecordWithItsIds) {
  EXPECT_EQ(g_initialized, 0);
  hipGetErrorString(hipSuccess);  // registers the tool
  ASSERT_EQ(g_initialized, 1);
  Take();
  rocprofiler_thread_id_t tid = 0;
  ASSERT_EQ(rocprofiler_get_thread_id(&tid), ROCPROFILER_STATUS_SUCCESS);
  ASSERT_EQ(rocprofiler_push_external_correlation_id(
                g_context, tid, rocprofiler_user_data_t{4242}),
            ROCPROFILER_STATUS_SUCCESS);
  constexpr int kCalls = 1000;
  for (int i = 0; i < kCalls; ++i) hipGetErrorString(hipErrorInvalidValue);
  rocprofiler_user_data_t popped{0};
  ASSERT_EQ(rocprofiler_pop_external_correlation_id(g_context, tid, &popped),
            ROCPROFILER_STATUS_SUCCESS);
  hipGetErrorString(hipErrorInvalidValue);
  const auto records = Take();
  ASSERT_EQ(records.size(), static_cast<size_t>(kCalls + 1));
  for (size_t i = 0; i < records.size(); ++i) {
    const auto& r = records[i];
    EXPECT_EQ(r.size, sizeof(r));
    EXPECT_EQ(r.kind, ROCPROFILER_BUFFER_TRACING_HIP_RUNTIME_API);
    EXPECT_EQ(r.operation, ROCPROFILER_HIP_RUNTIME_API_ID_hipGetErrorString);
    EXPECT_EQ(r.thread_id, tid);
    EXPECT_EQ(r.correlation_id.ancestor, 0u);
    EXPECT_EQ(r.correlation_id.external.value, i < kCalls ? 4242u : 0u);
    EXPECT_NE(r.start_timestamp, 0u);
    EXPECT_LE(r.start_timestamp, r.end_timestamp);
    if (i > 0) {
      EXPECT_GT(r.correlation_id.internal,
                records[i - 1].correlation_id.internal);
      EXPECT_LE(records[i - 1].end_timestamp, r.start_timestamp);
    }
  }
}

// hipGetDeviceCount (no GPU here) makes HIP initialize, which calls HSA:
// each HSA call inside it has the HIP call as its ancestor and lies within
// its span.
TEST(RecordPathEndToEnd, HipsOwnHsaCallsHaveTheHipCallAsAncestor) {
  Take();
  int count = -1;
  (void)hipGetDeviceCount(&count);
  const auto records = Take();
  const rocprofiler_buffer_tracing_hip_api_record_t* hip = nullptr;
  for (const auto& r : records) {
    if (r.kind == ROCPROFILER_BUFFER_TRACING_HIP_RUNTIME_API &&
        r.operation == ROCPROFILER_HIP_RUNTIME_API_ID_hipGetDeviceCount) {
      hip = &r;
    }
  }
  ASSERT_NE(hip, nullptr);
  EXPECT_EQ(hip->correlation_id.ancestor, 0u);
  int nested = 0;
  for (const auto& r : records) {
    if (r.kind != ROCPROFILER_BUFFER_TRACING_HSA_CORE_API) continue;
    ++nested;
    EXPECT_EQ(r.correlation_id.ancestor, hip->correlation_id.internal);
    EXPECT_GT(r.correlation_id.internal, hip->correlation_id.internal);
    EXPECT_LE(hip->start_timestamp, r.start_timestamp);
    EXPECT_LE(r.end_timestamp, hip->end_timestamp);
  }
  EXPECT_GT(nested, 0) << "HIP made no HSA call: nothing nested was checked";
}

}  // namespace
