// fork() while another thread is inside an SDK callback, or holds the SDK's
// configuration lock: the child, where that thread does not exist, must
// neither wait for it (stop, exit-time finalize) nor block on its lock, and
// keeps tracing its own calls. Each scenario runs in a fresh process with
// the tool registered; the child's end is awaited with a bound, so a hang
// fails the test.
#include <sched.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <mutex>
#include <thread>

#include "ext/prof_protocol.h"
#include "gtest/gtest.h"
#include "rocprofiler-sdk/rocprofiler.h"
#include "roctracer_roctx.h"
#include "sdk/config_lock.h"
#include "tests/sdk/bounded_child.h"
#include "tests/sdk/fake_consumer_seam.h"
#include "tests/sdk/tool_configure.h"

namespace {

rocprofiler_context_id_t g_ctx;
std::atomic<int> g_callbacks{0};
std::atomic<int> g_finalized{0};
// The thread that parks inside its callback until released.
thread_local bool t_park = false;
std::atomic<bool> g_parked{false};
std::atomic<bool> g_release{false};

void Callback(rocprofiler_callback_tracing_record_t, rocprofiler_user_data_t*,
              void*) {
  g_callbacks++;
  if (!t_park) return;
  g_parked = true;
  while (!g_release.load()) sched_yield();
}

int Init(rocprofiler_client_finalize_t, void*) {
  if (rocprofiler_create_context(&g_ctx) != ROCPROFILER_STATUS_SUCCESS ||
      rocprofiler_configure_callback_tracing_service(
          g_ctx, ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_API, nullptr, 0,
          &Callback, nullptr) != ROCPROFILER_STATUS_SUCCESS ||
      rocprofiler_start_context(g_ctx) != ROCPROFILER_STATUS_SUCCESS) {
    return 1;
  }
  return 0;
}

void Fini(void*) { g_finalized++; }

rocprofiler_tool_configure_result_t* Configure(uint32_t, const char*, uint32_t,
                                               rocprofiler_client_id_t* id) {
  return sdk_test::Configure<&Init, &Fini>(id, nullptr);
}

void Mark(uint64_t correlation) {
  roctx_api_data_t d;
  std::memset(&d, 0, sizeof(d));
  d.args.roctxMarkA.message = "m";
  fake_seam::Call(ACTIVITY_DOMAIN_ROCTX, ROCTX_API_ID_roctxMarkA,
                  ACTIVITY_API_PHASE_ENTER, correlation, &d);
  fake_seam::Call(ACTIVITY_DOMAIN_ROCTX, ROCTX_API_ID_roctxMarkA,
                  ACTIVITY_API_PHASE_EXIT, correlation, &d);
}

// In the child: exits at once (exit-time finalize), or first traces a call
// of its own and stops and restarts the context. Exit codes: 0 ok, 10 the
// call was not traced, 11 a status.
enum class ChildDoes { kExit, kUseSdk };

int Child(ChildDoes what) {
  if (what == ChildDoes::kExit) return 0;
  const int before = g_callbacks.load();
  Mark(1000);
  if (g_callbacks.load() != before + 2) return 10;
  if (rocprofiler_stop_context(g_ctx) != ROCPROFILER_STATUS_SUCCESS ||
      rocprofiler_start_context(g_ctx) != ROCPROFILER_STATUS_SUCCESS) {
    return 11;
  }
  return 0;
}

// Forks while `hold` holds something on another thread. Returns the child's
// exit code, 20 when the child hung, 21 when a signal ended it, 2 when the
// tool did not register.
template <class Hold>
int ForkWhile(Hold hold, ChildDoes what) {
  if (rocprofiler_force_configure(&Configure) != ROCPROFILER_STATUS_SUCCESS)
    return 2;
  g_parked = false;
  g_release = false;
  std::thread holder(hold);
  while (!g_parked.load()) sched_yield();
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid == 0) std::exit(Child(what));
  const int child =
      pid < 0 ? bounded_child::kForkFailed : bounded_child::Wait(pid);
  g_release = true;
  holder.join();
  // The parent is unaffected: its finalize runs at its own exit.
  if (child == bounded_child::kHung) return 20;
  return child < 0 ? 21 : child;
}

void InsideCallback() {
  t_park = true;
  Mark(1);
}

void HoldingConfigLock() {
  std::lock_guard<std::mutex> lock(rocprofiler_sdk::ConfigMutex());
  g_parked = true;
  while (!g_release.load()) sched_yield();
}

TEST(SdkFork, ChildExitsWhileAnotherThreadWasInsideACallback) {
  EXPECT_EQ(0, bounded_child::Run([] {
              return ForkWhile(&InsideCallback, ChildDoes::kExit);
            }));
}

TEST(SdkFork, ChildTracesAndStopsWhileAnotherThreadWasInsideACallback) {
  EXPECT_EQ(0, bounded_child::Run([] {
              return ForkWhile(&InsideCallback, ChildDoes::kUseSdk);
            }));
}

TEST(SdkFork, ChildStopsAndStartsWhileAnotherThreadHeldTheConfigLock) {
  EXPECT_EQ(0, bounded_child::Run([] {
              return ForkWhile(&HoldingConfigLock, ChildDoes::kUseSdk);
            }));
}

TEST(SdkFork, ChildExitsWhileAnotherThreadHeldTheConfigLock) {
  EXPECT_EQ(0, bounded_child::Run([] {
              return ForkWhile(&HoldingConfigLock, ChildDoes::kExit);
            }));
}

}  // namespace
