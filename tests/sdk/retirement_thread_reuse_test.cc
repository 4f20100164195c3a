// CORRELATION_ID_RETIREMENT when the call's thread has exited before its
// copy completes, and the completing thread is a new one that took over the
// exited thread's SDK block: the completion is still another thread's than
// the call's, whose records (in the exited thread's pool block) must be
// delivered before the retirement.
#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "rocprofiler-sdk/rocprofiler.h"
#include "tests/sdk/retirement_test_tool.h"

namespace {

using retirement_tool::CallWithCopy;
using retirement_tool::CompleteCopy;
using retirement_tool::Enter;
using retirement_tool::Exit;
using retirement_tool::SdkObserver;
using retirement_tool::Worker;

constexpr uint64_t kId = 8000;

std::mutex g_mutex;
// Delivered records of kId, in order: 1 a record, 2 its retirement.
std::vector<int> g_order;

rocprofiler_context_id_t g_ctx;
rocprofiler_buffer_id_t g_buffer;
rocprofiler_status_t g_init_status = ROCPROFILER_STATUS_ERROR;

void BufferCallback(rocprofiler_context_id_t, rocprofiler_buffer_id_t,
                    rocprofiler_record_header_t** headers, size_t n, void*,
                    uint64_t) {
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    for (size_t i = 0; i < n; ++i) {
      const bool retirement =
          headers[i]->kind ==
          ROCPROFILER_BUFFER_TRACING_CORRELATION_ID_RETIREMENT;
      if (retirement_tool::RecordId(headers[i]) == kId) {
        g_order.push_back(retirement ? 2 : 1);
      }
    }
  }
  retirement_tool::InDelivery();
}

TEST(RetirementThreadReuse, RecordsOfTheExitedCallersBlockComeFirst) {
  ASSERT_EQ(g_init_status, ROCPROFILER_STATUS_SUCCESS);
  ASSERT_NE(SdkObserver(), nullptr);
  ASSERT_EQ(rocprofiler_start_context(g_ctx), ROCPROFILER_STATUS_SUCCESS);
  // The oldest pool block: its delivery, swept last, holds the delivery
  // thread below.
  Worker first;
  first.Run([] { Enter(50); });
  first.Run([] { Exit(50); });
  auto other = std::make_unique<Worker>();
  auto caller = std::make_unique<Worker>();
  // `other` has an SDK block older than the caller's and a pool block newer.
  other->Run([] { Enter(300); });
  caller->Run([] {
    Enter(100);
    Exit(100);
  });
  other->Run([] { Exit(300); });
  ASSERT_EQ(rocprofiler_flush_buffer(g_buffer), ROCPROFILER_STATUS_SUCCESS);
  first.Run([] {
    Enter(51);
    Exit(51);
  });
  // The delivery thread is held in a callback (a flush's delivery of the
  // oldest block's record).
  retirement_tool::ParkNextDelivery();
  std::thread flusher([] { rocprofiler_flush_buffer(g_buffer); });
  ASSERT_TRUE(retirement_tool::WaitParked());
  uint64_t cookie = 0;
  caller->Run([&cookie] { cookie = CallWithCopy(kId, 1); });
  // Both threads exit (the caller's block sealed): the caller's SDK block is
  // free for the next thread, which adopts `other`'s pool block.
  caller.reset();
  other.reset();
  Worker completer;
  completer.Run([cookie] {
    CompleteCopy(kId, 1, cookie);
    // More calls: the completer's buffer is sealed too.
    for (uint64_t i = 0; i < 40; ++i) {
      Enter(9000 + i);
      Exit(9000 + i);
    }
  });
  retirement_tool::ReleaseDelivery();
  flusher.join();
  ASSERT_EQ(rocprofiler_flush_buffer(g_buffer), ROCPROFILER_STATUS_SUCCESS);
  ASSERT_EQ(rocprofiler_flush_buffer(g_buffer), ROCPROFILER_STATUS_SUCCESS);
  std::vector<int> order;
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    order = g_order;
  }
  EXPECT_EQ(order, (std::vector<int>{1, 1, 2}))
      << "1: a record of the ID, 2: its retirement";
  rocprofiler_stop_context(g_ctx);
}

}  // namespace

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  if (retirement_tool::ForceConfigure(
          "retirement_thread_reuse_test", &BufferCallback, &g_ctx, &g_buffer,
          &g_init_status) != ROCPROFILER_STATUS_SUCCESS) {
    return 2;
  }
  return RUN_ALL_TESTS();
}
