// CORRELATION_ID_RETIREMENT when the call's thread has exited before its
// copy completes, and the completing thread is a new one that took over the
// exited thread's SDK block: the completion is still another thread's than
// the call's, whose records (in the exited thread's pool block) must be
// delivered before the retirement.
#include <sched.h>

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
std::function<void()> g_in_delivery;  // run once, in the next delivery

std::atomic<bool> g_parked{false};
std::atomic<bool> g_release{false};

rocprofiler_context_id_t g_ctx;
rocprofiler_buffer_id_t g_buffer;
rocprofiler_status_t g_init_status = ROCPROFILER_STATUS_ERROR;

void BufferCallback(rocprofiler_context_id_t, rocprofiler_buffer_id_t,
                    rocprofiler_record_header_t** headers, size_t n, void*,
                    uint64_t) {
  std::function<void()> hook;
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
    hook.swap(g_in_delivery);
  }
  if (hook) hook();
}

int ToolInit(rocprofiler_client_finalize_t, void*) {
  g_init_status = retirement_tool::CreateTracing(4096, &BufferCallback, nullptr,
                                                 &g_ctx, &g_buffer);
  return g_init_status == ROCPROFILER_STATUS_SUCCESS ? 0 : 1;
}

rocprofiler_tool_configure_result_t* ToolConfigure(
    uint32_t, const char*, uint32_t, rocprofiler_client_id_t* id) {
  id->name = "retirement_thread_reuse_test";
  static rocprofiler_tool_configure_result_t result{
      sizeof(rocprofiler_tool_configure_result_t), &ToolInit, nullptr, nullptr};
  return &result;
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
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    g_in_delivery = [] {
      g_parked = true;
      while (!g_release.load()) sched_yield();
    };
  }
  std::thread flusher([] { rocprofiler_flush_buffer(g_buffer); });
  for (int i = 0; i < 5000 && !g_parked.load(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ASSERT_TRUE(g_parked.load());
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
  g_release = true;
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
  if (rocprofiler_force_configure(&ToolConfigure) !=
      ROCPROFILER_STATUS_SUCCESS) {
    return 2;
  }
  return RUN_ALL_TESTS();
}
