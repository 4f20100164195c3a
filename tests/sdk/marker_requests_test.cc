// The rocprofiler-sdk-roctx requests in one process: libroctx's functions,
// the tracer's rocTX bridge and the SDK front end linked together (attached
// by hand, as the load-time handshake would). What a tool sees for
// MARKER_CONTROL_API, MARKER_NAME_API and roctxGetThreadId, and what a pause
// does to roctracer's own callbacks.
#include <gtest/gtest.h>
#include <roctracer_ext.h>
#include <roctracer_roctx.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cstddef>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "rocprofiler-sdk-roctx/roctx.h"
#include "rocprofiler-sdk/rocprofiler.h"
#include "runtime/private/roctx_link.h"
#include "tests/sdk/run_with_tool.h"
#include "tests/sdk/tool_configure.h"

extern "C" roctracer::RoctxLink* roctx_internal_link(void);

namespace {

struct Event {
  rocprofiler_callback_tracing_kind_t kind;
  int32_t op;
  rocprofiler_callback_phase_t phase;
  uint64_t correlation;
  uint64_t thread;
  std::string args;  // "type name=value; " per argument
  int32_t retval;    // MARKER_CORE_API: the payload's int32_t_retval
};

std::mutex g_mutex;
std::vector<Event> g_events;
rocprofiler_context_id_t g_context;
rocprofiler_status_t g_control_status = ROCPROFILER_STATUS_ERROR;
rocprofiler_status_t g_name_status = ROCPROFILER_STATUS_ERROR;
// Set by a test: the tool's callback makes a request of its own.
std::atomic<bool> g_pause_from_callback{false};

int AppendArg(rocprofiler_callback_tracing_kind_t,
              rocprofiler_tracing_operation_t, uint32_t, const void* const,
              int32_t, const char* type, const char* name, const char* value,
              int32_t, void* data) {
  *static_cast<std::string*>(data) +=
      std::string(type) + " " + name + "=" + value + "; ";
  return 0;
}

void OnCall(rocprofiler_callback_tracing_record_t r, rocprofiler_user_data_t*,
            void*) {
  Event e{r.kind,      r.operation, r.phase, r.correlation_id.internal,
          r.thread_id, "",          0};
  if (r.kind == ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_API) {
    e.retval =
        static_cast<const rocprofiler_callback_tracing_marker_api_data_t*>(
            r.payload)
            ->retval.int32_t_retval;
  }
  EXPECT_EQ(rocprofiler_iterate_callback_tracing_kind_operation_args(
                r, &AppendArg, 1, &e.args),
            ROCPROFILER_STATUS_SUCCESS);
  if (g_pause_from_callback.load() &&
      r.kind == ROCPROFILER_CALLBACK_TRACING_MARKER_NAME_API &&
      r.phase == ROCPROFILER_CALLBACK_PHASE_ENTER) {
    roctxProfilerPause(0);
  }
  std::lock_guard<std::mutex> lock(g_mutex);
  g_events.push_back(e);
}

std::vector<Event> Take() {
  std::lock_guard<std::mutex> lock(g_mutex);
  std::vector<Event> out;
  out.swap(g_events);
  return out;
}

// MARKER_CORE_API buffer records, from a context of their own.
rocprofiler_context_id_t g_buffer_context;
rocprofiler_buffer_id_t g_buffer;
std::vector<rocprofiler_buffer_tracing_marker_api_record_t> g_marker_records;

void OnRecords(rocprofiler_context_id_t, rocprofiler_buffer_id_t,
               rocprofiler_record_header_t** headers, size_t n, void*,
               uint64_t) {
  std::lock_guard<std::mutex> lock(g_mutex);
  for (size_t i = 0; i < n; ++i) {
    if (headers[i]->category == ROCPROFILER_BUFFER_CATEGORY_TRACING &&
        headers[i]->kind == ROCPROFILER_BUFFER_TRACING_MARKER_CORE_API) {
      g_marker_records.push_back(
          *static_cast<const rocprofiler_buffer_tracing_marker_api_record_t*>(
              headers[i]->payload));
    }
  }
}

std::vector<rocprofiler_buffer_tracing_marker_api_record_t> TakeRecords() {
  EXPECT_EQ(rocprofiler_flush_buffer(g_buffer), ROCPROFILER_STATUS_SUCCESS);
  std::lock_guard<std::mutex> lock(g_mutex);
  std::vector<rocprofiler_buffer_tracing_marker_api_record_t> out;
  out.swap(g_marker_records);
  return out;
}

int ToolInit(rocprofiler_client_finalize_t, void*) {
  EXPECT_EQ(rocprofiler_create_context(&g_buffer_context),
            ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(rocprofiler_create_buffer(g_buffer_context, 4096, 2048,
                                      ROCPROFILER_BUFFER_POLICY_LOSSLESS,
                                      &OnRecords, nullptr, &g_buffer),
            ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(rocprofiler_configure_buffer_tracing_service(
                g_buffer_context, ROCPROFILER_BUFFER_TRACING_MARKER_CORE_API,
                nullptr, 0, g_buffer),
            ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(rocprofiler_start_context(g_buffer_context),
            ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(rocprofiler_create_context(&g_context), ROCPROFILER_STATUS_SUCCESS);
  g_control_status = rocprofiler_configure_callback_tracing_service(
      g_context, ROCPROFILER_CALLBACK_TRACING_MARKER_CONTROL_API, nullptr, 0,
      &OnCall, nullptr);
  g_name_status = rocprofiler_configure_callback_tracing_service(
      g_context, ROCPROFILER_CALLBACK_TRACING_MARKER_NAME_API, nullptr, 0,
      &OnCall, nullptr);
  const rocprofiler_tracing_operation_t core_ops[] = {
      ROCPROFILER_MARKER_CORE_API_ID_roctxGetThreadId,
      ROCPROFILER_MARKER_CORE_API_ID_roctxRangePushA,
      ROCPROFILER_MARKER_CORE_API_ID_roctxRangePop};
  EXPECT_EQ(rocprofiler_configure_callback_tracing_service(
                g_context, ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_API,
                core_ops, 3, &OnCall, nullptr),
            ROCPROFILER_STATUS_SUCCESS);
  return rocprofiler_start_context(g_context) == ROCPROFILER_STATUS_SUCCESS
             ? 0
             : -1;
}

rocprofiler_tool_configure_result_t* ToolConfigure(
    uint32_t, const char*, uint32_t, rocprofiler_client_id_t* id) {
  return sdk_test::Configure<&ToolInit>(id, "marker_requests_test");
}

std::atomic<int> g_roctracer_marks{0};
void OnRoctx(uint32_t, uint32_t op, const void*, void*) {
  if (op == ROCTX_API_ID_roctxMarkA) g_roctracer_marks.fetch_add(1);
}

// `events` are ENTER and EXIT, in turn, of MARKER_CORE_API calls of `ops`,
// each returning `retvals[call]` at EXIT (at ENTER the call has not returned
// yet: 0).
void ExpectCoreCalls(const std::vector<Event>& events,
                     const std::vector<int32_t>& ops,
                     const std::vector<int32_t>& retvals) {
  ASSERT_EQ(events.size(), 2 * ops.size());
  for (size_t i = 0; i < events.size(); ++i) {
    EXPECT_EQ(events[i].kind, ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_API);
    EXPECT_EQ(events[i].op, ops[i / 2]) << "event " << i;
    const bool exit = i % 2 == 1;
    EXPECT_EQ(events[i].phase, exit ? ROCPROFILER_CALLBACK_PHASE_EXIT
                                    : ROCPROFILER_CALLBACK_PHASE_ENTER);
    EXPECT_EQ(events[i].retval, exit ? retvals[i / 2] : 0) << "event " << i;
  }
}

class MarkerRequests : public ::testing::Test {
 protected:
  void SetUp() override {
    roctracer::AttachRoctx(roctx_internal_link());
    Take();
    TakeRecords();
  }
  void TearDown() override {
    g_pause_from_callback.store(false);
    roctracer_start();
    roctracer_disable_callback();
  }
};

// rocprofiler-sdk's layout: a tool built against its headers reads ours.
TEST(MarkerPayloadLayout, MatchesRocprofilerSdk) {
  EXPECT_EQ(sizeof(rocprofiler_marker_api_args_t), 16u);
  EXPECT_EQ(
      offsetof(rocprofiler_marker_api_args_t, roctxNameHipDevice.device_id),
      8u);
  EXPECT_EQ(offsetof(rocprofiler_marker_api_args_t, roctxNameHsaAgent.agent),
            8u);
  EXPECT_EQ(sizeof(rocprofiler_callback_tracing_marker_api_data_t), 32u);
  EXPECT_EQ(offsetof(rocprofiler_callback_tracing_marker_api_data_t, retval),
            24u);
}

TEST_F(MarkerRequests, ControlAndNameKindsCanBeConfigured) {
  EXPECT_EQ(g_control_status, ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(g_name_status, ROCPROFILER_STATUS_SUCCESS);
}

TEST_F(MarkerRequests, PauseAndResumeReachTheToolWithTheirTid) {
  EXPECT_EQ(roctxProfilerPause(0), 0);
  EXPECT_EQ(roctxProfilerResume(42), 0);
  const auto events = Take();
  ASSERT_EQ(events.size(), 4u);
  const int32_t ops[] = {ROCPROFILER_MARKER_CONTROL_API_ID_roctxProfilerPause,
                         ROCPROFILER_MARKER_CONTROL_API_ID_roctxProfilerResume};
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(events[i].kind, ROCPROFILER_CALLBACK_TRACING_MARKER_CONTROL_API);
    EXPECT_EQ(events[i].op, ops[i / 2]);
    EXPECT_EQ(events[i].phase, i % 2 == 0 ? ROCPROFILER_CALLBACK_PHASE_ENTER
                                          : ROCPROFILER_CALLBACK_PHASE_EXIT);
    EXPECT_EQ(events[i].args, i < 2 ? "roctx_thread_id_t tid=0; "
                                    : "roctx_thread_id_t tid=42; ");
    EXPECT_NE(events[i].correlation, 0u);
  }
  EXPECT_EQ(events[0].correlation, events[1].correlation);
  EXPECT_NE(events[0].correlation, events[2].correlation);
}

TEST_F(MarkerRequests, PauseStopsRoctracerAndResumeRestartsIt) {
  ASSERT_EQ(roctracer_enable_domain_callback(ACTIVITY_DOMAIN_ROCTX, &OnRoctx,
                                             nullptr),
            ROCTRACER_STATUS_SUCCESS);
  const int before = g_roctracer_marks.load();
  roctxMarkA("seen");
  EXPECT_EQ(g_roctracer_marks.load(), before + 1);
  ASSERT_EQ(roctxProfilerPause(0), 0);
  roctxMarkA("not seen");
  EXPECT_EQ(g_roctracer_marks.load(), before + 1);
  // Already paused: ignored, still 0.
  EXPECT_EQ(roctxProfilerPause(0), 0);
  ASSERT_EQ(roctxProfilerResume(0), 0);
  roctxMarkA("seen again");
  EXPECT_EQ(g_roctracer_marks.load(), before + 2);
}

TEST_F(MarkerRequests, NamingRequestsCarryTheirArguments) {
  int stand_in = 0;
  const auto* agent = reinterpret_cast<const hsa_agent_s*>(&stand_in);
  const auto* stream = reinterpret_cast<const ihipStream_t*>(0x40);
  EXPECT_EQ(roctxNameOsThread("worker"), 0);
  EXPECT_EQ(roctxNameHsaAgent("agent", agent), 0);
  EXPECT_EQ(roctxNameHipDevice("device", -2), 0);
  EXPECT_EQ(roctxNameHipStream("stream", stream), 0);
  std::vector<Event> exits;
  for (const Event& e : Take()) {
    EXPECT_EQ(e.kind, ROCPROFILER_CALLBACK_TRACING_MARKER_NAME_API);
    EXPECT_EQ(e.thread, static_cast<uint64_t>(syscall(SYS_gettid)));
    if (e.phase == ROCPROFILER_CALLBACK_PHASE_EXIT) exits.push_back(e);
  }
  ASSERT_EQ(exits.size(), 4u);
  EXPECT_EQ(exits[0].op, ROCPROFILER_MARKER_NAME_API_ID_roctxNameOsThread);
  EXPECT_EQ(exits[0].args, "const char* name=\"worker\"; ");
  EXPECT_EQ(exits[1].op, ROCPROFILER_MARKER_NAME_API_ID_roctxNameHsaAgent);
  EXPECT_EQ(exits[1].args.find("const char* name=\"agent\"; "
                               "const struct hsa_agent_s* agent=0x"),
            0u)
      << exits[1].args;
  EXPECT_EQ(exits[2].op, ROCPROFILER_MARKER_NAME_API_ID_roctxNameHipDevice);
  EXPECT_EQ(exits[2].args, "const char* name=\"device\"; int device_id=-2; ");
  EXPECT_EQ(exits[3].op, ROCPROFILER_MARKER_NAME_API_ID_roctxNameHipStream);
  EXPECT_EQ(exits[3].args,
            "const char* name=\"stream\"; "
            "const struct ihipStream_t* stream=0x40; ");
}

// As with rocprofiler-sdk, push and pop report at EXIT what they return: the
// nesting level a push opened or a pop closed (0 for the outermost).
TEST_F(MarkerRequests, PushAndPopReportTheirNestingLevelAtExit) {
  EXPECT_EQ(roctxRangePushA("outer"), 0);
  EXPECT_EQ(roctxRangePushA("inner"), 1);
  EXPECT_EQ(roctxRangePop(), 1);
  EXPECT_EQ(roctxRangePop(), 0);
  const auto events = Take();
  ExpectCoreCalls(events,
                  {ROCPROFILER_MARKER_CORE_API_ID_roctxRangePushA,
                   ROCPROFILER_MARKER_CORE_API_ID_roctxRangePushA,
                   ROCPROFILER_MARKER_CORE_API_ID_roctxRangePop,
                   ROCPROFILER_MARKER_CORE_API_ID_roctxRangePop},
                  {0, 1, 1, 0});
  ASSERT_EQ(events.size(), 8u);
  // Distinct calls, not one range ID reused as correlation ID.
  EXPECT_NE(events[0].correlation, events[2].correlation);
  EXPECT_NE(events[4].correlation, events[6].correlation);
}

// A pop with no range open returns -1 and closes nothing; as with
// rocprofiler-sdk it is still reported, ENTER and EXIT, with -1 as its
// retval at EXIT. The level after it is untouched.
TEST_F(MarkerRequests, PopWithNoOpenRangeIsReportedWithRetvalMinusOne) {
  EXPECT_EQ(roctxRangePop(), -1);
  EXPECT_EQ(roctxRangePushA("after"), 0);
  EXPECT_EQ(roctxRangePop(), 0);
  const auto events = Take();
  const std::vector<int32_t> ops = {
      ROCPROFILER_MARKER_CORE_API_ID_roctxRangePop,
      ROCPROFILER_MARKER_CORE_API_ID_roctxRangePushA,
      ROCPROFILER_MARKER_CORE_API_ID_roctxRangePop};
  ExpectCoreCalls(events, ops, {-1, 0, 0});
  ASSERT_EQ(events.size(), 6u);
  for (size_t i = 0; i < 6; ++i) {
    EXPECT_EQ(events[i].thread, static_cast<uint64_t>(syscall(SYS_gettid)));
    EXPECT_EQ(events[i].args,
              i / 2 == 1 ? "const char* message=\"after\"; " : "");
  }
  EXPECT_NE(events[0].correlation, 0u);
  EXPECT_EQ(events[0].correlation, events[1].correlation);
  EXPECT_NE(events[0].correlation, events[4].correlation);
  // A buffer record too (1.0.0's marker record has no retval), under the
  // call's own correlation ID.
  const auto records = TakeRecords();
  ASSERT_EQ(records.size(), 3u);
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(records[i].kind, ROCPROFILER_BUFFER_TRACING_MARKER_CORE_API);
    EXPECT_EQ(records[i].operation, ops[i]);
    EXPECT_EQ(records[i].thread_id, static_cast<uint64_t>(syscall(SYS_gettid)));
    EXPECT_LE(records[i].start_timestamp, records[i].end_timestamp);
  }
  EXPECT_NE(records[0].correlation_id.internal, 0u);
  EXPECT_NE(records[0].correlation_id.internal,
            records[1].correlation_id.internal);
}

TEST_F(MarkerRequests, GetThreadIdEqualsTheToolsThreadId) {
  roctx_thread_id_t tid = 0;
  ASSERT_EQ(roctxGetThreadId(&tid), 0);
  rocprofiler_thread_id_t theirs = 0;
  ASSERT_EQ(rocprofiler_get_thread_id(&theirs), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(tid, theirs);
  const auto events = Take();
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[1].kind, ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_API);
  EXPECT_EQ(events[1].op, ROCPROFILER_MARKER_CORE_API_ID_roctxGetThreadId);
  // The out-parameter is followed at EXIT.
  EXPECT_EQ(events[1].args,
            "roctx_thread_id_t* tid=" + std::to_string(tid) + "; ");
}

TEST_F(MarkerRequests, NullArgumentsAreRefusedAndNotReported) {
  EXPECT_NE(roctxNameOsThread(nullptr), 0);
  EXPECT_NE(roctxNameHsaAgent("a", nullptr), 0);
  EXPECT_NE(roctxNameHsaAgent(nullptr, nullptr), 0);
  EXPECT_NE(roctxNameHipDevice(nullptr, 0), 0);
  EXPECT_NE(roctxNameHipStream(nullptr, nullptr), 0);
  EXPECT_NE(roctxGetThreadId(nullptr), 0);
  EXPECT_TRUE(Take().empty());
  // A NULL stream is the default stream: a valid request.
  EXPECT_EQ(roctxNameHipStream("default", nullptr), 0);
  EXPECT_EQ(Take().size(), 2u);
}

TEST_F(MarkerRequests, RequestFromACallbackActsButIsNotReported) {
  ASSERT_EQ(roctracer_enable_domain_callback(ACTIVITY_DOMAIN_ROCTX, &OnRoctx,
                                             nullptr),
            ROCTRACER_STATUS_SUCCESS);
  g_pause_from_callback.store(true);
  EXPECT_EQ(roctxNameOsThread("t"), 0);
  const auto events = Take();
  ASSERT_EQ(events.size(), 2u);  // the name request only
  for (const Event& e : events) {
    EXPECT_EQ(e.kind, ROCPROFILER_CALLBACK_TRACING_MARKER_NAME_API);
  }
  const int before = g_roctracer_marks.load();
  roctxMarkA("paused by the callback");
  EXPECT_EQ(g_roctracer_marks.load(), before);
}

TEST_F(MarkerRequests, WithoutATracerRequestsStillAnswer) {
  roctracer::DetachRoctx(nullptr);
  EXPECT_EQ(roctxProfilerPause(0), 0);
  EXPECT_EQ(roctxNameOsThread("alone"), 0);
  roctx_thread_id_t tid = 0;
  EXPECT_EQ(roctxGetThreadId(&tid), 0);
  EXPECT_EQ(tid, static_cast<roctx_thread_id_t>(syscall(SYS_gettid)));
  EXPECT_TRUE(Take().empty());
  roctracer::AttachRoctx(roctx_internal_link());
}

// Many threads naming themselves and pausing/resuming while one attaches and
// detaches the tracer: every reported request is complete (ENTER and EXIT,
// same thread and correlation ID). For TSan.
TEST_F(MarkerRequests, ConcurrentRequests) {
  constexpr int kThreads = 4;
  constexpr int kRounds = 200;
  std::atomic<bool> done{false};
  std::thread flipper([&] {
    while (!done.load()) {
      roctracer::DetachRoctx(nullptr);
      roctracer::AttachRoctx(roctx_internal_link());
    }
  });
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([t] {
      for (int i = 0; i < kRounds; ++i) {
        EXPECT_EQ(roctxNameOsThread("thread"), 0);
        EXPECT_EQ(t % 2 == 0 ? roctxProfilerPause(0) : roctxProfilerResume(0),
                  0);
      }
    });
  }
  for (auto& th : threads) th.join();
  done.store(true);
  flipper.join();
  roctracer::AttachRoctx(roctx_internal_link());
  const auto events = Take();
  size_t enters = 0, exits = 0;
  for (const Event& e : events) {
    (e.phase == ROCPROFILER_CALLBACK_PHASE_ENTER ? enters : exits)++;
  }
  EXPECT_EQ(enters, exits);
}

}  // namespace

int main(int argc, char** argv) {
  return sdk_test::RunWithTool(argc, argv, &ToolConfigure);
}
