// rocprofiler_at_internal_thread_create: a tool registering from
// rocprofiler_configure is told, on the creating thread, before and after
// each thread the library starts for it (a buffer's delivery thread, a
// callback thread); registrations for other libraries only are not called.
#include <atomic>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "rocprofiler-sdk/rocprofiler.h"
#include "tests/sdk/run_with_tool.h"
#include "tests/sdk/tool_configure.h"

namespace {

struct Seen {
  std::vector<char> events;  // 'b' before, 'a' after
  std::vector<rocprofiler_runtime_library_t> libraries;
  std::vector<std::thread::id> threads;
};
Seen g_all, g_sdk_only, g_hsa_only;
int g_post_only_calls = 0;
std::thread::id g_init_thread;
rocprofiler_status_t g_register[4];
int g_events_before_buffer = -1;
int g_events_after_buffer = -1;
int g_events_after_thread = -1;

void Record(Seen* s, char e, rocprofiler_runtime_library_t lib) {
  s->events.push_back(e);
  s->libraries.push_back(lib);
  s->threads.push_back(std::this_thread::get_id());
}
void Before(rocprofiler_runtime_library_t lib, void* d) {
  Record(static_cast<Seen*>(d), 'b', lib);
}
void After(rocprofiler_runtime_library_t lib, void* d) {
  Record(static_cast<Seen*>(d), 'a', lib);
}
void PostOnly(rocprofiler_runtime_library_t, void*) { ++g_post_only_calls; }

void Deliver(rocprofiler_context_id_t, rocprofiler_buffer_id_t,
             rocprofiler_record_header_t**, size_t, void*, uint64_t) {}

int Init(rocprofiler_client_finalize_t, void*) {
  g_init_thread = std::this_thread::get_id();
  rocprofiler_context_id_t ctx{0};
  if (rocprofiler_create_context(&ctx) != ROCPROFILER_STATUS_SUCCESS) return 1;
  g_events_before_buffer = static_cast<int>(g_all.events.size());
  rocprofiler_buffer_id_t buffer{0};
  if (rocprofiler_create_buffer(
          ctx, 4096, 1024, ROCPROFILER_BUFFER_POLICY_LOSSLESS, &Deliver,
          nullptr, &buffer) != ROCPROFILER_STATUS_SUCCESS) {
    return 1;
  }
  g_events_after_buffer = static_cast<int>(g_all.events.size());
  rocprofiler_callback_thread_t thread{0};
  if (rocprofiler_create_callback_thread(&thread) !=
          ROCPROFILER_STATUS_SUCCESS ||
      rocprofiler_assign_callback_thread(buffer, thread) !=
          ROCPROFILER_STATUS_SUCCESS) {
    return 1;
  }
  g_events_after_thread = static_cast<int>(g_all.events.size());
  return 0;
}

rocprofiler_tool_configure_result_t* Configure(uint32_t, const char*, uint32_t,
                                               rocprofiler_client_id_t* id) {
  g_register[0] =
      rocprofiler_at_internal_thread_create(&Before, &After, 0, &g_all);
  g_register[1] = rocprofiler_at_internal_thread_create(
      &Before, &After, ROCPROFILER_LIBRARY | ROCPROFILER_HIP_LIBRARY,
      &g_sdk_only);
  g_register[2] = rocprofiler_at_internal_thread_create(
      &Before, &After, ROCPROFILER_HSA_LIBRARY, &g_hsa_only);
  g_register[3] = rocprofiler_at_internal_thread_create(
      nullptr, &PostOnly, ROCPROFILER_LIBRARY, nullptr);
  return sdk_test::Configure<&Init>(id, nullptr);
}

TEST(InternalThreading, RegistrationSucceeds) {
  for (rocprofiler_status_t s : g_register) {
    EXPECT_EQ(s, ROCPROFILER_STATUS_SUCCESS);
  }
}

TEST(InternalThreading, EachThreadTheLibraryStartsIsAnnounced) {
  // One pair for the buffer's delivery thread, one for the callback thread.
  EXPECT_EQ(g_events_before_buffer, 0);
  EXPECT_EQ(g_events_after_buffer, 2);
  EXPECT_EQ(g_events_after_thread, 4);
  EXPECT_EQ(g_all.events, (std::vector<char>{'b', 'a', 'b', 'a'}));
  for (size_t i = 0; i < g_all.events.size(); ++i) {
    EXPECT_EQ(g_all.libraries[i], ROCPROFILER_LIBRARY);
    EXPECT_EQ(g_all.threads[i], g_init_thread);
  }
  EXPECT_EQ(g_sdk_only.events, g_all.events);
  EXPECT_TRUE(g_hsa_only.events.empty());
  EXPECT_EQ(g_post_only_calls, 2);
}

}  // namespace

int main(int argc, char** argv) {
  return sdk_test::RunWithTool(argc, argv, &Configure);
}
