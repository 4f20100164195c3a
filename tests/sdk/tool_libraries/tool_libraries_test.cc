// ROCP_TOOL_LIBRARIES names two tool libraries: both are loaded and
// registered in that order, each with its own client handle, their
// constructors ran before their initialize, both record the same calls in
// buffers of their own, and at exit each finalize runs, after its buffer
// was delivered, while the library's globals are still alive.
#include <dlfcn.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "ext/prof_protocol.h"
#include "gtest/gtest.h"
#include "hip_api_data.h"
#include "hsa_api_data.h"
#include "rocprofiler-sdk/registration.h"
#include "tests/sdk/fake_consumer_seam.h"

struct ToolEvent {
  std::string tool, what;
  uint64_t value;
};
std::mutex g_mutex;
std::vector<ToolEvent>* g_events = new std::vector<ToolEvent>;

extern "C" __attribute__((visibility("default"))) void tool_event(
    const char* tool, const char* what, uint64_t value) {
  std::lock_guard<std::mutex> lock(g_mutex);
  g_events->push_back(ToolEvent{tool, what, value});
}

namespace {

TEST(ToolLibraries, LoadedInOrderEachWithItsOwnClient) {
  int status = -1;
  ASSERT_EQ(rocprofiler_is_initialized(&status), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(status, 0);
  // Loaded and registered at the runtimes' first call (a HIP call: the
  // tools record only HSA calls, so their buffers stay empty).
  hip_api_data_t first{};
  fake_seam::Call(ACTIVITY_DOMAIN_HIP_API, HIP_API_ID_hipGetErrorString,
                  ACTIVITY_API_PHASE_ENTER, 1000, &first);
  fake_seam::Call(ACTIVITY_DOMAIN_HIP_API, HIP_API_ID_hipGetErrorString,
                  ACTIVITY_API_PHASE_EXIT, 1000, &first);
  ASSERT_EQ(rocprofiler_is_initialized(&status), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(status, 1);
  std::vector<ToolEvent> ev;
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    ev = *g_events;
  }
  ASSERT_EQ(ev.size(), 6u);
  EXPECT_EQ(ev[0].tool, "a");
  EXPECT_EQ(ev[0].what, "configure");
  EXPECT_EQ(ev[1].what, "priority");
  EXPECT_EQ(ev[1].value, 0u);
  EXPECT_EQ(ev[2].tool, "b");
  EXPECT_EQ(ev[2].what, "configure");
  EXPECT_EQ(ev[3].value, 1u);  // the second tool accepted
  EXPECT_NE(ev[0].value, ev[2].value);
  EXPECT_EQ(ev[4].tool, "a");
  EXPECT_EQ(ev[4].what, "initialize");
  EXPECT_EQ(ev[4].value, 1u);  // its globals were constructed
  EXPECT_EQ(ev[5].tool, "b");
  EXPECT_EQ(ev[5].value, 1u);
}

TEST(ToolLibraries, BothToolsRecordEveryCallAndFinalizeBeforeDestructors) {
  EXPECT_EXIT(
      {
        hsa_api_data_t d{};
        for (uint64_t i = 1; i <= 25; ++i) {
          fake_seam::Call(ACTIVITY_DOMAIN_HSA_API, HSA_API_ID_hsa_init,
                          ACTIVITY_API_PHASE_ENTER, i, &d);
          fake_seam::Call(ACTIVITY_DOMAIN_HSA_API, HSA_API_ID_hsa_init,
                          ACTIVITY_API_PHASE_EXIT, i, &d);
        }
        std::exit(0);
      },
      testing::ExitedWithCode(0),
      "tool b finalize: globals alive, log 2, records 25, "
      "client 1 tool_library_b\n"
      "tool a finalize: globals alive, log 2, records 25, "
      "client 0 tool_library_a\n");
}

// exit() from a worker thread while the main thread waits: the same
// finalize order, on the worker.
TEST(ToolLibraries, ExitFromAWorkerThreadFinalizesBeforeDestructors) {
  EXPECT_EXIT({ std::thread([] { std::exit(0); }).join(); },
              testing::ExitedWithCode(0),
              "tool b finalize: globals alive, log 2, records 0, "
              "client 1 tool_library_b\n"
              "tool a finalize: globals alive, log 2, records 0, "
              "client 0 tool_library_a\n");
}

// A tool finalizing itself through the client ID pointer its configure was
// given (kept until then) finalizes that tool, and only once: the other one
// is finalized at exit.
TEST(ToolLibraries, FinalizeThroughTheKeptClientIdFinalizesThatTool) {
  // The second path of ROCP_TOOL_LIBRARIES: tool b.
  const std::string libs = std::getenv("ROCP_TOOL_LIBRARIES");
  const std::string b_path = libs.substr(libs.find(':') + 1);
  void* b = dlopen(b_path.c_str(), RTLD_LAZY | RTLD_NOLOAD);
  ASSERT_NE(b, nullptr) << dlerror();
  auto finalize_b =
      reinterpret_cast<void (*)()>(dlsym(b, "tool_library_finalize_self"));
  ASSERT_NE(finalize_b, nullptr);
  EXPECT_EXIT(
      {
        finalize_b();
        std::fprintf(stderr, "b finalized itself\n");
        std::exit(0);
      },
      testing::ExitedWithCode(0),
      "^tool b finalize: globals alive, log 2, records 0, "
      "client 1 tool_library_b\n"
      "b finalized itself\n"
      "tool a finalize: globals alive, log 2, records 0, "
      "client 0 tool_library_a\n");
  dlclose(b);
}

// _exit() runs nothing: no finalize, and no crash either.
TEST(ToolLibraries, UnderscoreExitRunsNoFinalize) {
  EXPECT_EXIT(_exit(3), testing::ExitedWithCode(3), "^$");
}

}  // namespace
