// MARKER_CORE_RANGE_API and RUNTIME_INITIALIZATION (rocTX) with libroctx's
// functions, the tracer's rocTX bridge and the SDK front end in one process
// (attached by hand, as the load-time handshake would): what a tool sees of
// rocTX ranges, through callbacks and buffer records, and of the rocTX
// runtime's initialization.
#include <gtest/gtest.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstring>
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
  int32_t kind;
  int32_t op;
  int32_t phase;
  uint64_t correlation;
  uint64_t ancestor;
  uint64_t thread;
  uint64_t user;        // user_data at the callback (EXIT: what ENTER left)
  std::string message;  // the payload's message argument, if any
  int64_t retval;       // ranges: the push's level or the start's ID
  uint64_t version;     // RUNTIME_INITIALIZATION
};

std::mutex g_mutex;
std::vector<Event> g_events;
std::vector<Event> g_init_events;  // RUNTIME_INITIALIZATION, never cleared
std::vector<rocprofiler_buffer_tracing_marker_api_record_t> g_records;
std::vector<rocprofiler_buffer_tracing_runtime_initialization_record_t>
    g_init_records;
rocprofiler_buffer_id_t g_buffer;
rocprofiler_status_t g_stream_buffer_status = ROCPROFILER_STATUS_ERROR;
uint64_t g_next_user = 100;

void OnCall(rocprofiler_callback_tracing_record_t r,
            rocprofiler_user_data_t* user, void*) {
  std::lock_guard<std::mutex> lock(g_mutex);
  Event e{r.kind,
          r.operation,
          r.phase,
          r.correlation_id.internal,
          r.correlation_id.ancestor,
          r.thread_id,
          user->value,
          "",
          0,
          0};
  if (r.kind == ROCPROFILER_CALLBACK_TRACING_RUNTIME_INITIALIZATION) {
    const auto* p = static_cast<
        const rocprofiler_callback_tracing_runtime_initialization_data_t*>(
        r.payload);
    e.version = p->version;
    g_init_events.push_back(e);
    return;
  }
  const auto* p =
      static_cast<const rocprofiler_callback_tracing_marker_api_data_t*>(
          r.payload);
  const char* m =
      r.operation == ROCPROFILER_MARKER_CORE_RANGE_API_ID_roctxGetThreadId
          ? nullptr
          : p->args.roctxMarkA.message;
  if (m != nullptr) e.message = m;
  e.retval =
      r.operation == ROCPROFILER_MARKER_CORE_RANGE_API_ID_roctxProcessRangeA
          ? static_cast<int64_t>(p->retval.roctx_range_id_t_retval)
          : p->retval.int32_t_retval;
  // Each ENTER leaves a distinct value for its EXIT.
  if (r.phase == ROCPROFILER_CALLBACK_PHASE_ENTER) user->value = g_next_user++;
  g_events.push_back(e);
}

void OnRecords(rocprofiler_context_id_t, rocprofiler_buffer_id_t,
               rocprofiler_record_header_t** headers, size_t n, void*,
               uint64_t) {
  std::lock_guard<std::mutex> lock(g_mutex);
  for (size_t i = 0; i < n; ++i) {
    if (headers[i]->category != ROCPROFILER_BUFFER_CATEGORY_TRACING) continue;
    if (headers[i]->kind == ROCPROFILER_BUFFER_TRACING_MARKER_CORE_RANGE_API) {
      g_records.push_back(
          *static_cast<const rocprofiler_buffer_tracing_marker_api_record_t*>(
              headers[i]->payload));
    } else if (headers[i]->kind ==
               ROCPROFILER_BUFFER_TRACING_RUNTIME_INITIALIZATION) {
      g_init_records.push_back(
          *static_cast<
              const rocprofiler_buffer_tracing_runtime_initialization_record_t*>(
              headers[i]->payload));
    }
  }
}

std::vector<Event> Take() {
  std::lock_guard<std::mutex> lock(g_mutex);
  std::vector<Event> out;
  out.swap(g_events);
  return out;
}

