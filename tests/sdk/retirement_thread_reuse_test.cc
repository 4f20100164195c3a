// CORRELATION_ID_RETIREMENT when the call's thread has exited before its
// copy completes, and the completing thread is a new one that took over the
// exited thread's SDK block: the completion is still another thread's than
// the call's, whose records (in the exited thread's pool block) must be
// delivered before the retirement.
#include <sched.h>

#include <atomic>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "ext/prof_protocol.h"
#include "gtest/gtest.h"
#include "hsa_api_data.h"
#include "hsa_api_id.h"
#include "rocprofiler-sdk/rocprofiler.h"
#include "runtime/gpu/observers.h"
#include "tests/sdk/fake_consumer_seam.h"

namespace {

namespace gpu = roctracer::gpu;

constexpr uint64_t kId = 8000;

constexpr uint32_t kHsa = ACTIVITY_DOMAIN_HSA_API;
constexpr uint32_t kOp = HSA_API_ID_hsa_system_get_info;

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
      uint64_t id = 0;
      const bool retirement =
          headers[i]->kind ==
          ROCPROFILER_BUFFER_TRACING_CORRELATION_ID_RETIREMENT;
      if (retirement) {
        id =
            static_cast<
                rocprofiler_buffer_tracing_correlation_id_retirement_record_t*>(
                headers[i]->payload)
                ->internal_correlation_id;
      } else if (headers[i]->kind == ROCPROFILER_BUFFER_TRACING_MEMORY_COPY) {
        id = static_cast<rocprofiler_buffer_tracing_memory_copy_record_t*>(
                 headers[i]->payload)
                 ->correlation_id.internal;
      } else {
        id = static_cast<rocprofiler_buffer_tracing_hsa_api_record_t*>(
                 headers[i]->payload)
                 ->correlation_id.internal;
      }
      if (id == kId) g_order.push_back(retirement ? 2 : 1);
    }
    hook.swap(g_in_delivery);
  }
  if (hook) hook();
}

int ToolInit(rocprofiler_client_finalize_t, void*) {
  if (rocprofiler_create_context(&g_ctx) != ROCPROFILER_STATUS_SUCCESS ||
      rocprofiler_create_buffer(
          g_ctx, 4096, 2048, ROCPROFILER_BUFFER_POLICY_LOSSLESS,
          &BufferCallback, nullptr, &g_buffer) != ROCPROFILER_STATUS_SUCCESS) {
    return 1;
  }
  for (auto kind : {ROCPROFILER_BUFFER_TRACING_HSA_CORE_API,
                    ROCPROFILER_BUFFER_TRACING_MEMORY_COPY,
                    ROCPROFILER_BUFFER_TRACING_CORRELATION_ID_RETIREMENT}) {
    g_init_status = rocprofiler_configure_buffer_tracing_service(
        g_ctx, kind, nullptr, 0, g_buffer);
    if (g_init_status != ROCPROFILER_STATUS_SUCCESS) return 1;
  }
  return 0;
}

rocprofiler_tool_configure_result_t* ToolConfigure(
    uint32_t, const char*, uint32_t, rocprofiler_client_id_t* id) {
  id->name = "retirement_thread_reuse_test";
  static rocprofiler_tool_configure_result_t result{
      sizeof(rocprofiler_tool_configure_result_t), &ToolInit, nullptr, nullptr};
  return &result;
}

gpu::Observer* SdkObserver() {
  gpu::Observer* found = nullptr;
  gpu::ForEachObserver([&found](gpu::Observer* o) { found = o; });
  return found;
}

// A call that submits a copy, on this thread; returns the copy's cookie.
uint64_t CallWithCopy(uint64_t corr, uint64_t op_id) {
  hsa_api_data_t d{};
  fake_seam::Call(kHsa, kOp, ACTIVITY_API_PHASE_ENTER, corr, &d);
  gpu::EnqueueInfo info{};
  info.kind = gpu::OpKind::kCopy;
  info.op_id = op_id;
  info.correlation_id = corr;
  info.bytes = 64;
  info.direction = 1;
  const uint64_t cookie = SdkObserver()->OnEnqueue(info);
  fake_seam::Call(kHsa, kOp, ACTIVITY_API_PHASE_EXIT, corr, &d);
  return cookie;
}

// The copy's completion on this thread (not the call's): the last
// reference drops here, so the retirement is deferred.
void CompleteCopy(uint64_t corr, uint64_t op_id, uint64_t cookie) {
  gpu::CopyRecord r{};
  r.op_id = op_id;
  r.correlation_id = corr;
  r.bytes = 64;
  r.direction = 1;
  r.begin_ns = 1;
  r.end_ns = 2;
  SdkObserver()->OnCopy(r, cookie);
}

// A thread that runs the functions it is given, one at a time, and stays
// alive until destroyed: the caller and the completer are distinct live
// threads (a finished thread's SDK block may be recycled by the next one).
class Worker {
 public:
  Worker() : thread_([this] { Main(); }) {}
  ~Worker() {
    Run([this] { done_ = true; });
    thread_.join();
  }
  void Run(std::function<void()> fn) {
    std::unique_lock<std::mutex> lock(mu_);
    job_ = std::move(fn);
    cv_.notify_all();
    cv_.wait(lock, [this] { return !job_; });
  }

 private:
  void Main() {
    std::unique_lock<std::mutex> lock(mu_);
    while (!done_) {
      cv_.wait(lock, [this] { return static_cast<bool>(job_); });
      std::function<void()> fn = job_;
      lock.unlock();
      fn();
      lock.lock();
      job_ = nullptr;
      cv_.notify_all();
    }
  }
  std::mutex mu_;
  std::condition_variable cv_;
  std::function<void()> job_;
  bool done_ = false;
  std::thread thread_;
};

void Call(uint64_t corr, uint32_t phase) {
  hsa_api_data_t d{};
  fake_seam::Call(kHsa, kOp, phase, corr, &d);
}

TEST(RetirementThreadReuse, RecordsOfTheExitedCallersBlockComeFirst) {
  ASSERT_EQ(g_init_status, ROCPROFILER_STATUS_SUCCESS);
  ASSERT_NE(SdkObserver(), nullptr);
  ASSERT_EQ(rocprofiler_start_context(g_ctx), ROCPROFILER_STATUS_SUCCESS);
  // The oldest pool block: its delivery, swept last, holds the delivery
  // thread below.
  Worker first;
  first.Run([] { Call(50, ACTIVITY_API_PHASE_ENTER); });
  first.Run([] { Call(50, ACTIVITY_API_PHASE_EXIT); });
  auto other = std::make_unique<Worker>();
  auto caller = std::make_unique<Worker>();
  // `other` has an SDK block older than the caller's and a pool block newer.
  other->Run([] { Call(300, ACTIVITY_API_PHASE_ENTER); });
  caller->Run([] {
    Call(100, ACTIVITY_API_PHASE_ENTER);
    Call(100, ACTIVITY_API_PHASE_EXIT);
  });
  other->Run([] { Call(300, ACTIVITY_API_PHASE_EXIT); });
  ASSERT_EQ(rocprofiler_flush_buffer(g_buffer), ROCPROFILER_STATUS_SUCCESS);
  first.Run([] {
    Call(51, ACTIVITY_API_PHASE_ENTER);
    Call(51, ACTIVITY_API_PHASE_EXIT);
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
      Call(9000 + i, ACTIVITY_API_PHASE_ENTER);
      Call(9000 + i, ACTIVITY_API_PHASE_EXIT);
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
