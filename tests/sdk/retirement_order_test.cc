// CORRELATION_ID_RETIREMENT's order in a buffer when an ID's records are
// written by more than one thread: a call's own records on its thread, its
// GPU work's on the thread that saw the work complete. The buffer must
// deliver every record of an ID before that ID's retirement, although the
// pool delivers each writer thread's records in order and not across them.
// GPU work is driven through the SDK's own GPU observer (the seam the GPU
// half reports through), calls through the consumer seam.
//
// Each scenario runs in a context of its own with a buffer of its own, so
// that the order in which the pool visits its writers' blocks (newest block
// first) is the same in every run: the scenarios that failed before
// retirements were deferred past a flush fail every time, not by chance.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "rocprofiler-sdk/rocprofiler.h"
#include "tests/sdk/retirement_test_tool.h"
#include "tests/sdk/run_with_tool.h"
#include "tests/sdk/tool_configure.h"

namespace {

using retirement_tool::Call;
using retirement_tool::CompleteCopy;
using retirement_tool::Enter;
using retirement_tool::Exit;
using retirement_tool::SdkObserver;
using retirement_tool::SubmitCopy;
using retirement_tool::Worker;

enum Scenario { kFlushRace, kOwnerWritesOn, kExitAfterCompletion, kStress };
constexpr int kScenarios = 4;

// One delivered record: its kind and correlation ID.
struct Seen {
  uint32_t kind;
  uint64_t id;
};

std::mutex g_mutex;
std::vector<Seen> g_seen[kScenarios];

rocprofiler_context_id_t g_ctx[kScenarios];
rocprofiler_buffer_id_t g_buffer[kScenarios];
rocprofiler_status_t g_init_status = ROCPROFILER_STATUS_ERROR;

void BufferCallback(rocprofiler_context_id_t, rocprofiler_buffer_id_t,
                    rocprofiler_record_header_t** headers, size_t n, void* data,
                    uint64_t) {
  const int scenario = static_cast<int>(reinterpret_cast<intptr_t>(data));
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    for (size_t i = 0; i < n; ++i) {
      Seen s{headers[i]->kind, retirement_tool::RecordId(headers[i])};
      g_seen[scenario].push_back(s);
    }
  }
  retirement_tool::InDelivery();
}

int ToolInit(rocprofiler_client_finalize_t, void*) {
  for (int s = 0; s < kScenarios; ++s) {
    // Small buffers: a writer's block is sealed and delivered after a few
    // records, without a flush.
    const size_t watermark = s == kStress ? 32768 : 2048;
    g_init_status = retirement_tool::CreateTracing(
        watermark, &BufferCallback, reinterpret_cast<void*>(intptr_t{s}),
        &g_ctx[s], &g_buffer[s]);
    if (g_init_status != ROCPROFILER_STATUS_SUCCESS) return 1;
  }
  return 0;
}

rocprofiler_tool_configure_result_t* ToolConfigure(
    uint32_t, const char*, uint32_t, rocprofiler_client_id_t* id) {
  return sdk_test::Configure<&ToolInit>(id, "retirement_order_test");
}

std::vector<Seen> SeenOf(Scenario s) {
  std::lock_guard<std::mutex> lock(g_mutex);
  return g_seen[s];
}

// Records of `id` delivered after its retirement, and its retirements.
struct Order {
  int late = 0;
  int retirements = 0;
  int records = 0;
};
std::map<uint64_t, Order> OrderOf(const std::vector<Seen>& seen) {
  std::map<uint64_t, Order> out;
  for (const Seen& s : seen) {
    Order& o = out[s.id];
    if (s.kind == ROCPROFILER_BUFFER_TRACING_CORRELATION_ID_RETIREMENT) {
      ++o.retirements;
    } else {
      ++o.records;
      if (o.retirements != 0) ++o.late;
    }
  }
  return out;
}

