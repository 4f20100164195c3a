// Once a context tracing rocTX ranges has started, pushes and pops stay
// watched for good; a later context that only buffer-traces HSA calls still
// gets them on the short path (ConsumeBufferedFirstKeepingRanges, not
// ConsumeAny), while the rocTX calls still keep the thread's ranges: a
// range pushed while the range context ran is the ancestor of the calls
// made inside it, and is closed by its own pop with no context tracing it.
// Calls on the record path (the SDK sees only their EXIT) get the ancestor
// their ENTER would have had when another thread stops a range meanwhile,
// nested ones and their GPU events included; the thread forgets such stops
// once no record-path call is in progress.
#include <gtest/gtest.h>

#include <mutex>
#include <thread>
#include <vector>

#include "hsa_api_data.h"
#include "hsa_api_id.h"
#include "rocprofiler-sdk-roctx/roctx.h"
#include "rocprofiler-sdk/rocprofiler.h"
#include "runtime/clock/clock.h"
#include "runtime/gpu/observers.h"
#include "runtime/intercept/trace_guard.h"
#include "runtime/private/gpu_events.h"
#include "runtime/private/roctx_link.h"
#include "sdk/dispatch.h"
#include "sdk/thread_state.h"
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
std::vector<uint64_t> g_ranges;         // the range callbacks' IDs (ENTER)
std::vector<Record> g_range_ancestors;  // and their ancestors
std::vector<Record> g_records;          // the HSA records
std::vector<Record> g_scratch;          // the scratch memory records
std::vector<Record> g_hsa_callbacks;    // the HSA callbacks (ENTER)
rocprofiler_context_id_t g_range_ctx;
rocprofiler_context_id_t g_hsa_ctx;
rocprofiler_buffer_id_t g_buffer;
// Scratch memory records, and HSA callbacks: contexts with services other
// than API buffer records (no record path while they run).
rocprofiler_context_id_t g_scratch_ctx;
rocprofiler_buffer_id_t g_scratch_buffer;
rocprofiler_context_id_t g_hsa_callback_ctx;

void OnRange(rocprofiler_callback_tracing_record_t r, rocprofiler_user_data_t*,
             void*) {
  std::lock_guard<std::mutex> lock(g_mutex);
  if (r.phase == ROCPROFILER_CALLBACK_PHASE_ENTER) {
    g_ranges.push_back(r.correlation_id.internal);
    g_range_ancestors.push_back(
        {r.correlation_id.internal, r.correlation_id.ancestor});
  }
}

void OnHsaCallback(rocprofiler_callback_tracing_record_t r,
                   rocprofiler_user_data_t*, void*) {
  std::lock_guard<std::mutex> lock(g_mutex);
  if (r.phase == ROCPROFILER_CALLBACK_PHASE_ENTER) {
    g_hsa_callbacks.push_back(
        {r.correlation_id.internal, r.correlation_id.ancestor});
  }
}