std::vector<rocprofiler_buffer_tracing_marker_api_record_t> TakeRecords() {
  EXPECT_EQ(rocprofiler_flush_buffer(g_buffer), ROCPROFILER_STATUS_SUCCESS);
  std::lock_guard<std::mutex> lock(g_mutex);
  std::vector<rocprofiler_buffer_tracing_marker_api_record_t> out;
  out.swap(g_records);
  return out;
}

int ToolInit(rocprofiler_client_finalize_t, void*) {
  rocprofiler_context_id_t callbacks{}, buffered{};
  EXPECT_EQ(rocprofiler_create_context(&callbacks), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(rocprofiler_create_context(&buffered), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(rocprofiler_create_buffer(buffered, 8192, 4096,
                                      ROCPROFILER_BUFFER_POLICY_LOSSLESS,
                                      &OnRecords, nullptr, &g_buffer),
            ROCPROFILER_STATUS_SUCCESS);
  for (auto kind : {ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_RANGE_API,
                    ROCPROFILER_CALLBACK_TRACING_RUNTIME_INITIALIZATION}) {
    EXPECT_EQ(rocprofiler_configure_callback_tracing_service(
                  callbacks, kind, nullptr, 0, &OnCall, nullptr),
              ROCPROFILER_STATUS_SUCCESS);
  }
  for (auto kind : {ROCPROFILER_BUFFER_TRACING_MARKER_CORE_RANGE_API,
                    ROCPROFILER_BUFFER_TRACING_RUNTIME_INITIALIZATION}) {
    EXPECT_EQ(rocprofiler_configure_buffer_tracing_service(
                  buffered, kind, nullptr, 0, g_buffer),
              ROCPROFILER_STATUS_SUCCESS);
  }
  g_stream_buffer_status = rocprofiler_configure_buffer_tracing_service(
      buffered, ROCPROFILER_BUFFER_TRACING_HIP_STREAM, nullptr, 0, g_buffer);
  EXPECT_EQ(rocprofiler_start_context(buffered), ROCPROFILER_STATUS_SUCCESS);
  return rocprofiler_start_context(callbacks) == ROCPROFILER_STATUS_SUCCESS
             ? 0
             : -1;
}

rocprofiler_tool_configure_result_t* ToolConfigure(
    uint32_t, const char*, uint32_t, rocprofiler_client_id_t* id) {
  return sdk_test::Configure<&ToolInit>(id, "marker_ranges_test");
}

uint64_t Tid() { return static_cast<uint64_t>(syscall(SYS_gettid)); }

class MarkerRanges : public ::testing::Test {
 protected:
  void SetUp() override {
    roctracer::AttachRoctx(roctx_internal_link());
    Take();
    TakeRecords();
  }
};

// ENTER and EXIT of one range (or call): same operation and correlation ID,
// the EXIT with the user value its ENTER left.
void ExpectPair(const Event& enter, const Event& exit, int32_t op) {
  EXPECT_EQ(enter.kind, ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_RANGE_API);
  EXPECT_EQ(exit.kind, ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_RANGE_API);
  EXPECT_EQ(enter.op, op);
  EXPECT_EQ(exit.op, op);
  EXPECT_EQ(enter.phase, ROCPROFILER_CALLBACK_PHASE_ENTER);
  EXPECT_EQ(exit.phase, ROCPROFILER_CALLBACK_PHASE_EXIT);
  EXPECT_NE(enter.correlation, 0u);
  EXPECT_EQ(enter.correlation, exit.correlation);
  EXPECT_EQ(enter.user, 0u);
  EXPECT_GE(exit.user, 100u);
  EXPECT_EQ(enter.thread, exit.thread);
}

TEST_F(MarkerRanges, NestedThreadRangesCloseInnermostFirst) {
  EXPECT_EQ(roctxRangePushA("outer"), 0);
  EXPECT_EQ(roctxRangePushA("inner"), 1);
  EXPECT_EQ(roctxRangePop(), 1);
  EXPECT_EQ(roctxRangePop(), 0);
  const auto e = Take();
  ASSERT_EQ(e.size(), 4u);
  const int32_t op = ROCPROFILER_MARKER_CORE_RANGE_API_ID_roctxThreadRangeA;
  // outer ENTER, inner ENTER, inner EXIT, outer EXIT.
  ExpectPair(e[1], e[2], op);
  ExpectPair(e[0], e[3], op);
  EXPECT_EQ(e[0].message, "outer");
  EXPECT_EQ(e[3].message, "outer");
  EXPECT_EQ(e[1].message, "inner");
  EXPECT_EQ(e[2].message, "inner");
  EXPECT_NE(e[0].correlation, e[1].correlation);
  // The level each push returned, at its range's EXIT.
  EXPECT_EQ(e[2].retval, 1);
  EXPECT_EQ(e[3].retval, 0);
  EXPECT_NE(e[2].user, e[3].user);
  EXPECT_EQ(e[0].thread, Tid());
  const auto r = TakeRecords();
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].correlation_id.internal, e[1].correlation);  // inner first
  EXPECT_EQ(r[1].correlation_id.internal, e[0].correlation);
  for (const auto& rec : r) {
    EXPECT_EQ(rec.size, sizeof(rec));
    EXPECT_EQ(rec.kind, ROCPROFILER_BUFFER_TRACING_MARKER_CORE_RANGE_API);
    EXPECT_EQ(rec.operation, op);
    EXPECT_EQ(rec.thread_id, Tid());
    EXPECT_LT(rec.start_timestamp, rec.end_timestamp);
  }
  // The inner range lies within the outer one.
  EXPECT_GT(r[0].start_timestamp, r[1].start_timestamp);
  EXPECT_LT(r[0].end_timestamp, r[1].end_timestamp);
}