// Waits (up to 300 ms) until `pred` holds for what scenario `s` received.
bool WaitFor(Scenario s,
             const std::function<bool(const std::vector<Seen>&)>& pred) {
  for (int i = 0; i < 300; ++i) {
    if (pred(SeenOf(s))) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return false;
}

bool Retired(const std::vector<Seen>& seen, uint64_t id) {
  for (const Seen& s : seen) {
    if (s.kind == ROCPROFILER_BUFFER_TRACING_CORRELATION_ID_RETIREMENT &&
        s.id == id) {
      return true;
    }
  }
  return false;
}

class RetirementOrder : public testing::Test {
 protected:
  void Start(Scenario s) {
    ASSERT_EQ(g_init_status, ROCPROFILER_STATUS_SUCCESS);
    ASSERT_NE(SdkObserver(), nullptr);
    ASSERT_EQ(rocprofiler_start_context(g_ctx[s]), ROCPROFILER_STATUS_SUCCESS);
    scenario_ = s;
  }
  void TearDown() override { rocprofiler_stop_context(g_ctx[scenario_]); }
  Scenario scenario_ = kFlushRace;
};

// A call ends, and its copy completes on another thread, while a flush is
// delivering its first round: the call's EXIT and the copy's record were
// written after that round began. The retirement must still come after
// them, however the pool orders the writers' blocks in a later round.
TEST_F(RetirementOrder, CallEndingDuringAFlushIsRetiredAfterItsRecords) {
  Start(kFlushRace);
  constexpr uint64_t kId = 1000;
  Worker caller, completer, first;
  // The caller's block exists before the flushing thread's.
  caller.Run([] { Call(999); });
  uint64_t cookie = 0;
  caller.Run([&cookie] {
    Enter(kId);
    cookie = SubmitCopy(kId, 1);
  });
  ASSERT_NE(cookie, 0u);
  // Something for the flush's first round to deliver, so that the hook
  // runs inside it.
  first.Run([] { Call(998); });
  retirement_tool::RunOnceInDelivery([&] {
    caller.Run([] { Exit(kId); });
    completer.Run([cookie] { CompleteCopy(kId, 1, cookie); });
  });
  Worker flusher;  // a thread that has written nothing to the buffer yet
  flusher.Run([] {
    EXPECT_EQ(rocprofiler_flush_buffer(g_buffer[kFlushRace]),
              ROCPROFILER_STATUS_SUCCESS);
  });
  // The retirement is written once a flush began after the copy completed:
  // this one delivers it.
  ASSERT_EQ(rocprofiler_flush_buffer(g_buffer[kFlushRace]),
            ROCPROFILER_STATUS_SUCCESS);
  const auto order = OrderOf(SeenOf(kFlushRace));
  ASSERT_TRUE(order.count(kId));
  EXPECT_EQ(order.at(kId).records, 2);  // the call's and the copy's
  EXPECT_EQ(order.at(kId).retirements, 1);
  EXPECT_EQ(order.at(kId).late, 0) << "records after the ID's retirement";
}

// The copy completes on another thread after the call returned; the call's
// thread then goes on making calls, filling and sealing its blocks, while
// the completing thread writes nothing more. The copy's record must still
// be delivered before the retirement.
TEST_F(RetirementOrder, RetirementWaitsForTheCompletingThreadsRecord) {
  Start(kOwnerWritesOn);
  constexpr uint64_t kId = 2000;
  Worker caller, completer;
  uint64_t cookie = 0;
  caller.Run([&cookie] {
    Enter(kId);
    cookie = SubmitCopy(kId, 2);
    Exit(kId);
  });
  ASSERT_NE(cookie, 0u);
  completer.Run([cookie] { CompleteCopy(kId, 2, cookie); });
  caller.Run([] {
    for (uint64_t i = 0; i < 2000; ++i) Call(2001 + i);
  });
  // Whether or not it is retired before the next flush, the flush
  // delivers every record first.
  WaitFor(kOwnerWritesOn,
          [](const std::vector<Seen>& seen) { return Retired(seen, kId); });
  ASSERT_EQ(rocprofiler_flush_buffer(g_buffer[kOwnerWritesOn]),
            ROCPROFILER_STATUS_SUCCESS);
  const auto order = OrderOf(SeenOf(kOwnerWritesOn));
  EXPECT_EQ(order.at(kId).records, 2);
  EXPECT_EQ(order.at(kId).retirements, 1);
  EXPECT_EQ(order.at(kId).late, 0) << "records after the ID's retirement";
}

// The copy completes on another thread before the call returns (a blocking
// call); the call's EXIT drops the last reference and retires the ID on the
// call's thread. The copy's record, on the completing thread, must still
// come first.
TEST_F(RetirementOrder, RetiredAtExitAfterACompletionElsewhere) {
  Start(kExitAfterCompletion);
  constexpr uint64_t kId = 5000;
  Worker caller, completer;
  uint64_t cookie = 0;
  caller.Run([&cookie] {
    Enter(kId);
    cookie = SubmitCopy(kId, 3);
  });
  ASSERT_NE(cookie, 0u);
  completer.Run([cookie] { CompleteCopy(kId, 3, cookie); });
  caller.Run([] {
    Exit(kId);
    for (uint64_t i = 0; i < 2000; ++i) Call(5001 + i);
  });
  WaitFor(kExitAfterCompletion,
          [](const std::vector<Seen>& seen) { return Retired(seen, kId); });
  ASSERT_EQ(rocprofiler_flush_buffer(g_buffer[kExitAfterCompletion]),
            ROCPROFILER_STATUS_SUCCESS);
  const auto order = OrderOf(SeenOf(kExitAfterCompletion));
  EXPECT_EQ(order.at(kId).records, 2);
  EXPECT_EQ(order.at(kId).retirements, 1);
  EXPECT_EQ(order.at(kId).late, 0) << "records after the ID's retirement";
}

// Many callers, each call's copy completed on a shared completion thread,
// with flushes from another thread all along: every ID's records before its
// one retirement, none lost.
TEST_F(RetirementOrder, StressWithFlushes) {
  Start(kStress);
  constexpr int kThreads = 8;
  constexpr uint64_t kCalls = 2000;
  struct Pending {
    uint64_t id, cookie;
  };
  std::mutex mu;
  std::vector<Pending> pending;
  std::atomic<int> running{kThreads};
  std::thread completer([&] {
    for (;;) {
      std::vector<Pending> now;
      {
        std::lock_guard<std::mutex> lock(mu);
        now.swap(pending);
      }
      for (const Pending& p : now) CompleteCopy(p.id, p.id, p.cookie);
      if (now.empty()) {
        if (running.load() == 0) {
          std::lock_guard<std::mutex> lock(mu);
          if (pending.empty()) break;
        }
        std::this_thread::yield();
      }
    }
  });
  std::atomic<bool> stop_flushing{false};
  std::thread flusher([&] {
    while (!stop_flushing.load()) {
      EXPECT_EQ(rocprofiler_flush_buffer(g_buffer[kStress]),
                ROCPROFILER_STATUS_SUCCESS);
    }
  });
  std::vector<std::thread> callers;
  for (int t = 0; t < kThreads; ++t) {
    callers.emplace_back([&, t] {
      for (uint64_t i = 0; i < kCalls; ++i) {
        const uint64_t id = 100000 + static_cast<uint64_t>(t) * kCalls + i;
        Enter(id);
        const uint64_t cookie = SubmitCopy(id, id);
        // Half the copies complete before the call returns.
        if (i % 2 == 0) {
          std::lock_guard<std::mutex> lock(mu);
          pending.push_back({id, cookie});
        }
        Exit(id);
        if (i % 2 == 1) {
          std::lock_guard<std::mutex> lock(mu);
          pending.push_back({id, cookie});
        }
      }
      running.fetch_sub(1);
    });
  }
  for (std::thread& t : callers) t.join();
  completer.join();
  stop_flushing.store(true);
  flusher.join();
  ASSERT_EQ(rocprofiler_flush_buffer(g_buffer[kStress]),
            ROCPROFILER_STATUS_SUCCESS);
  const auto order = OrderOf(SeenOf(kStress));
  EXPECT_EQ(order.size(), static_cast<size_t>(kThreads) * kCalls);
  int late = 0, unretired = 0, twice = 0;
  for (const auto& [id, o] : order) {
    late += o.late;
    unretired += o.retirements == 0;
    twice += o.retirements > 1;
    EXPECT_EQ(o.records, 2) << id;
  }
  EXPECT_EQ(late, 0) << "records after their ID's retirement";
  EXPECT_EQ(unretired, 0);
  EXPECT_EQ(twice, 0);
}

}  // namespace

int main(int argc, char** argv) {
  return sdk_test::RunWithTool(argc, argv, &ToolConfigure);
}