void OnRecords(rocprofiler_context_id_t, rocprofiler_buffer_id_t,
               rocprofiler_record_header_t** headers, size_t n, void*,
               uint64_t) {
  std::lock_guard<std::mutex> lock(g_mutex);
  for (size_t i = 0; i < n; ++i) {
    if (headers[i]->category != ROCPROFILER_BUFFER_CATEGORY_TRACING) continue;
    if (headers[i]->kind == ROCPROFILER_BUFFER_TRACING_SCRATCH_MEMORY) {
      const auto* r = static_cast<
          const rocprofiler_buffer_tracing_scratch_memory_record_t*>(
          headers[i]->payload);
      g_scratch.push_back(
          {r->correlation_id.internal, r->correlation_id.ancestor});
      continue;
    }
    if (headers[i]->kind != ROCPROFILER_BUFFER_TRACING_HSA_CORE_API) continue;
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
  EXPECT_EQ(rocprofiler_create_context(&g_scratch_ctx),
            ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(rocprofiler_create_buffer(g_scratch_ctx, 1 << 16, 1 << 15,
                                      ROCPROFILER_BUFFER_POLICY_LOSSLESS,
                                      &OnRecords, nullptr, &g_scratch_buffer),
            ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(rocprofiler_configure_buffer_tracing_service(
                g_scratch_ctx, ROCPROFILER_BUFFER_TRACING_SCRATCH_MEMORY,
                nullptr, 0, g_scratch_buffer),
            ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(rocprofiler_create_context(&g_hsa_callback_ctx),
            ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(rocprofiler_configure_callback_tracing_service(
                g_hsa_callback_ctx, ROCPROFILER_CALLBACK_TRACING_HSA_CORE_API,
                nullptr, 0, &OnHsaCallback, nullptr),
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

uint64_t AncestorIn(const std::vector<Record>& records, uint64_t id) {
  std::lock_guard<std::mutex> lock(g_mutex);
  for (const Record& r : records) {
    if (r.id == id) return r.ancestor;
  }
  ADD_FAILURE() << "no record of " << id;
  return ~uint64_t{0};
}

uint64_t AncestorOf(uint64_t id) { return AncestorIn(g_records, id); }

// The ENTER and the EXIT of an HSA call (hsa_system_get_info) as the layer
// reports them; on the record path while only g_hsa_ctx runs.
uint64_t BeginHsaCall() {
  const uint64_t id = roctracer::FreshCorrelationId();
  // Alive while the call is in progress, as the layer's is.
  thread_local hsa_api_data_t d{};
  fake_seam::Call(ACTIVITY_DOMAIN_HSA_API, HSA_API_ID_hsa_system_get_info,
                  ACTIVITY_API_PHASE_ENTER, id, &d);
  return id;
}
void EndHsaCall(uint64_t id) {
  hsa_api_data_t d{};
  fake_seam::Call(ACTIVITY_DOMAIN_HSA_API, HSA_API_ID_hsa_system_get_info,
                  ACTIVITY_API_PHASE_EXIT, id, &d);
}

// The ID of the last range a context traced.
uint64_t LastRange() {
  std::lock_guard<std::mutex> lock(g_mutex);
  return g_ranges.empty() ? 0 : g_ranges.back();
}

// Whether this thread still remembers ranges of its own that another
// thread closed (the open-range word's flag): what every traced call of
// the thread pays the out-of-line path for while it is set.
bool RemembersRangesClosedElsewhere() {
  const rocprofiler_sdk::ThreadState* t = rocprofiler_sdk::Tls();
  return t != nullptr && (t->open_range.load(std::memory_order_relaxed) &
                          rocprofiler_sdk::kRangeClosedElsewhere) != 0;
}

// Rocprofiler's calls inside record-path call `id`: the layer makes it the
// thread's innermost traced call (the parent of the rocTX calls inside
// it), as the fake seam does not.
class InsideCall {
 public:
  explicit InsideCall(uint64_t id) : top_(roctracer::hook::Thread().top_id) {
    roctracer::hook::Thread().top_id = id;
  }
  ~InsideCall() { roctracer::hook::Thread().top_id = top_; }

 private:
  uint64_t top_;
};

// A traced thread range pushed and popped inside record-path call `id`
// (which it gives a frame): its range ID. The range context runs only
// around it, so that the calls around it keep the record path.
uint64_t TracedPushInside(uint64_t id) {
  InsideCall inside(id);
  EXPECT_EQ(rocprofiler_start_context(g_range_ctx), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(roctxRangePushA("inside"), 0);
  const uint64_t range = LastRange();
  EXPECT_EQ(roctxRangePop(), 0);
  EXPECT_EQ(rocprofiler_stop_context(g_range_ctx), ROCPROFILER_STATUS_SUCCESS);
  return range;
}

// A scratch allocation raised by the runtime on this thread, inside the
// call `id` (its END, as the GPU half reports it).
void ScratchInside(uint64_t id) {
  InsideCall inside(id);
  EXPECT_EQ(rocprofiler_start_context(g_scratch_ctx),
            ROCPROFILER_STATUS_SUCCESS);
  roctracer::gpu::ScratchRecord e{};
  e.op = roctracer::gpu::ScratchOp::kAlloc;
  e.begin_ns = roctracer::clock::TimestampNs();
  e.end_ns = e.begin_ns + 1;
  roctracer::gpu::ForEachObserver(
      [&e](roctracer::gpu::Observer* o) { o->OnScratch(e); });
  EXPECT_EQ(rocprofiler_flush_buffer(g_scratch_buffer),
            ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(rocprofiler_stop_context(g_scratch_ctx),
            ROCPROFILER_STATUS_SUCCESS);
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
// (PushRecordPathFrame) after the range was stopped elsewhere: the range
// open now is none, but the call began inside the range.
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

// Nested record-path calls: Y1 begins inside a process range, the range is
// stopped on another thread, then Y2 begins and ends inside Y1. Y2 began
// after the stop: its ancestor is Y1; Y1's is the range. A traced push
// inside each has that call as ancestor; a scratch event inside Y1 after
// the push (which gave Y1 its frame) has Y1's ancestor. The stops are
// forgotten when Y1 ends.
TEST(RangeWatchConsumer, NestedRecordPathCallsKeepTheAncestorsOfTheirStarts) {
  roctracer::AttachRoctx(roctx_internal_link());
  ASSERT_EQ(rocprofiler_start_context(g_range_ctx), ROCPROFILER_STATUS_SUCCESS);
  const roctx_range_id_t started = roctxRangeStartA("stopped inside Y1");
  ASSERT_EQ(rocprofiler_stop_context(g_range_ctx), ROCPROFILER_STATUS_SUCCESS);
  const uint64_t range = LastRange();
  ASSERT_NE(range, 0u);
  ASSERT_EQ(rocprofiler_start_context(g_hsa_ctx), ROCPROFILER_STATUS_SUCCESS);
  ASSERT_EQ(roctracer::InstalledRecordConsumer(),
            &rocprofiler_sdk::RecordBufferedCall);
  const uint64_t y1 = BeginHsaCall();
  std::thread([&] { roctxRangeStop(started); }).join();
  const uint64_t y2 = BeginHsaCall();
  const uint64_t pushed_in_y2 = TracedPushInside(y2);
  EndHsaCall(y2);
  const uint64_t pushed_in_y1 = TracedPushInside(y1);
  ScratchInside(y1);
  EXPECT_TRUE(RemembersRangesClosedElsewhere());  // Y1 is in progress
  EndHsaCall(y1);
  EXPECT_FALSE(RemembersRangesClosedElsewhere());
  const uint64_t after = HsaCall();
  ASSERT_EQ(rocprofiler_flush_buffer(g_buffer), ROCPROFILER_STATUS_SUCCESS);
  ASSERT_EQ(rocprofiler_stop_context(g_hsa_ctx), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(AncestorOf(y2), y1);
  EXPECT_EQ(AncestorOf(y1), range);
  EXPECT_EQ(AncestorIn(g_range_ancestors, pushed_in_y2), y2);
  EXPECT_EQ(AncestorIn(g_range_ancestors, pushed_in_y1), y1);
  EXPECT_EQ(AncestorIn(g_scratch, y1), range);
  EXPECT_EQ(AncestorOf(after), 0u);
}

// A scratch event inside a record-path call that no call the SDK sees has
// given a frame: the event's ancestor is the range open when the call
// began, as the call's record's is.
TEST(RangeWatchConsumer, AScratchEventInAnUnframedRecordPathCallHasItsRange) {
  roctracer::AttachRoctx(roctx_internal_link());
  ASSERT_EQ(rocprofiler_start_context(g_range_ctx), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(roctxRangePushA("around the call"), 0);
  ASSERT_EQ(rocprofiler_stop_context(g_range_ctx), ROCPROFILER_STATUS_SUCCESS);
  const uint64_t range = LastRange();
  ASSERT_NE(range, 0u);
  ASSERT_EQ(rocprofiler_start_context(g_hsa_ctx), ROCPROFILER_STATUS_SUCCESS);
  ASSERT_EQ(roctracer::InstalledRecordConsumer(),
            &rocprofiler_sdk::RecordBufferedCall);
  const uint64_t id = BeginHsaCall();
  ScratchInside(id);
  EndHsaCall(id);
  EXPECT_EQ(roctxRangePop(), 0);
  ASSERT_EQ(rocprofiler_flush_buffer(g_buffer), ROCPROFILER_STATUS_SUCCESS);
  ASSERT_EQ(rocprofiler_stop_context(g_hsa_ctx), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(AncestorOf(id), range);
  EXPECT_EQ(AncestorIn(g_scratch, id), range);
}

// A record-path call that begins after its thread's range was stopped
// elsewhere has no ancestor, although the stop is still remembered when it
// ends (no call of the thread could tell that none was in progress); its
// end forgets it.
TEST(RangeWatchConsumer, ARecordPathCallBegunAfterAStopElsewhereHasNone) {
  roctracer::AttachRoctx(roctx_internal_link());
  ASSERT_EQ(rocprofiler_start_context(g_range_ctx), ROCPROFILER_STATUS_SUCCESS);
  const roctx_range_id_t started = roctxRangeStartA("stopped before");
  ASSERT_EQ(rocprofiler_stop_context(g_range_ctx), ROCPROFILER_STATUS_SUCCESS);
  ASSERT_EQ(rocprofiler_start_context(g_hsa_ctx), ROCPROFILER_STATUS_SUCCESS);
  ASSERT_EQ(roctracer::InstalledRecordConsumer(),
            &rocprofiler_sdk::RecordBufferedCall);
  std::thread([&] { roctxRangeStop(started); }).join();
  EXPECT_TRUE(RemembersRangesClosedElsewhere());
  const uint64_t after = HsaCall();
  EXPECT_FALSE(RemembersRangesClosedElsewhere());
  ASSERT_EQ(rocprofiler_flush_buffer(g_buffer), ROCPROFILER_STATUS_SUCCESS);
  ASSERT_EQ(rocprofiler_stop_context(g_hsa_ctx), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(AncestorOf(after), 0u);
}

// A process range started inside a record-path call (which that gives a
// frame) and stopped on another thread during it opened after the call
// began: it is no ancestor of the call.
TEST(RangeWatchConsumer, ARangeStartedInsideARecordPathCallIsNotItsAncestor) {
  roctracer::AttachRoctx(roctx_internal_link());
  ASSERT_EQ(rocprofiler_start_context(g_hsa_ctx), ROCPROFILER_STATUS_SUCCESS);
  ASSERT_EQ(roctracer::InstalledRecordConsumer(),
            &rocprofiler_sdk::RecordBufferedCall);
  const uint64_t y = BeginHsaCall();
  roctx_range_id_t started = 0;
  uint64_t range = 0;
  {
    InsideCall inside(y);
    ASSERT_EQ(rocprofiler_start_context(g_range_ctx),
              ROCPROFILER_STATUS_SUCCESS);
    started = roctxRangeStartA("started inside");
    range = LastRange();
    ASSERT_EQ(rocprofiler_stop_context(g_range_ctx),
              ROCPROFILER_STATUS_SUCCESS);
  }
  std::thread([&] { roctxRangeStop(started); }).join();
  EndHsaCall(y);
  ASSERT_EQ(rocprofiler_flush_buffer(g_buffer), ROCPROFILER_STATUS_SUCCESS);
  ASSERT_EQ(rocprofiler_stop_context(g_hsa_ctx), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_GT(range, y);
  EXPECT_EQ(AncestorIn(g_range_ancestors, range), y);
  EXPECT_EQ(AncestorOf(y), 0u);
}

// A thread none of whose calls takes the record path forgets a range of
// its stopped elsewhere at its next traced call, which began after the stop
// (its callbacks have no ancestor): its later calls no longer take the
// out-of-line path.
TEST(RangeWatchConsumer, AStopElsewhereIsForgottenAtTheNextTracedCall) {
  roctracer::AttachRoctx(roctx_internal_link());
  ASSERT_EQ(rocprofiler_start_context(g_range_ctx), ROCPROFILER_STATUS_SUCCESS);
  const roctx_range_id_t started = roctxRangeStartA("stopped elsewhere");
  ASSERT_EQ(rocprofiler_start_context(g_hsa_callback_ctx),
            ROCPROFILER_STATUS_SUCCESS);
  std::thread([&] { roctxRangeStop(started); }).join();
  EXPECT_TRUE(RemembersRangesClosedElsewhere());
  const uint64_t next = HsaCall();
  EXPECT_FALSE(RemembersRangesClosedElsewhere());
  ASSERT_EQ(rocprofiler_stop_context(g_hsa_callback_ctx),
            ROCPROFILER_STATUS_SUCCESS);
  ASSERT_EQ(rocprofiler_stop_context(g_range_ctx), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(AncestorIn(g_hsa_callbacks, next), 0u);
}

}  // namespace

int main(int argc, char** argv) {
  return sdk_test::RunWithTool(argc, argv, &ToolConfigure);
}
