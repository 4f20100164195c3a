// Once a context tracing rocTX ranges has started, pushes and pops stay
// watched for good; a later context that only buffer-traces HSA calls still
// gets them on the short path (ConsumeBufferedFirstKeepingRanges, not
// ConsumeAny), while the rocTX calls still keep the thread's ranges: a
// range pushed while the range context ran is the ancestor of the calls
// made inside it, and is closed by its own pop with no context tracing it.
#include <gtest/gtest.h>

#include <mutex>
#include <thread>
#include <vector>

#include "hsa_api_data.h"
#include "hsa_api_id.h"
#include "rocprofiler-sdk-roctx/roctx.h"
#include "rocprofiler-sdk/rocprofiler.h"
#include "runtime/intercept/trace_guard.h"
#include "runtime/private/roctx_link.h"
#include "sdk/dispatch.h"
#include "tests/sdk/fake_consumer_seam.h"
#include "tests/sdk/run_with_tool.h"
#include "tests/sdk/tool_configure.h"

extern "C" roctracer::RoctxLink* roctx_internal_link(void);

namespace {

struct Record {
  uint64_t id;
  uint64_t ancestor;
};

std::mutex g_mutex;
std::vector<uint64_t> g_ranges;  // the range callbacks' IDs (ENTER)
std::vector<Record> g_records;   // the HSA records
rocprofiler_context_id_t g_range_ctx;
rocprofiler_context_id_t g_hsa_ctx;
rocprofiler_buffer_id_t g_buffer;

void OnRange(rocprofiler_callback_tracing_record_t r, rocprofiler_user_data_t*,
             void*) {
  std::lock_guard<std::mutex> lock(g_mutex);
  if (r.phase == ROCPROFILER_CALLBACK_PHASE_ENTER) {
    g_ranges.push_back(r.correlation_id.internal);
  }
}

void OnRecords(rocprofiler_context_id_t, rocprofiler_buffer_id_t,
               rocprofiler_record_header_t** headers, size_t n, void*,
               uint64_t) {
  std::lock_guard<std::mutex> lock(g_mutex);
  for (size_t i = 0; i < n; ++i) {
    if (headers[i]->category != ROCPROFILER_BUFFER_CATEGORY_TRACING ||
        headers[i]->kind != ROCPROFILER_BUFFER_TRACING_HSA_CORE_API) {
      continue;
    }
    const auto* r =
        static_cast<const rocprofiler_buffer_tracing_hsa_api_record_t*>(
            headers[i]->payload);
    g_records.push_back(
        {r->correlation_id.internal, r->correlation_id.ancestor});
  }
}

int ToolInit(rocprofiler_client_finalize_t, void*) {
  EXPECT_EQ(rocprofiler_create_context(&g_range_ctx),
            ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(rocprofiler_configure_callback_tracing_service(
                g_range_ctx, ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_RANGE_API,
                nullptr, 0, &OnRange, nullptr),
            ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(rocprofiler_create_context(&g_hsa_ctx), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(rocprofiler_create_buffer(g_hsa_ctx, 1 << 16, 1 << 15,
                                      ROCPROFILER_BUFFER_POLICY_LOSSLESS,
                                      &OnRecords, nullptr, &g_buffer),
            ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(rocprofiler_configure_buffer_tracing_service(
                g_hsa_ctx, ROCPROFILER_BUFFER_TRACING_HSA_CORE_API, nullptr, 0,
                g_buffer),
            ROCPROFILER_STATUS_SUCCESS);
  return 0;
}

rocprofiler_tool_configure_result_t* ToolConfigure(
    uint32_t, const char*, uint32_t, rocprofiler_client_id_t* id) {
  return sdk_test::Configure<&ToolInit>(id, "range_watch_consumer_test");
}

// An HSA call (hsa_system_get_info) on this thread as the interception
// layer reports it; its correlation ID.
uint64_t HsaCall() {
  const uint64_t id = roctracer::FreshCorrelationId();
  hsa_api_data_t d{};
  fake_seam::Call(ACTIVITY_DOMAIN_HSA_API, HSA_API_ID_hsa_system_get_info,
                  ACTIVITY_API_PHASE_ENTER, id, &d);
  fake_seam::Call(ACTIVITY_DOMAIN_HSA_API, HSA_API_ID_hsa_system_get_info,
                  ACTIVITY_API_PHASE_EXIT, id, &d);
  return id;
}

uint64_t AncestorOf(uint64_t id) {
  std::lock_guard<std::mutex> lock(g_mutex);
  for (const Record& r : g_records) {
    if (r.id == id) return r.ancestor;
  }
  ADD_FAILURE() << "no record of " << id;
  return ~uint64_t{0};
}

TEST(RangeWatchConsumer, BufferOnlyCallsKeepTheShortPathAfterARangeContext) {
  roctracer::AttachRoctx(roctx_internal_link());
  ASSERT_EQ(rocprofiler_start_context(g_range_ctx), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(roctxRangePushA("traced"), 0);
  ASSERT_EQ(rocprofiler_stop_context(g_range_ctx), ROCPROFILER_STATUS_SUCCESS);
  ASSERT_EQ(rocprofiler_start_context(g_hsa_ctx), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(fake_seam::Consumer(),
            &rocprofiler_sdk::ConsumeBufferedFirstKeepingRanges);
  const uint64_t inside = HsaCall();
  EXPECT_EQ(roctxRangePushA("untraced"), 1);
  EXPECT_EQ(roctxRangePop(), 1);
  const uint64_t inside_again = HsaCall();
  EXPECT_EQ(roctxRangePop(), 0);
  const uint64_t after = HsaCall();
  ASSERT_EQ(rocprofiler_flush_buffer(g_buffer), ROCPROFILER_STATUS_SUCCESS);
  ASSERT_EQ(rocprofiler_stop_context(g_hsa_ctx), ROCPROFILER_STATUS_SUCCESS);
  uint64_t traced = 0;
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    ASSERT_EQ(g_ranges.size(), 1u);
    traced = g_ranges[0];
  }
  EXPECT_NE(traced, 0u);
  EXPECT_EQ(AncestorOf(inside), traced);
  EXPECT_EQ(AncestorOf(inside_again), traced);
  EXPECT_EQ(AncestorOf(after), 0u);
}

// A call on the record path (the SDK sees only its EXIT) keeps the ancestor
// its ENTER had, as a call the SDK sees at both phases does: a process range
// started on this thread and stopped on another while the call runs is
// still its ancestor; the next call has none.
TEST(RangeWatchConsumer, ARecordPathCallKeepsItsAncestorWhenItsRangeStops) {
  roctracer::AttachRoctx(roctx_internal_link());
  ASSERT_EQ(rocprofiler_start_context(g_range_ctx), ROCPROFILER_STATUS_SUCCESS);
  const roctx_range_id_t started = roctxRangeStartA("stopped mid-call");
  ASSERT_EQ(rocprofiler_stop_context(g_range_ctx), ROCPROFILER_STATUS_SUCCESS);
  ASSERT_EQ(rocprofiler_start_context(g_hsa_ctx), ROCPROFILER_STATUS_SUCCESS);
  ASSERT_EQ(roctracer::InstalledRecordConsumer(),
            &rocprofiler_sdk::RecordBufferedCall);
  uint64_t range = 0;
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    ASSERT_FALSE(g_ranges.empty());
    range = g_ranges.back();
  }
  const uint64_t id = roctracer::FreshCorrelationId();
  hsa_api_data_t d{};
  fake_seam::Call(ACTIVITY_DOMAIN_HSA_API, HSA_API_ID_hsa_system_get_info,
                  ACTIVITY_API_PHASE_ENTER, id, &d);
  std::thread([&] { roctxRangeStop(started); }).join();
  fake_seam::Call(ACTIVITY_DOMAIN_HSA_API, HSA_API_ID_hsa_system_get_info,
                  ACTIVITY_API_PHASE_EXIT, id, &d);
  const uint64_t after = HsaCall();
  ASSERT_EQ(rocprofiler_flush_buffer(g_buffer), ROCPROFILER_STATUS_SUCCESS);
  ASSERT_EQ(rocprofiler_stop_context(g_hsa_ctx), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_NE(range, 0u);
  EXPECT_EQ(AncestorOf(id), range);
  EXPECT_EQ(AncestorOf(after), 0u);
}

// The same when a rocTX call inside the record-path call gives it a frame
// (PushRecordPathFrame) after the range was stopped elsewhere: the frame
// reads the range open then, none, but the call began inside the range.
TEST(RangeWatchConsumer, AFramedRecordPathCallKeepsItsAncestorToo) {
  roctracer::AttachRoctx(roctx_internal_link());
  ASSERT_EQ(rocprofiler_start_context(g_range_ctx), ROCPROFILER_STATUS_SUCCESS);
  const roctx_range_id_t started = roctxRangeStartA("stopped mid-call");
  ASSERT_EQ(rocprofiler_stop_context(g_range_ctx), ROCPROFILER_STATUS_SUCCESS);
  ASSERT_EQ(rocprofiler_start_context(g_hsa_ctx), ROCPROFILER_STATUS_SUCCESS);
  uint64_t range = 0;
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    ASSERT_FALSE(g_ranges.empty());
    range = g_ranges.back();
  }
  const uint64_t id = roctracer::FreshCorrelationId();
  hsa_api_data_t d{};
  fake_seam::Call(ACTIVITY_DOMAIN_HSA_API, HSA_API_ID_hsa_system_get_info,
                  ACTIVITY_API_PHASE_ENTER, id, &d);
  std::thread([&] { roctxRangeStop(started); }).join();
  // The layer makes a record-path call the thread's innermost traced call
  // (its parent for the rocTX calls inside it), as the fake seam does not.
  auto& hook_thread = roctracer::hook::Thread();
  const uint64_t top = hook_thread.top_id;
  hook_thread.top_id = id;
  EXPECT_EQ(roctxRangePushA("inside"), 0);
  EXPECT_EQ(roctxRangePop(), 0);
  hook_thread.top_id = top;
  fake_seam::Call(ACTIVITY_DOMAIN_HSA_API, HSA_API_ID_hsa_system_get_info,
                  ACTIVITY_API_PHASE_EXIT, id, &d);
  const uint64_t after = HsaCall();
  ASSERT_EQ(rocprofiler_flush_buffer(g_buffer), ROCPROFILER_STATUS_SUCCESS);
  ASSERT_EQ(rocprofiler_stop_context(g_hsa_ctx), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_NE(range, 0u);
  EXPECT_EQ(AncestorOf(id), range);
  EXPECT_EQ(AncestorOf(after), 0u);
}

}  // namespace

int main(int argc, char** argv) {
  return sdk_test::RunWithTool(argc, argv, &ToolConfigure);
}
