// The short path of calls that are only buffer-traced
// (ConsumeBufferedFirst, sdk/dispatch.h), driven through the consumer seam:
// the records it writes (correlation, ancestor and external IDs, times),
// calls nested past the frame stack, and calls whose ENTER and EXIT go
// through different consumers because a callback context started or stopped
// in between.
#include <cstring>
#include <mutex>
#include <vector>

#include "ext/prof_protocol.h"
#include "gtest/gtest.h"
#include "hsa_api_data.h"
#include "rocprofiler-sdk/rocprofiler.h"
#include "runtime/intercept/trace_guard.h"
#include "sdk/dispatch.h"
#include "sdk/thread_state.h"
#include "tests/sdk/fake_consumer_seam.h"
#include "tests/sdk/run_with_tool.h"
#include "tests/sdk/tool_configure.h"

namespace {

constexpr uint32_t kHsa = ACTIVITY_DOMAIN_HSA_API;
constexpr uint32_t kEnter = ACTIVITY_API_PHASE_ENTER;
constexpr uint32_t kExit = ACTIVITY_API_PHASE_EXIT;

std::mutex g_mutex;
std::vector<rocprofiler_buffer_tracing_hsa_api_record_t> g_records;
std::vector<rocprofiler_callback_tracing_record_t> g_callbacks;

rocprofiler_context_id_t g_buffered{0}, g_callback{0}, g_late{0};
rocprofiler_buffer_id_t g_buffer{0}, g_late_buffer{0};

void BufferCallback(rocprofiler_context_id_t, rocprofiler_buffer_id_t,
                    rocprofiler_record_header_t** headers, size_t n, void*,
                    uint64_t) {
  std::lock_guard<std::mutex> lock(g_mutex);
  for (size_t i = 0; i < n; ++i) {
    rocprofiler_buffer_tracing_hsa_api_record_t r;
    std::memcpy(&r, headers[i]->payload, sizeof(r));
    g_records.push_back(r);
  }
}

void Callback(rocprofiler_callback_tracing_record_t r, rocprofiler_user_data_t*,
              void*) {
  std::lock_guard<std::mutex> lock(g_mutex);
  g_callbacks.push_back(r);
}

int ToolInit(rocprofiler_client_finalize_t, void*) {
  EXPECT_EQ(rocprofiler_create_context(&g_buffered),
            ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(rocprofiler_create_context(&g_callback),
            ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(rocprofiler_create_buffer(g_buffered, 1 << 16, 1 << 12,
                                      ROCPROFILER_BUFFER_POLICY_LOSSLESS,
                                      &BufferCallback, nullptr, &g_buffer),
            ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(rocprofiler_configure_buffer_tracing_service(
                g_buffered, ROCPROFILER_BUFFER_TRACING_HSA_CORE_API, nullptr, 0,
                g_buffer),
            ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(rocprofiler_configure_callback_tracing_service(
                g_callback, ROCPROFILER_CALLBACK_TRACING_HSA_CORE_API, nullptr,
                0, &Callback, nullptr),
            ROCPROFILER_STATUS_SUCCESS);
  // Buffer-traces the same kind; started only by the test of a context
  // started mid-call.
  EXPECT_EQ(rocprofiler_create_context(&g_late), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(rocprofiler_create_buffer(g_late, 1 << 16, 1 << 12,
                                      ROCPROFILER_BUFFER_POLICY_LOSSLESS,
                                      &BufferCallback, nullptr, &g_late_buffer),
            ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(rocprofiler_configure_buffer_tracing_service(
                g_late, ROCPROFILER_BUFFER_TRACING_HSA_CORE_API, nullptr, 0,
                g_late_buffer),
            ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(rocprofiler_start_context(g_buffered), ROCPROFILER_STATUS_SUCCESS);
  return 0;
}

rocprofiler_tool_configure_result_t* ToolConfigure(
    uint32_t, const char*, uint32_t, rocprofiler_client_id_t* id) {
  return sdk_test::Configure<&ToolInit>(id, "buffered_only_test");
}

hsa_api_data_t g_data{};

void Enter(uint32_t op, uint64_t id) {
  fake_seam::Call(kHsa, op, kEnter, id, &g_data);
}
void Exit(uint32_t op, uint64_t id) {
  fake_seam::Call(kHsa, op, kExit, id, &g_data);
}

// A call the interception layer hands the consumer at both phases (it is
// traced by roctracer too): the SDK's framed path, record consumer or not.
void EnterFramed(uint32_t op, uint64_t id) {
  fake_seam::CallUnfiltered(kHsa, op, kEnter, id, &g_data);
}
void ExitFramed(uint32_t op, uint64_t id) {
  fake_seam::CallUnfiltered(kHsa, op, kExit, id, &g_data);
}

std::vector<rocprofiler_buffer_tracing_hsa_api_record_t> Flushed() {
  EXPECT_EQ(rocprofiler_flush_buffer(g_buffer), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(rocprofiler_flush_buffer(g_late_buffer),
            ROCPROFILER_STATUS_SUCCESS);
  std::lock_guard<std::mutex> lock(g_mutex);
  std::vector<rocprofiler_buffer_tracing_hsa_api_record_t> out;
  out.swap(g_records);
  return out;
}

TEST(BufferedOnly, NestedCallsCarryTheirAncestorAndExternalIds) {
  Flushed();
  ASSERT_EQ(fake_seam::Consumer(), &rocprofiler_sdk::ConsumeBufferedFirst);
  rocprofiler_thread_id_t tid = 0;
  rocprofiler_get_thread_id(&tid);
  Enter(HSA_API_ID_hsa_init, 100);
  ASSERT_EQ(rocprofiler_push_external_correlation_id(
                g_buffered, tid, rocprofiler_user_data_t{77}),
            ROCPROFILER_STATUS_SUCCESS);
  Enter(HSA_API_ID_hsa_system_get_info, 101);
  Exit(HSA_API_ID_hsa_system_get_info, 101);
  rocprofiler_user_data_t popped{0};
  ASSERT_EQ(rocprofiler_pop_external_correlation_id(g_buffered, tid, &popped),
            ROCPROFILER_STATUS_SUCCESS);
  Exit(HSA_API_ID_hsa_init, 100);
  const auto records = Flushed();
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0].size, sizeof(records[0]));
  EXPECT_EQ(records[0].kind, ROCPROFILER_BUFFER_TRACING_HSA_CORE_API);
  EXPECT_EQ(records[0].operation,
            ROCPROFILER_HSA_CORE_API_ID_hsa_system_get_info);
  EXPECT_EQ(records[0].correlation_id.internal, 101u);
  EXPECT_EQ(records[0].correlation_id.ancestor, 100u);
  EXPECT_EQ(records[0].correlation_id.external.value, 77u);
  EXPECT_EQ(records[0].thread_id, tid);
  EXPECT_EQ(records[1].operation, ROCPROFILER_HSA_CORE_API_ID_hsa_init);
  EXPECT_EQ(records[1].correlation_id.internal, 100u);
  EXPECT_EQ(records[1].correlation_id.ancestor, 0u);
  EXPECT_EQ(records[1].correlation_id.external.value, 0u);
  // The outer call spans the inner one.
  EXPECT_NE(records[1].start_timestamp, 0u);
  EXPECT_LE(records[1].start_timestamp, records[0].start_timestamp);
  EXPECT_LE(records[0].start_timestamp, records[0].end_timestamp);
  EXPECT_LE(records[0].end_timestamp, records[1].end_timestamp);
}

TEST(BufferedOnly, CallsNestedPastTheFrameStackAreSkippedWhole) {
  Flushed();
  const uint64_t skipped = rocprofiler_sdk::SkippedCalls();
  const uint64_t kCalls = rocprofiler_sdk::kMaxCallDepth + 1;
  for (uint64_t i = 0; i < kCalls; ++i)
    EnterFramed(HSA_API_ID_hsa_init, 300 + i);
  for (uint64_t i = kCalls; i-- > 0;) ExitFramed(HSA_API_ID_hsa_init, 300 + i);
  EXPECT_EQ(rocprofiler_sdk::SkippedCalls(), skipped + 1);
  const auto records = Flushed();
  ASSERT_EQ(records.size(), kCalls - 1);
  for (uint64_t i = 0; i + 1 < kCalls; ++i) {
    // Innermost first; the deepest call has no record.
    EXPECT_EQ(records[i].correlation_id.internal, 300 + kCalls - 2 - i);
  }
}

// The record path (only buffer tracing started) keeps no frame stack: no
// depth limit, every call recorded with the next call out as its ancestor.
TEST(BufferedOnly, TheRecordPathRecordsCallsAtAnyDepth) {
  Flushed();
  ASSERT_EQ(roctracer::InstalledRecordConsumer(),
            &rocprofiler_sdk::RecordBufferedCall);
  const uint64_t skipped = rocprofiler_sdk::SkippedCalls();
  const uint64_t kCalls = 2 * rocprofiler_sdk::kMaxCallDepth;
  for (uint64_t i = 0; i < kCalls; ++i) Enter(HSA_API_ID_hsa_init, 500 + i);
  for (uint64_t i = kCalls; i-- > 0;) Exit(HSA_API_ID_hsa_init, 500 + i);
  EXPECT_EQ(rocprofiler_sdk::SkippedCalls(), skipped);
  const auto records = Flushed();
  ASSERT_EQ(records.size(), kCalls);
  for (uint64_t i = 0; i < kCalls; ++i) {
    const uint64_t id = 500 + kCalls - 1 - i;  // innermost first
    EXPECT_EQ(records[i].correlation_id.internal, id);
    EXPECT_EQ(records[i].correlation_id.ancestor, id == 500 ? 0 : id - 1);
  }
}

// Calls on the record path and on the framed path nested in each other:
// each one's ancestor is the call enclosing it, whichever path that took.
TEST(BufferedOnly, AncestorsAcrossTheRecordAndFramedPaths) {
  Flushed();
  Enter(HSA_API_ID_hsa_init, 600);                   // record path
  EnterFramed(HSA_API_ID_hsa_system_get_info, 601);  // framed
  Enter(HSA_API_ID_hsa_init, 602);                   // record path
  Exit(HSA_API_ID_hsa_init, 602);
  ExitFramed(HSA_API_ID_hsa_system_get_info, 601);
  Exit(HSA_API_ID_hsa_init, 600);
  const auto records = Flushed();
  ASSERT_EQ(records.size(), 3u);
  EXPECT_EQ(records[0].correlation_id.internal, 602u);
  EXPECT_EQ(records[0].correlation_id.ancestor, 601u);
  EXPECT_EQ(records[1].correlation_id.internal, 601u);
  EXPECT_EQ(records[1].correlation_id.ancestor, 600u);
  EXPECT_EQ(records[1].operation,
            ROCPROFILER_HSA_CORE_API_ID_hsa_system_get_info);
  EXPECT_EQ(records[2].correlation_id.internal, 600u);
  EXPECT_EQ(records[2].correlation_id.ancestor, 0u);
}

// A context started while a call is in progress gets no record of it (it
// was not active at the call's ENTER), on either path; the next call it
// records.
TEST(BufferedOnly, AContextStartedMidCallGetsNoRecordOfIt) {
  Flushed();
  Enter(HSA_API_ID_hsa_init, 700);
  EnterFramed(HSA_API_ID_hsa_system_get_info, 701);
  ASSERT_EQ(rocprofiler_start_context(g_late), ROCPROFILER_STATUS_SUCCESS);
  ExitFramed(HSA_API_ID_hsa_system_get_info, 701);
  Exit(HSA_API_ID_hsa_init, 700);
  Enter(HSA_API_ID_hsa_init, 702);
  Exit(HSA_API_ID_hsa_init, 702);
  ASSERT_EQ(rocprofiler_stop_context(g_late), ROCPROFILER_STATUS_SUCCESS);
  const auto records = Flushed();
  std::vector<uint64_t> ids;
  for (const auto& r : records) ids.push_back(r.correlation_id.internal);
  // g_buffered's three, then g_late's one.
  EXPECT_EQ(ids, (std::vector<uint64_t>{701, 700, 702, 702}));
}

TEST(BufferedOnly, ACallbackContextStartedOrStoppedMidCall) {
  Flushed();
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    g_callbacks.clear();
  }
  ASSERT_EQ(fake_seam::Consumer(), &rocprofiler_sdk::ConsumeBufferedFirst);
  // ENTER on the short path, EXIT through ConsumeAny: the record, and no
  // EXIT callback for a context that got no ENTER.
  Enter(HSA_API_ID_hsa_init, 200);
  ASSERT_EQ(rocprofiler_start_context(g_callback), ROCPROFILER_STATUS_SUCCESS);
  ASSERT_EQ(fake_seam::Consumer(), &rocprofiler_sdk::ConsumeAny);
  Exit(HSA_API_ID_hsa_init, 200);
  // ENTER through ConsumeAny (a callback), EXIT on the short path after the
  // callback context stopped: the record, and no EXIT callback.
  Enter(HSA_API_ID_hsa_init, 201);
  ASSERT_EQ(rocprofiler_stop_context(g_callback), ROCPROFILER_STATUS_SUCCESS);
  ASSERT_EQ(fake_seam::Consumer(), &rocprofiler_sdk::ConsumeBufferedFirst);
  Exit(HSA_API_ID_hsa_init, 201);
  // And a call after both: the short path's record only.
  Enter(HSA_API_ID_hsa_init, 202);
  Exit(HSA_API_ID_hsa_init, 202);
  const auto records = Flushed();
  ASSERT_EQ(records.size(), 3u);
  for (uint64_t i = 0; i < 3; ++i) {
    EXPECT_EQ(records[i].correlation_id.internal, 200 + i);
    EXPECT_EQ(records[i].correlation_id.ancestor, 0u);
    EXPECT_LE(records[i].start_timestamp, records[i].end_timestamp);
  }
  std::lock_guard<std::mutex> lock(g_mutex);
  ASSERT_EQ(g_callbacks.size(), 1u);
  EXPECT_EQ(g_callbacks[0].correlation_id.internal, 201u);
  EXPECT_EQ(g_callbacks[0].phase, ROCPROFILER_CALLBACK_PHASE_ENTER);
}

}  // namespace

int main(int argc, char** argv) {
  return sdk_test::RunWithTool(argc, argv, &ToolConfigure);
}
