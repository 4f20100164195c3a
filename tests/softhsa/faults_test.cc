// SOFTHSA_FAULTS drives a tool's error paths: a dispatch that fails, one
// queue's completions arriving after another's later work, a queue that is
// silently dropped, a copy that fails.
#include <gtest/gtest.h>
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>

#include <atomic>
#include <cstdlib>

#include "tests/softhsa/hsa_test_util.h"

namespace {

constexpr char kKernels[] = "tests/softhsa/libtest_kernels.so";

struct Errors {
  std::atomic<int> calls{0};
  std::atomic<hsa_status_t> status{HSA_STATUS_SUCCESS};
};

void OnError(hsa_status_t status, hsa_queue_t*, void* data) {
  auto* e = static_cast<Errors*>(data);
  e->status = status;
  ++e->calls;
}

class FaultsTest : public ::testing::Test {
 protected:
  void Start(const char* faults) {
    setenv("SOFTHSA_FAULTS", faults, 1);
    ASSERT_EQ(hsa_init(), HSA_STATUS_SUCCESS);
    unsetenv("SOFTHSA_FAULTS");
    gpu_ = hsa_test::Agents(HSA_DEVICE_TYPE_GPU)[0];
    ASSERT_EQ(hsa_test::LoadFile(kKernels, gpu_, &code_), HSA_STATUS_SUCCESS);
    empty_ = hsa_test::KernelObject(code_.executable, gpu_, "empty");
    ASSERT_NE(empty_, 0u);
  }
  void TearDown() override {
    hsa_test::Unload(&code_);
    EXPECT_EQ(hsa_shut_down(), HSA_STATUS_SUCCESS);
  }
  hsa_queue_t* Queue(Errors* errors) {
    hsa_queue_t* q = nullptr;
    EXPECT_EQ(hsa_queue_create(gpu_, 64, HSA_QUEUE_TYPE_MULTI, OnError, errors,
                               0, 0, &q),
              HSA_STATUS_SUCCESS);
    return q;
  }
  hsa_signal_t Signal() {
    hsa_signal_t s;
    EXPECT_EQ(hsa_signal_create(1, 0, nullptr, &s), HSA_STATUS_SUCCESS);
    return s;
  }
  void Dispatch(hsa_queue_t* q, hsa_signal_t done) {
    auto p = hsa_test::DispatchPacket(empty_, nullptr, 1, 1, done);
    hsa_test::Submit(q, &p);
  }
  static hsa_signal_value_t WaitZero(hsa_signal_t s, uint64_t timeout) {
    return hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_EQ, 0, timeout,
                                     HSA_WAIT_STATE_BLOCKED);
  }

  hsa_agent_t gpu_{0};
  hsa_test::Loaded code_;
  uint64_t empty_ = 0;
};

TEST_F(FaultsTest, TheNthDispatchFailsItsQueue) {
  Start("dispatch_error=2");
  Errors errors;
  hsa_queue_t* q = Queue(&errors);
  hsa_signal_t first = Signal(), second = Signal();
  Dispatch(q, first);
  EXPECT_EQ(WaitZero(first, UINT64_MAX), 0);
  Dispatch(q, second);
  while (errors.calls.load() == 0) usleep(1000);
  EXPECT_EQ(errors.status.load(), HSA_STATUS_ERROR_EXCEPTION);
  EXPECT_EQ(hsa_signal_load_scacquire(second), 1);
  hsa_queue_destroy(q);
  hsa_signal_destroy(first);
  hsa_signal_destroy(second);
}

TEST_F(FaultsTest, ADelayedQueueCompletesAfterAnotherQueuesLaterWork) {
  Start("queue_delay=0:300000");  // the first queue created has id 0
  Errors errors;
  hsa_queue_t* slow = Queue(&errors);
  hsa_queue_t* fast = Queue(&errors);
  ASSERT_EQ(slow->id, 0u);
  hsa_signal_t a = Signal(), b = Signal();
  Dispatch(slow, a);
  Dispatch(fast, b);
  EXPECT_EQ(WaitZero(b, UINT64_MAX), 0);
  EXPECT_EQ(hsa_signal_load_scacquire(a), 1);  // submitted first, still running
  EXPECT_EQ(WaitZero(a, UINT64_MAX), 0);
  EXPECT_EQ(errors.calls.load(), 0);
  hsa_queue_destroy(slow);
  hsa_queue_destroy(fast);
  hsa_signal_destroy(a);
  hsa_signal_destroy(b);
}

TEST_F(FaultsTest, ADroppedQueueCompletesNothingAndReportsNothing) {
  Start("drop_queue=1");
  Errors errors;
  hsa_queue_t* q = Queue(&errors);
  hsa_signal_t a = Signal();
  Dispatch(q, a);
  uint64_t freq = 0;
  hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY, &freq);
  EXPECT_EQ(WaitZero(a, freq / 10), 1);
  EXPECT_EQ(errors.calls.load(), 0);
  EXPECT_EQ(hsa_queue_destroy(q), HSA_STATUS_SUCCESS);
  hsa_signal_destroy(a);
}

TEST_F(FaultsTest, TheNthCopyFails) {
  Start("copy_error=1");
  hsa_agent_t cpu = hsa_test::Agents(HSA_DEVICE_TYPE_CPU)[0];
  char src[16] = "copy me", dst[16] = {};
  hsa_signal_t done = Signal();
  ASSERT_EQ(hsa_amd_memory_async_copy(dst, cpu, src, cpu, sizeof(src), 0,
                                      nullptr, done),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_LT, 0,
                                      UINT64_MAX, HSA_WAIT_STATE_BLOCKED),
            -1);
  EXPECT_EQ(dst[0], 0);
  hsa_signal_t again = Signal();
  ASSERT_EQ(hsa_amd_memory_async_copy(dst, cpu, src, cpu, sizeof(src), 0,
                                      nullptr, again),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(WaitZero(again, UINT64_MAX), 0);
  EXPECT_STREQ(dst, "copy me");
  hsa_signal_destroy(done);
  hsa_signal_destroy(again);
}

TEST_F(FaultsTest, MalformedSettingsAreIgnored) {
  Start("dispatch_error=x,bogus=1,,queue_delay=3");
  Errors errors;
  hsa_queue_t* q = Queue(&errors);
  hsa_signal_t a = Signal();
  Dispatch(q, a);
  EXPECT_EQ(WaitZero(a, UINT64_MAX), 0);
  EXPECT_EQ(errors.calls.load(), 0);
  hsa_queue_destroy(q);
  hsa_signal_destroy(a);
}

}  // namespace
