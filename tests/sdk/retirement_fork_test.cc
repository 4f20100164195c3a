// CORRELATION_ID_RETIREMENT across fork(): a retirement deferred in the
// parent (its ID's last GPU record written on another thread) and not yet
// written when the process forks is the parent's to write, as the records
// of that ID are the parent's to deliver (a fork child's buffers start
// empty). The child must not deliver it: its buffers would retire an ID
// whose records it never delivered, and the ID would be retired twice.
//
// The parent's retirement thread is held inside a buffer callback (the
// delivery of its flush) while a second retirement is deferred, so that the
// fork finds that one still listed.
#include <atomic>
#include <chrono>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "rocprofiler-sdk/rocprofiler.h"
#include "tests/sdk/bounded_child.h"
#include "tests/sdk/retirement_test_tool.h"

namespace {

using retirement_tool::CallWithCopy;
using retirement_tool::CompleteCopy;
using retirement_tool::SdkObserver;
using retirement_tool::Worker;

std::mutex g_mutex;
std::vector<uint64_t> g_retired;  // delivered retirements' IDs

rocprofiler_context_id_t g_ctx;
rocprofiler_buffer_id_t g_buffer;
rocprofiler_status_t g_init_status = ROCPROFILER_STATUS_ERROR;

void BufferCallback(rocprofiler_context_id_t, rocprofiler_buffer_id_t,
                    rocprofiler_record_header_t** headers, size_t n, void*,
                    uint64_t) {
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    for (size_t i = 0; i < n; ++i) {
      if (headers[i]->kind ==
          ROCPROFILER_BUFFER_TRACING_CORRELATION_ID_RETIREMENT) {
        g_retired.push_back(retirement_tool::RecordId(headers[i]));
      }
    }
  }
  retirement_tool::InDelivery();
}

int RetiredCount(uint64_t id) {
  std::lock_guard<std::mutex> lock(g_mutex);
  int n = 0;
  for (uint64_t r : g_retired) n += r == id;
  return n;
}

constexpr uint64_t kHeld = 7000;    // its write holds the retirement thread
constexpr uint64_t kListed = 7001;  // listed when the process forks

// In the child: a flush writes and delivers what the child deferred; the
// parent's listed retirement is not among them.
int ChildFlushes() {
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    g_retired.clear();
  }
  if (rocprofiler_flush_buffer(g_buffer) != ROCPROFILER_STATUS_SUCCESS) {
    return 2;
  }
  return RetiredCount(kListed) == 0 ? 0 : 1;
}

TEST(RetirementFork, ChildDoesNotWriteTheParentsListedRetirement) {
  ASSERT_EQ(g_init_status, ROCPROFILER_STATUS_SUCCESS);
  ASSERT_NE(SdkObserver(), nullptr);
  ASSERT_EQ(rocprofiler_start_context(g_ctx), ROCPROFILER_STATUS_SUCCESS);
  retirement_tool::ParkNextDelivery();
  uint64_t held_cookie = 0, listed_cookie = 0;
  Worker caller, completer;
  caller.Run([&] { held_cookie = CallWithCopy(kHeld, 1); });
  completer.Run([&] { CompleteCopy(kHeld, 1, held_cookie); });
  // The retirement thread flushes for kHeld; the delivery parks.
  ASSERT_TRUE(retirement_tool::WaitParked());
  caller.Run([&] { listed_cookie = CallWithCopy(kListed, 2); });
  completer.Run([&] { CompleteCopy(kListed, 2, listed_cookie); });

  EXPECT_EQ(bounded_child::Run(&ChildFlushes), 0)
      << "1: the child delivered the parent's listed retirement";

  retirement_tool::ReleaseDelivery();
  ASSERT_EQ(rocprofiler_flush_buffer(g_buffer), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(RetiredCount(kHeld), 1);
  EXPECT_EQ(RetiredCount(kListed), 1);
  rocprofiler_stop_context(g_ctx);
}

}  // namespace

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  if (retirement_tool::ForceConfigure("retirement_fork_test", &BufferCallback,
                                      &g_ctx, &g_buffer, &g_init_status) !=
      ROCPROFILER_STATUS_SUCCESS) {
    return 2;
  }
  return RUN_ALL_TESTS();
}