TEST_F(MarkerRanges, APopWithNoRangeOpenIsNotReported) {
  EXPECT_EQ(roctxRangePop(), -1);
  EXPECT_TRUE(Take().empty());
  EXPECT_TRUE(TakeRecords().empty());
}

TEST_F(MarkerRanges, AProcessRangeStoppedOnAnotherThreadKeepsItsStart) {
  const roctx_range_id_t id = roctxRangeStartA("across");
  uint64_t stopper = 0;
  std::thread t([&] {
    stopper = Tid();
    roctxRangeStop(id);
  });
  t.join();
  // Stopping it again, or an ID never started: nothing.
  roctxRangeStop(id);
  const auto e = Take();
  ASSERT_EQ(e.size(), 2u);
  ExpectPair(e[0], e[1],
             ROCPROFILER_MARKER_CORE_RANGE_API_ID_roctxProcessRangeA);
  EXPECT_EQ(e[0].message, "across");
  EXPECT_EQ(e[1].retval, static_cast<int64_t>(id));
  EXPECT_EQ(e[1].thread, Tid());  // the starting thread's
  EXPECT_NE(stopper, Tid());
  const auto r = TakeRecords();
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].operation,
            ROCPROFILER_MARKER_CORE_RANGE_API_ID_roctxProcessRangeA);
  EXPECT_EQ(r[0].correlation_id.internal, e[0].correlation);
  EXPECT_EQ(r[0].thread_id, Tid());
}

TEST_F(MarkerRanges, MarksAndThreadIdsAreCalls) {
  roctxMarkA("here");
  roctx_thread_id_t tid = 0;
  EXPECT_EQ(roctxGetThreadId(&tid), 0);
  const auto e = Take();
  ASSERT_EQ(e.size(), 4u);
  ExpectPair(e[0], e[1], ROCPROFILER_MARKER_CORE_RANGE_API_ID_roctxMarkA);
  EXPECT_EQ(e[0].message, "here");
  ExpectPair(e[2], e[3], ROCPROFILER_MARKER_CORE_RANGE_API_ID_roctxGetThreadId);
  const auto r = TakeRecords();
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].operation, ROCPROFILER_MARKER_CORE_RANGE_API_ID_roctxMarkA);
  EXPECT_EQ(r[0].correlation_id.internal, e[0].correlation);
  EXPECT_EQ(r[1].operation,
            ROCPROFILER_MARKER_CORE_RANGE_API_ID_roctxGetThreadId);
}

