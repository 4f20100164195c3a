// A tool that stops its context, or finalizes itself, from inside its
// callback on two threads at once: each stop must not wait for the other
// thread's callback, which cannot return before that thread's own stop does.
// Each scenario runs in a fresh process (one tool registration per process)
// and a deadlock fails the test instead of hanging it.
#include <sched.h>

#include <atomic>
#include <cstring>
#include <thread>

#include "ext/prof_protocol.h"
#include "gtest/gtest.h"
#include "rocprofiler-sdk/rocprofiler.h"
#include "roctracer_roctx.h"
#include "tests/sdk/bounded_child.h"
#include "tests/sdk/fake_consumer_seam.h"
#include "tests/sdk/tool_configure.h"

namespace {

enum class Action { kStopOwnContext, kStopOtherContext, kFinalize };

Action g_action;
rocprofiler_context_id_t g_ctx[2];
uint32_t g_client_handle = 0;
rocprofiler_client_finalize_t g_finalize = nullptr;
std::atomic<int> g_inside{0};
std::atomic<int> g_failures{0};
std::atomic<int> g_finalize_calls{0};

// Waits until both threads are inside a callback, then stops.
void Callback(rocprofiler_callback_tracing_record_t r, rocprofiler_user_data_t*,
              void* data) {
  if (r.phase != ROCPROFILER_CALLBACK_PHASE_ENTER) return;
  g_inside.fetch_add(1);
  while (g_inside.load() < 2) sched_yield();
  const int mine = static_cast<int>(reinterpret_cast<intptr_t>(data));
  switch (g_action) {
    case Action::kStopOwnContext:
      if (rocprofiler_stop_context(r.context_id) != ROCPROFILER_STATUS_SUCCESS)
        g_failures++;
      break;
    case Action::kStopOtherContext:
      if (rocprofiler_stop_context(g_ctx[1 - mine]) !=
          ROCPROFILER_STATUS_SUCCESS)
        g_failures++;
      break;
    case Action::kFinalize:
      g_finalize(rocprofiler_client_id_t{sizeof(rocprofiler_client_id_t),
                                         nullptr, g_client_handle});
      break;
  }
}

// Context 0 traces roctxMarkA, context 1 roctxRangePushA.
const rocprofiler_tracing_operation_t kOps[2] = {
    ROCPROFILER_MARKER_CORE_API_ID_roctxMarkA,
    ROCPROFILER_MARKER_CORE_API_ID_roctxRangePushA};

int Init(rocprofiler_client_finalize_t finalize, void*) {
  g_finalize = finalize;
  for (intptr_t i = 0; i < 2; ++i) {
    if (rocprofiler_create_context(&g_ctx[i]) != ROCPROFILER_STATUS_SUCCESS ||
        rocprofiler_configure_callback_tracing_service(
            g_ctx[i], ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_API, &kOps[i], 1,
            &Callback,
            reinterpret_cast<void*>(i)) != ROCPROFILER_STATUS_SUCCESS ||
        rocprofiler_start_context(g_ctx[i]) != ROCPROFILER_STATUS_SUCCESS) {
      return 1;
    }
  }
  return 0;
}

void Fini(void*) { g_finalize_calls++; }

rocprofiler_tool_configure_result_t* Configure(uint32_t, const char*, uint32_t,
                                               rocprofiler_client_id_t* id) {
  g_client_handle = id->handle;
  return sdk_test::Configure<&Init, &Fini>(id, nullptr);
}

// One traced rocTX call: roctxMarkA reaches context 0's callback,
// roctxRangePushA context 1's.
void Call(uint32_t op, uint64_t correlation) {
  roctx_api_data_t d;
  std::memset(&d, 0, sizeof(d));
  d.args.roctxMarkA.message = "m";  // same place for both ops
  fake_seam::Call(ACTIVITY_DOMAIN_ROCTX, op, ACTIVITY_API_PHASE_ENTER,
                  correlation, &d);
  fake_seam::Call(ACTIVITY_DOMAIN_ROCTX, op, ACTIVITY_API_PHASE_EXIT,
                  correlation, &d);
}

// Exit codes: 0 ok; 2 registration; 3 a status; 4 a context still active;
// 5 finalize count.
int Scenario(Action action) {
  g_action = action;
  if (rocprofiler_force_configure(&Configure) != ROCPROFILER_STATUS_SUCCESS)
    return 2;
  // Both threads in context 0's callback, or (stopping each other's) one
  // in each context's.
  const uint32_t second = action == Action::kStopOtherContext
                              ? ROCTX_API_ID_roctxRangePushA
                              : ROCTX_API_ID_roctxMarkA;
  std::thread a(Call, ROCTX_API_ID_roctxMarkA, 1), b(Call, second, 2);
  a.join();
  b.join();
  if (g_failures.load() != 0) return 3;
  const int stopped = action == Action::kStopOwnContext ? 1 : 2;
  for (int i = 0; i < stopped; ++i) {
    int active = 1;
    rocprofiler_context_is_active(g_ctx[i], &active);
    if (active != 0) return 4;
  }
  if (action == Action::kFinalize && g_finalize_calls.load() != 1) return 5;
  return 0;
}

TEST(StopInCallbacks, TwoThreadsStopTheContextOfTheirCallbackAtOnce) {
  EXPECT_EQ(
      0, bounded_child::Run([] { return Scenario(Action::kStopOwnContext); }));
}

TEST(StopInCallbacks, TwoThreadsStopEachOthersContextAtOnce) {
  EXPECT_EQ(0, bounded_child::Run(
                   [] { return Scenario(Action::kStopOtherContext); }));
}

TEST(StopInCallbacks, TwoThreadsFinalizeTheToolAtOnce) {
  EXPECT_EQ(0, bounded_child::Run([] { return Scenario(Action::kFinalize); }));
}

}  // namespace