int CollectArg(rocprofiler_callback_tracing_kind_t,
               rocprofiler_tracing_operation_t, uint32_t, const void* const,
               int32_t, const char* type, const char* name, const char* value,
               int32_t, void* data) {
  *static_cast<std::string*>(data) +=
      std::string(type) + " " + name + "=" + value + "; ";
  return 0;
}

// As in rocprofiler-sdk 1.0.0, the HIP_STREAM buffer kind is configured
// (its events are callbacks only: nothing is ever written to it).
TEST(HipStreamBuffer, IsConfigured) {
  EXPECT_EQ(g_stream_buffer_status, ROCPROFILER_STATUS_SUCCESS);
}

TEST(MarkerRangeArgs, IterateTheRangesMessage) {
  rocprofiler_callback_tracing_marker_api_data_t p{};
  p.size = sizeof(p);
  p.args.roctxThreadRangeA.message = "m";
  rocprofiler_callback_tracing_record_t r{};
  r.kind = ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_RANGE_API;
  r.operation = ROCPROFILER_MARKER_CORE_RANGE_API_ID_roctxThreadRangeA;
  r.phase = ROCPROFILER_CALLBACK_PHASE_ENTER;
  r.payload = &p;
  std::string args;
  EXPECT_EQ(rocprofiler_iterate_callback_tracing_kind_operation_args(
                r, &CollectArg, 1, &args),
            ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(args, "const char* message=\"m\"; ");
}

// The rocTX runtime initialized once, at the process's first rocTX call,
// with rocprofiler-sdk-roctx's version: one callback (phase NONE, no
// correlation ID) and one record. (Checked last: the other tests' calls
// come first in gtest's order within this binary, any of them is the first.)
TEST(RuntimeInitialization, RocTxIsReportedOnceWithItsVersion) {
  roctracer::AttachRoctx(roctx_internal_link());
  roctxMarkA("another");
  EXPECT_EQ(rocprofiler_flush_buffer(g_buffer), ROCPROFILER_STATUS_SUCCESS);
  std::lock_guard<std::mutex> lock(g_mutex);
  ASSERT_EQ(g_init_events.size(), 1u);
  const Event& e = g_init_events[0];
  EXPECT_EQ(e.op, ROCPROFILER_RUNTIME_INITIALIZATION_MARKER);
  EXPECT_EQ(e.phase, ROCPROFILER_CALLBACK_PHASE_NONE);
  EXPECT_EQ(e.correlation, 0u);
  EXPECT_EQ(e.ancestor, 0u);
  EXPECT_EQ(e.version, 10000u);  // 1.0.0
  EXPECT_EQ(e.thread, Tid());
  ASSERT_EQ(g_init_records.size(), 1u);
  const auto& r = g_init_records[0];
  EXPECT_EQ(r.size, sizeof(r));
  EXPECT_EQ(r.kind, ROCPROFILER_BUFFER_TRACING_RUNTIME_INITIALIZATION);
  EXPECT_EQ(r.operation, ROCPROFILER_RUNTIME_INITIALIZATION_MARKER);
  EXPECT_EQ(r.version, 10000u);
  EXPECT_EQ(r.instance, 0u);
  EXPECT_EQ(r.correlation_id.internal, 0u);
  EXPECT_NE(r.timestamp, 0u);
  EXPECT_EQ(r.thread_id, Tid());
}

}  // namespace

int main(int argc, char** argv) {
  return sdk_test::RunWithTool(argc, argv, &ToolConfigure);
}
