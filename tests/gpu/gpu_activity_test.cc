// HSA_OPS records of an HSA program on softhsa, with libroctracer64.so.4
// loaded as its HSA tool (HSA_TOOLS_LIB) exactly as ROCR would load it:
// one record per dispatch, application barrier packet and copy, with names,
// times in roctracer_get_timestamp's clock, correlation to the API call that
// submitted it, and delivery at flush, close and hsa_shut_down.
#include <dirent.h>
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "runtime/private/observer_export.h"
#include "runtime/private/tool_activity.h"
#include "tests/gpu/gpu_test_util.h"
#include "tests/sdk/bounded_child.h"

namespace {

using gpu_test::Records;

class GpuActivity : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(program_.Start());
    ASSERT_EQ(gpu_test::OpenPool(&records_, &pool_), ROCTRACER_STATUS_SUCCESS);
    ASSERT_EQ(
        roctracer_enable_domain_activity_expl(ACTIVITY_DOMAIN_HSA_OPS, pool_),
        ROCTRACER_STATUS_SUCCESS);
  }
  void TearDown() override {
    if (pool_ != nullptr) roctracer_close_pool_expl(pool_);
    program_.Stop();
  }
  uint64_t Now() {
    uint64_t t = 0;
    roctracer_get_timestamp(&t);
    return t;
  }

  // Two 64-byte copies completing one signal (`done`, at 2): into `a` now,
  // into `b` once the test stores 0 to `hold`.
  struct SharedSignalCopies {
    hsa_signal_t done{0};
    hsa_signal_t hold{0};
    std::vector<char> src = std::vector<char>(64, 's');
    std::vector<char> a = std::vector<char>(64, 0);
    std::vector<char> b = std::vector<char>(64, 0);
    uint64_t hz = 0;  // the timestamp frequency, for wait timeouts
  };
  void StartSharedSignalCopies(SharedSignalCopies* c) {
    ASSERT_EQ(hsa_signal_create(2, 0, nullptr, &c->done), HSA_STATUS_SUCCESS);
    ASSERT_EQ(hsa_signal_create(1, 0, nullptr, &c->hold), HSA_STATUS_SUCCESS);
    ASSERT_EQ(
        hsa_amd_memory_async_copy(c->a.data(), program_.gpu, c->src.data(),
                                  program_.cpu, 64, 0, nullptr, c->done),
        HSA_STATUS_SUCCESS);
    ASSERT_EQ(
        hsa_amd_memory_async_copy(c->b.data(), program_.gpu, c->src.data(),
                                  program_.cpu, 64, 1, &c->hold, c->done),
        HSA_STATUS_SUCCESS);
    ASSERT_EQ(hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY, &c->hz),
              HSA_STATUS_SUCCESS);
  }
  // Once the test has released `hold`: both copies done and recorded, the
  // signal at 0 (one decrement each), the signals destroyed.
  void FinishSharedSignalCopies(SharedSignalCopies* c) {
    EXPECT_EQ(gpu_test::WaitZero(c->done), 0);
    EXPECT_EQ(c->b[0], 's');
    ASSERT_EQ(roctracer_flush_activity_expl(pool_), ROCTRACER_STATUS_SUCCESS);
    EXPECT_EQ(records_.Count(ACTIVITY_DOMAIN_HSA_OPS, HSA_OP_ID_COPY), 2u);
    EXPECT_EQ(hsa_signal_load_scacquire(c->done), 0);
    hsa_signal_destroy(c->hold);
    hsa_signal_destroy(c->done);
  }

  gpu_test::Program program_;
  Records records_;
  roctracer_pool_t* pool_ = nullptr;
};

TEST_F(GpuActivity, OneRecordPerDispatchBarrierAndCopyWithNamesAndTimes) {
  hsa_queue_t* q = program_.Queue();
  ASSERT_NE(q, nullptr);
  hsa_signal_t done;
  ASSERT_EQ(hsa_signal_create(5, 0, nullptr, &done), HSA_STATUS_SUCCESS);
  const uint64_t t0 = Now();
  gpu_test::Dispatch(q, program_.empty, program_.kernarg, done);
  gpu_test::Dispatch(q, program_.scale, program_.kernarg, done);
  gpu_test::Barrier(q, HSA_PACKET_TYPE_BARRIER_AND, {}, done);
  gpu_test::Barrier(q, HSA_PACKET_TYPE_BARRIER_OR, {}, done);
  std::vector<char> src(1000, 'x'), dst(1000, 0);
  ASSERT_EQ(
      hsa_amd_memory_async_copy(dst.data(), program_.gpu, src.data(),
                                program_.cpu, src.size(), 0, nullptr, done),
      HSA_STATUS_SUCCESS);
  EXPECT_EQ(gpu_test::WaitZero(done), 0);
  const uint64_t t1 = Now();
  EXPECT_EQ(dst[999], 'x');
  ASSERT_EQ(roctracer_flush_activity_expl(pool_), ROCTRACER_STATUS_SUCCESS);

  auto dispatches = records_.Of(ACTIVITY_DOMAIN_HSA_OPS, HSA_OP_ID_DISPATCH);
  auto barriers = records_.Of(ACTIVITY_DOMAIN_HSA_OPS, HSA_OP_ID_BARRIER);
  auto copies = records_.Of(ACTIVITY_DOMAIN_HSA_OPS, HSA_OP_ID_COPY);
  ASSERT_EQ(dispatches.size(), 2u);
  ASSERT_EQ(barriers.size(), 2u);  // the application's only
  ASSERT_EQ(copies.size(), 1u);
  EXPECT_EQ(dispatches[0].name, "empty");
  EXPECT_EQ(dispatches[1].name,
            "gputest::scale(void const*, hsa_kernel_dispatch_packet_s const*, "
            "unsigned int, unsigned int, unsigned int)");
  for (auto* list : {&dispatches, &barriers, &copies}) {
    for (const gpu_test::Record& c : *list) {
      EXPECT_LE(t0, c.r.begin_ns);
      EXPECT_LE(c.r.begin_ns, c.r.end_ns);
      EXPECT_LE(c.r.end_ns, t1);
      EXPECT_EQ(c.r.device_id, 0);
      EXPECT_EQ(c.r.correlation_id, 0u);  // no API call traced
    }
  }
  for (auto* list : {&dispatches, &barriers}) {
    for (const gpu_test::Record& c : *list) EXPECT_EQ(c.r.queue_id, q->id);
  }
  // In submission order on one queue.
  EXPECT_LE(dispatches[0].r.end_ns, dispatches[1].r.begin_ns);
  EXPECT_LE(dispatches[1].r.end_ns, barriers[0].r.begin_ns);
  EXPECT_EQ(copies[0].r.bytes, 1000u);
  EXPECT_EQ(copies[0].r.kind, uint32_t{hsaHostToDevice});
  const roctracer_gpu_activity_stats_t stats = gpu_test::GpuStats();
  EXPECT_EQ(stats.in_flight, 0u);
  EXPECT_EQ(stats.untraced, 0u);
  EXPECT_EQ(stats.names_unresolved, 0u);
  hsa_queue_destroy(q);
  hsa_signal_destroy(done);
}

// Notes the thread each copy is reported on.
class CopyThreads : public roctracer::gpu::Observer {
 public:
  uint64_t OnEnqueue(
      const roctracer::gpu::EnqueueInfo& info) noexcept override {
    return info.kind == roctracer::gpu::OpKind::kCopy ? 1 : 0;
  }
  void OnCopy(const roctracer::gpu::CopyRecord&, uint64_t) noexcept override {
    std::lock_guard<std::mutex> lock(mutex_);
    threads_.push_back(std::this_thread::get_id());
  }
  size_t On(std::thread::id thread) {
    std::lock_guard<std::mutex> lock(mutex_);
    return std::count(threads_.begin(), threads_.end(), thread);
  }
  size_t Total() {
    std::lock_guard<std::mutex> lock(mutex_);
    return threads_.size();
  }

 private:
  std::mutex mutex_;
  std::vector<std::thread::id> threads_;
};

// A thread that waits on a traced copy's signal (as HIP waits on each copy
// before the next) waits for the copy itself and reports it: the signal
// moves when the copy is done, not once the completion thread has woken.
TEST_F(GpuActivity, WaitingOnACopysSignalReportsTheCopyOnTheWaitingThread) {
  CopyThreads observer;
  ASSERT_TRUE(roctracer_internal_gpu_add_observer(
      roctracer::gpu::kObserverAbiVersion, &observer));
  constexpr int kCopies = 100;
  std::vector<char> src(64, 'w'), dst(64, 0);
  hsa_signal_t done;
  ASSERT_EQ(hsa_signal_create(1, 0, nullptr, &done), HSA_STATUS_SUCCESS);
  for (int i = 0; i < kCopies; ++i) {
    hsa_signal_store_relaxed(done, 1);
    ASSERT_EQ(
        hsa_amd_memory_async_copy(dst.data(), program_.gpu, src.data(),
                                  program_.cpu, src.size(), 0, nullptr, done),
        HSA_STATUS_SUCCESS);
    ASSERT_EQ(hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_LT, 1,
                                        UINT64_MAX, HSA_WAIT_STATE_ACTIVE),
              0);
  }
  ASSERT_EQ(roctracer_flush_activity_expl(pool_), ROCTRACER_STATUS_SUCCESS);
  roctracer_internal_gpu_remove_observer(&observer);
  EXPECT_EQ(observer.Total(), size_t{kCopies});
  EXPECT_EQ(records_.Count(ACTIVITY_DOMAIN_HSA_OPS, HSA_OP_ID_COPY),
            size_t{kCopies});
  // The completion thread, woken by the same completion, may get to a copy
  // first now and then; without the waiter's report it gets every one.
  EXPECT_GE(observer.On(std::this_thread::get_id()), size_t{kCopies / 4});
  EXPECT_EQ(dst[63], 'w');
  hsa_signal_destroy(done);
}

// The voluntary context switches of the tracer's completion thread (named
// "roctracer-gpu"): how often it went to sleep and was woken. -1 if absent.
long CompletionThreadSleeps() {
  DIR* dir = opendir("/proc/self/task");
  if (dir == nullptr) return -1;
  long sleeps = -1;
  while (dirent* e = readdir(dir)) {
    const std::string task = std::string("/proc/self/task/") + e->d_name;
    std::string comm;
    std::getline(std::ifstream(task + "/comm"), comm);
    if (comm != "roctracer-gpu") continue;
    std::ifstream status(task + "/status");
    for (std::string line; std::getline(status, line);) {
      if (line.rfind("voluntary_ctxt_switches:", 0) == 0) {
        sleeps = std::stol(line.substr(line.find(':') + 1));
      }
    }
  }
  closedir(dir);
  return sleeps;
}

// Two copies nobody waits on through hsa_signal_wait_* (their signal
// polled with loads here) are still completed, by the completion thread,
// which then watches copies promptly for a while. Returns false if the
// signal never moved.
bool CopiesNobodyWaitsOn(const gpu_test::Program& program) {
  std::vector<char> src(64, 'p'), dst(64, 0);
  hsa_signal_t polled;
  if (hsa_signal_create(2, 0, nullptr, &polled) != HSA_STATUS_SUCCESS) {
    return false;
  }
  for (int i = 0; i < 2; ++i) {
    if (hsa_amd_memory_async_copy(dst.data(), program.gpu, src.data(),
                                  program.cpu, 64, 0, nullptr,
                                  polled) != HSA_STATUS_SUCCESS) {
      return false;
    }
  }
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (hsa_signal_load_scacquire(polled) != 0 &&
         std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::microseconds(100));
  }
  const bool done = hsa_signal_load_scacquire(polled) == 0 && dst[0] == 'p';
  hsa_signal_destroy(polled);
  return done;
}

// The completion thread's wake-ups over `per_phase` calls of `copy_and_wait`
// (a copy, and a wait on its signal), in the phase of `phases` where they
// were fewest beyond its looks: a waiter that the machine's load keeps off
// the cores for more than two looks, twice, makes the thread prompt for
// 100 ms, and the phases around it pay a wake-up per copy.
struct Phase {
  long sleeps = 0;
  long ms = 0;
  size_t on_waiting_thread = 0;
};
template <class Fn>
Phase QuietestPhase(int phases, int per_phase, Fn copy_and_wait,
                    CopyThreads* observer) {
  Phase best;
  best.sleeps = -1;
  for (int p = 0; p < phases; ++p) {
    const long before = CompletionThreadSleeps();
    const size_t reported = observer->On(std::this_thread::get_id());
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < per_phase; ++i) copy_and_wait();
    Phase phase;
    phase.sleeps = CompletionThreadSleeps() - before;
    phase.ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                   std::chrono::steady_clock::now() - start)
                   .count();
    phase.on_waiting_thread =
        observer->On(std::this_thread::get_id()) - reported;
    if (best.sleeps < 0 || phase.sleeps - phase.ms < best.sleeps - best.ms) {
      best = phase;
    }
  }
  return best;
}

// Copies whose signals are waited on, each before the next copy (as HIP
// does), are reported by their waiters and cost no wake-up of the completion
// thread: it looks at them once a millisecond and leaves them to the waiters.
// (Before, each copy's completion woke it.)
TEST_F(GpuActivity, CopiesTheirWaitersCollectLeaveTheCompletionThreadAsleep) {
  CopyThreads observer;
  ASSERT_TRUE(roctracer_internal_gpu_add_observer(
      roctracer::gpu::kObserverAbiVersion, &observer));
  std::vector<char> src(64, 'h'), dst(64, 0);
  hsa_signal_t done;
  ASSERT_EQ(hsa_signal_create(1, 0, nullptr, &done), HSA_STATUS_SUCCESS);
  auto copy_and_wait = [&] {
    hsa_signal_store_relaxed(done, 1);
    ASSERT_EQ(
        hsa_amd_memory_async_copy(dst.data(), program_.gpu, src.data(),
                                  program_.cpu, src.size(), 0, nullptr, done),
        HSA_STATUS_SUCCESS);
    ASSERT_EQ(hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_LT, 1,
                                        UINT64_MAX, HSA_WAIT_STATE_BLOCKED),
              0);
  };
  copy_and_wait();  // starts the completion thread
  std::this_thread::sleep_for(std::chrono::milliseconds(2));
  ASSERT_GE(CompletionThreadSleeps(), 0) << "no thread named roctracer-gpu";
  constexpr int kPhases = 8, kPerPhase = 250;
  const Phase quietest =
      QuietestPhase(kPhases, kPerPhase, copy_and_wait, &observer);
  ASSERT_EQ(roctracer_flush_activity_expl(pool_), ROCTRACER_STATUS_SUCCESS);
  roctracer_internal_gpu_remove_observer(&observer);
  // Its looks every millisecond, and a little slack; a wake-up per copy
  // would add kPerPhase.
  EXPECT_LE(quietest.sleeps, quietest.ms + kPerPhase / 20)
      << quietest.ms << " ms";
  EXPECT_GE(quietest.on_waiting_thread, size_t{kPerPhase * 9 / 10});
  EXPECT_EQ(records_.Count(ACTIVITY_DOMAIN_HSA_OPS, HSA_OP_ID_COPY),
            size_t{1 + kPhases * kPerPhase});
  EXPECT_EQ(dst[63], 'h');
  hsa_signal_destroy(done);
}

// A copy nobody collects within two of the completion thread's looks is
// evidence of an application that does not wait, and a second one within
// 100 ms makes the thread watch every copy promptly (a wake-up per copy) for
// 100 ms; but not a copy of a thread that waited on its previous copy: that
// thread, as HIP's, waits on each copy, and came late because the machine's
// load kept it off the cores (here: it sleeps 6 ms, then finds the signal
// moved with a load, as HIP looks before it waits). The copies waited on
// right after still cost the thread no wake-up each. (Before, two such
// copies made it prompt for 100 ms.)
TEST_F(GpuActivity,
       CopiesOfAThreadThatWaitsLateLeaveTheCompletionThreadAsleep) {
  CopyThreads observer;
  ASSERT_TRUE(roctracer_internal_gpu_add_observer(
      roctracer::gpu::kObserverAbiVersion, &observer));
  std::vector<char> src(64, 'l'), dst(64, 0);
  hsa_signal_t done;
  ASSERT_EQ(hsa_signal_create(1, 0, nullptr, &done), HSA_STATUS_SUCCESS);
  auto copy = [&] {
    hsa_signal_store_relaxed(done, 1);
    ASSERT_EQ(
        hsa_amd_memory_async_copy(dst.data(), program_.gpu, src.data(),
                                  program_.cpu, src.size(), 0, nullptr, done),
        HSA_STATUS_SUCCESS);
  };
  auto copy_and_wait = [&] {
    copy();
    ASSERT_EQ(hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_LT, 1,
                                        UINT64_MAX, HSA_WAIT_STATE_BLOCKED),
              0);
  };
  copy_and_wait();  // starts the completion thread
  std::this_thread::sleep_for(std::chrono::milliseconds(2));
  ASSERT_GE(CompletionThreadSleeps(), 0) << "no thread named roctracer-gpu";
  constexpr int kPhases = 4, kLate = 3, kPerPhase = 250;
  Phase quietest;
  quietest.sleeps = -1;
  for (int p = 0; p < kPhases; ++p) {
    for (int i = 0; i < kLate; ++i) {
      copy_and_wait();
      copy();  // waited on late: found completed by a load
      std::this_thread::sleep_for(std::chrono::milliseconds(6));
      const auto deadline =
          std::chrono::steady_clock::now() + std::chrono::seconds(10);
      while (hsa_signal_load_scacquire(done) != 0 &&
             std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::microseconds(100));
      }
      ASSERT_EQ(hsa_signal_load_scacquire(done), 0);
    }
    const Phase phase = QuietestPhase(1, kPerPhase, copy_and_wait, &observer);
    if (quietest.sleeps < 0 ||
        phase.sleeps - phase.ms < quietest.sleeps - quietest.ms) {
      quietest = phase;
    }
  }
  ASSERT_EQ(roctracer_flush_activity_expl(pool_), ROCTRACER_STATUS_SUCCESS);
  roctracer_internal_gpu_remove_observer(&observer);
  // Its looks every millisecond, and a little slack; prompt, it would wake
  // for each of the kPerPhase copies.
  EXPECT_LE(quietest.sleeps, quietest.ms + kPerPhase / 20)
      << quietest.ms << " ms";
  EXPECT_EQ(records_.Count(ACTIVITY_DOMAIN_HSA_OPS, HSA_OP_ID_COPY),
            size_t{1 + kPhases * (2 * kLate + kPerPhase)});
  EXPECT_EQ(dst[63], 'l');
  hsa_signal_destroy(done);
}

// A wait on the signal of a copy older than the 64 newest in flight (here
// 100 newer ones, held by a dependency) finds it too, and reports it on the
// waiting thread, rather than an ordinary wait that the completion thread's
// looks end one to three milliseconds later.
TEST_F(GpuActivity, AWaitOnACopyOlderThanTheNewestFindsIt) {
  CopyThreads observer;
  ASSERT_TRUE(roctracer_internal_gpu_add_observer(
      roctracer::gpu::kObserverAbiVersion, &observer));
  std::vector<char> src(64, 'o'), dst(64, 0), dst2(64, 0);
  constexpr int kNewer = 100, kTrials = 11;
  hsa_signal_t hold, oldest, newer;
  ASSERT_EQ(hsa_signal_create(1, 0, nullptr, &hold), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_signal_create(1, 0, nullptr, &oldest), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_signal_create(kNewer, 0, nullptr, &newer), HSA_STATUS_SUCCESS);
  int here = 0;
  for (int trial = 0; trial < kTrials; ++trial) {
    hsa_signal_store_relaxed(hold, 1);
    hsa_signal_store_relaxed(oldest, 1);
    hsa_signal_store_relaxed(newer, kNewer);
    ASSERT_EQ(hsa_amd_memory_async_copy(dst.data(), program_.gpu, src.data(),
                                        program_.cpu, 64, 1, &hold, oldest),
              HSA_STATUS_SUCCESS);
    for (int i = 0; i < kNewer; ++i) {
      ASSERT_EQ(hsa_amd_memory_async_copy(dst2.data(), program_.gpu, src.data(),
                                          program_.cpu, 64, 1, &hold, newer),
                HSA_STATUS_SUCCESS);
    }
    const size_t before = observer.On(std::this_thread::get_id());
    hsa_signal_store_screlease(hold, 0);
    ASSERT_EQ(gpu_test::WaitZero(oldest), 0);
    here += observer.On(std::this_thread::get_id()) > before;
    ASSERT_EQ(gpu_test::WaitZero(newer), 0);
  }
  ASSERT_EQ(roctracer_flush_activity_expl(pool_), ROCTRACER_STATUS_SUCCESS);
  roctracer_internal_gpu_remove_observer(&observer);
  // Found: reported here as soon as it completed (the load may delay this
  // thread past the completion thread's looks now and then).
  EXPECT_GT(here, kTrials / 2) << here << " of " << kTrials;
  EXPECT_EQ(records_.Count(ACTIVITY_DOMAIN_HSA_OPS, HSA_OP_ID_COPY),
            size_t{kTrials * (1 + kNewer)});
  EXPECT_EQ(dst[0], 'o');
  for (hsa_signal_t s : {hold, oldest, newer}) hsa_signal_destroy(s);
}

// A barrier packet that depends on a traced copy's signal is not held back
// until the completion thread's looks find the copy uncollected: the packet's
// submission makes the thread watch that copy. A copy held by a dependency is
// released right after the barrier is submitted; the barrier's completion
// follows the copy's within a wake-up, not the thread's looks (a millisecond
// or more apart). Nor does such a copy count as one nobody collected: copies
// their waiters collect still leave the thread asleep afterwards (without
// the barrier's notice, the first copy made the thread prompt, and every
// later one woke it).
TEST_F(GpuActivity, ABarrierOnACopysSignalIsNotHeldBackUntilTheThreadLooks) {
  hsa_queue_t* q = program_.Queue();
  ASSERT_NE(q, nullptr);
  std::vector<char> src(64, 'b'), dst(64, 0);
  hsa_signal_t hold, copied, barrier;
  ASSERT_EQ(hsa_signal_create(1, 0, nullptr, &hold), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_signal_create(1, 0, nullptr, &copied), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_signal_create(1, 0, nullptr, &barrier), HSA_STATUS_SUCCESS);
  std::vector<double> us;
  for (int trial = 0; trial < 21; ++trial) {
    hsa_signal_store_relaxed(hold, 1);
    hsa_signal_store_relaxed(copied, 1);
    hsa_signal_store_relaxed(barrier, 1);
    ASSERT_EQ(hsa_amd_memory_async_copy(dst.data(), program_.gpu, src.data(),
                                        program_.cpu, 64, 1, &hold, copied),
              HSA_STATUS_SUCCESS);
    gpu_test::Barrier(q, HSA_PACKET_TYPE_BARRIER_AND, {copied}, barrier);
    const auto start = std::chrono::steady_clock::now();
    hsa_signal_store_screlease(hold, 0);
    ASSERT_EQ(gpu_test::WaitZero(barrier), 0);
    us.push_back(std::chrono::duration<double, std::micro>(
                     std::chrono::steady_clock::now() - start)
                     .count());
    EXPECT_EQ(hsa_signal_load_scacquire(copied), 0);
  }
  std::sort(us.begin(), us.end());
  // Under TSan on a loaded machine a wake-up alone can take a millisecond:
  // timed in the plain and ASan runs only.
#if !defined(__SANITIZE_THREAD__)
  EXPECT_LT(us[us.size() / 2], 1000.0) << "median of 21, us";
#endif
  CopyThreads observer;
  ASSERT_TRUE(roctracer_internal_gpu_add_observer(
      roctracer::gpu::kObserverAbiVersion, &observer));
  ASSERT_GE(CompletionThreadSleeps(), 0) << "no thread named roctracer-gpu";
  constexpr int kPhases = 4, kPerPhase = 200;
  const Phase quietest = QuietestPhase(
      kPhases, kPerPhase,
      [&] {
        hsa_signal_store_relaxed(copied, 1);
        ASSERT_EQ(
            hsa_amd_memory_async_copy(dst.data(), program_.gpu, src.data(),
                                      program_.cpu, 64, 0, nullptr, copied),
            HSA_STATUS_SUCCESS);
        ASSERT_EQ(gpu_test::WaitZero(copied), 0);
      },
      &observer);
  EXPECT_LE(quietest.sleeps, quietest.ms + kPerPhase / 20)
      << quietest.ms << " ms";
  ASSERT_EQ(roctracer_flush_activity_expl(pool_), ROCTRACER_STATUS_SUCCESS);
  roctracer_internal_gpu_remove_observer(&observer);
  EXPECT_EQ(records_.Count(ACTIVITY_DOMAIN_HSA_OPS, HSA_OP_ID_COPY),
            21u + kPhases * kPerPhase);
  EXPECT_EQ(dst[0], 'b');
  hsa_queue_destroy(q);
  for (hsa_signal_t s : {hold, copied, barrier}) hsa_signal_destroy(s);
}

// After the two looks for which a noticed dependency has every copy watched:
// the microseconds until the application signal `polled` of a copy nobody
// waits on (its signal polled with loads) moves. Two looks are a millisecond
// apart at least: only a prompt completion thread reports it within 500 us.
double UsUntilAnUnwaitedCopyIsReported(const gpu_test::Program& program,
                                       hsa_signal_t polled) {
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  std::vector<char> src(64, 'u'), dst(64, 0);
  hsa_signal_store_relaxed(polled, 1);
  const auto start = std::chrono::steady_clock::now();
  if (hsa_amd_memory_async_copy(dst.data(), program.gpu, src.data(),
                                program.cpu, 64, 0, nullptr,
                                polled) != HSA_STATUS_SUCCESS) {
    return -1;
  }
  while (hsa_signal_load_scacquire(polled) != 0) std::this_thread::yield();
  return std::chrono::duration<double, std::micro>(
             std::chrono::steady_clock::now() - start)
      .count();
}

// The median microseconds, over 21 trials, from the release of a traced copy
// held back by a dependency on `hold` to the end of a wait (any condition
// "below 1") on `group`, whose member `copied` is the copy's signal. Each
// wait must find `copied` at 0.
double GroupWaitMedianUs(const gpu_test::Program& program,
                         hsa_signal_group_t group, hsa_signal_t hold,
                         hsa_signal_t copied) {
  std::vector<char> src(64, 'g'), dst(64, 0);
  const hsa_signal_condition_t conds[2] = {HSA_SIGNAL_CONDITION_LT,
                                           HSA_SIGNAL_CONDITION_LT};
  const hsa_signal_value_t values[2] = {1, 1};
  std::vector<double> us;
  for (int trial = 0; trial < 21; ++trial) {
    hsa_signal_store_relaxed(hold, 1);
    hsa_signal_store_relaxed(copied, 1);
    if (hsa_amd_memory_async_copy(dst.data(), program.gpu, src.data(),
                                  program.cpu, 64, 1, &hold,
                                  copied) != HSA_STATUS_SUCCESS) {
      ADD_FAILURE() << "copy refused";
      return -1;
    }
    const auto start = std::chrono::steady_clock::now();
    hsa_signal_store_screlease(hold, 0);
    hsa_signal_t found{0};
    hsa_signal_value_t value = -1;
    const auto wait = trial % 2 == 0 ? &hsa_signal_group_wait_any_scacquire
                                     : &hsa_signal_group_wait_any_relaxed;
    if (wait(group, conds, values, HSA_WAIT_STATE_BLOCKED, &found, &value) !=
        HSA_STATUS_SUCCESS) {
      ADD_FAILURE() << "group wait failed";
      return -1;
    }
    us.push_back(std::chrono::duration<double, std::micro>(
                     std::chrono::steady_clock::now() - start)
                     .count());
    EXPECT_EQ(found.handle, copied.handle);
    EXPECT_EQ(value, 0);
  }
  EXPECT_EQ(dst[0], 'g');
  std::sort(us.begin(), us.end());
  return us[us.size() / 2];
}

// A wait on a signal group that holds a traced copy's signal is a waiter on
// that copy too: the copy is watched as the wait starts, and the wait ends
// within a wake-up of the copy's completion, not at the completion thread's
// looks (a millisecond or more apart; the runtime's group wait does not go
// through the wait_any the tracer sees). Nor do those copies count as ones
// nobody collected: the thread is not prompt afterwards, and a copy nobody
// waits on is left for two looks (unnoticed, the group waits' copies made
// the thread prompt after two trials, the rest of them fast too).
TEST_F(GpuActivity, AGroupWaitOnACopysSignalIsNotHeldBackUntilTheThreadLooks) {
  hsa_signal_t hold, copied, other;
  ASSERT_EQ(hsa_signal_create(1, 0, nullptr, &hold), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_signal_create(1, 0, nullptr, &copied), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_signal_create(1, 0, nullptr, &other), HSA_STATUS_SUCCESS);
  const hsa_signal_t members[2] = {other, copied};
  hsa_signal_group_t group;
  ASSERT_EQ(hsa_signal_group_create(2, members, 1, &program_.cpu, &group),
            HSA_STATUS_SUCCESS);
  EXPECT_LT(GroupWaitMedianUs(program_, group, hold, copied), 1000.0)
      << "median of 21, us";
  EXPECT_EQ(hsa_signal_group_destroy(group), HSA_STATUS_SUCCESS);
  EXPECT_GE(UsUntilAnUnwaitedCopyIsReported(program_, other), 500.0)
      << "a copy nobody waits on was reported by a prompt completion thread";
  ASSERT_EQ(roctracer_flush_activity_expl(pool_), ROCTRACER_STATUS_SUCCESS);
  EXPECT_EQ(records_.Count(ACTIVITY_DOMAIN_HSA_OPS, HSA_OP_ID_COPY), 22u);
  for (hsa_signal_t s : {hold, copied, other}) hsa_signal_destroy(s);
}

// GPU activity with an HSA tool loaded before the tracer
// (libearly_group_tool.so), which made a signal group in its OnLoad.
class EarlyGroupActivity : public GpuActivity {
 protected:
  void SetUp() override {
    const char* tool = std::getenv("GPU_TEST_EARLY_TOOL");
    ASSERT_NE(tool, nullptr);
    program_.tools_first = tool;
    GpuActivity::SetUp();
    void* handle = dlopen(tool, RTLD_NOW | RTLD_NOLOAD);
    ASSERT_NE(handle, nullptr) << "the runtime did not load " << tool;
    auto early_group =
        reinterpret_cast<bool (*)(hsa_signal_group_t*, hsa_signal_t*)>(
            dlsym(handle, "early_group"));
    dlclose(handle);
    ASSERT_NE(early_group, nullptr);
    ASSERT_TRUE(early_group(&group_, members_));
  }

  hsa_signal_group_t group_{0};
  hsa_signal_t members_[2] = {{0}, {0}};
};

// The tracer cannot tell which signals a group it did not see created holds:
// a wait on one is taken as a wait on every copy in flight, so it too ends
// within a wake-up of the copy's completion, and its copies do not make the
// completion thread prompt (without this, the first two waits took the
// thread's looks, 1-3 ms, and made it prompt: a copy nobody waits on was
// then reported at once).
TEST_F(EarlyGroupActivity, AGroupCreatedBeforeTheTracerLoadedIsNoticedToo) {
  hsa_signal_t hold;
  ASSERT_EQ(hsa_signal_create(1, 0, nullptr, &hold), HSA_STATUS_SUCCESS);
  const hsa_signal_t other = members_[0], copied = members_[1];
  EXPECT_LT(GroupWaitMedianUs(program_, group_, hold, copied), 1000.0)
      << "median of 21, us";
  EXPECT_GE(UsUntilAnUnwaitedCopyIsReported(program_, other), 500.0)
      << "a copy nobody waits on was reported by a prompt completion thread";
  EXPECT_EQ(hsa_signal_group_destroy(group_), HSA_STATUS_SUCCESS);
  ASSERT_EQ(roctracer_flush_activity_expl(pool_), ROCTRACER_STATUS_SUCCESS);
  EXPECT_EQ(records_.Count(ACTIVITY_DOMAIN_HSA_OPS, HSA_OP_ID_COPY), 22u);
  hsa_signal_destroy(hold);
}

// GPU activity with an HSA tool loaded before the tracer
// (libsignal_count_tool.so) that counts the signals created through the
// runtime's table, the tracer's own included.
class SignalCountActivity : public GpuActivity {
 protected:
  void SetUp() override {
    const char* tool = std::getenv("GPU_TEST_SIGNAL_COUNT_TOOL");
    ASSERT_NE(tool, nullptr);
    program_.tools_first = tool;
    GpuActivity::SetUp();
    void* handle = dlopen(tool, RTLD_NOW | RTLD_NOLOAD);
    ASSERT_NE(handle, nullptr) << "the runtime did not load " << tool;
    live_signals_ =
        reinterpret_cast<int64_t (*)()>(dlsym(handle, "live_signals"));
    dlclose(handle);
    ASSERT_NE(live_signals_, nullptr);
  }

  int64_t (*live_signals_)() = nullptr;
};

// A copy's tracer signal lent to a later copy as its dependency stays that
// copy's while it is in flight, even when the lending copy's slot is reused
// (a ring's worth of copies later) and takes another signal; once the later
// copy is reported the lent signal goes back to the tracer's free signals.
// So doing it again creates no signal (before, each time left one more
// signal alive until shutdown).
TEST_F(SignalCountActivity, ALentSignalIsReusedOnceItsDependentCopyIsDone) {
  constexpr int kRing = 8192;  // the copy ring's slots
  constexpr int kBatch = 512;
  std::vector<char> src(64, 'l'), dst(64, 0);
  hsa_signal_t hold_a, hold_b, a_done, b_done, batch;
  for (hsa_signal_t* s : {&hold_a, &hold_b, &a_done, &b_done, &batch}) {
    ASSERT_EQ(hsa_signal_create(1, 0, nullptr, s), HSA_STATUS_SUCCESS);
  }
  const auto round = [&] {
    for (hsa_signal_t s : {hold_a, hold_b, a_done, b_done}) {
      hsa_signal_store_relaxed(s, 1);
    }
    ASSERT_EQ(hsa_amd_memory_async_copy(dst.data(), program_.gpu, src.data(),
                                        program_.cpu, 64, 1, &hold_a, a_done),
              HSA_STATUS_SUCCESS);
    // Given the first copy's tracer signal in place of a_done.
    const hsa_signal_t deps[2] = {a_done, hold_b};
    ASSERT_EQ(hsa_amd_memory_async_copy(dst.data(), program_.gpu, src.data(),
                                        program_.cpu, 64, 2, deps, b_done),
              HSA_STATUS_SUCCESS);
    hsa_signal_store_screlease(hold_a, 0);
    ASSERT_EQ(gpu_test::WaitZero(a_done), 0);
    // The ring's other slots, the first copy's last: reused while the
    // second copy is held back.
    for (int left = kRing - 1; left > 0; left -= kBatch) {
      const int n = std::min(left, kBatch);
      hsa_signal_store_relaxed(batch, n);
      for (int i = 0; i < n; ++i) {
        ASSERT_EQ(
            hsa_amd_memory_async_copy(dst.data(), program_.gpu, src.data(),
                                      program_.cpu, 64, 0, nullptr, batch),
            HSA_STATUS_SUCCESS);
      }
      ASSERT_EQ(gpu_test::WaitZero(batch), 0);
    }
    EXPECT_EQ(hsa_signal_load_scacquire(b_done), 1);
    hsa_signal_store_screlease(hold_b, 0);
    ASSERT_EQ(gpu_test::WaitZero(b_done), 0);
  };
  const roctracer_gpu_activity_stats_t before = gpu_test::GpuStats();
  round();
  const int64_t after_first = live_signals_();
  round();
  round();
  EXPECT_EQ(live_signals_(), after_first)
      << "each reuse of a lent signal's slot created a signal";
  // The report that moved b_done may still be freeing the ring's slots on
  // another thread; a flush waits for it.
  ASSERT_EQ(roctracer_flush_activity_expl(pool_), ROCTRACER_STATUS_SUCCESS);
  const roctracer_gpu_activity_stats_t stats = gpu_test::GpuStats();
  EXPECT_EQ(stats.untraced, before.untraced) << "the ring overflowed";
  EXPECT_EQ(stats.in_flight, 0u);
  for (hsa_signal_t s : {hold_a, hold_b, a_done, b_done, batch}) {
    hsa_signal_destroy(s);
  }
}

// A barrier lent a copy's tracer signal and still waiting when its queue is
// destroyed (abandoned: counted incomplete) gives the loan back, since no
// packet of that queue runs any more: once the copy is done, its slot keeps
// the signal when it is reused a ring's worth of copies later. Before, the
// loan stayed counted until shutdown, and each such barrier left one more
// signal out of use. The barrier's own tracer signal stays out of use (a
// runtime may still complete an abandoned packet's signal late): one signal
// per barrier, not two.
TEST_F(SignalCountActivity, ABarrierAbandonedAtQueueDestroyGivesItsLoanBack) {
  constexpr int kRing = 8192;  // the copy ring's slots
  constexpr int kBatch = 512;
  std::vector<char> src(64, 'q'), dst(64, 0);
  hsa_signal_t hold, copied, never, done, batch;
  for (hsa_signal_t* s : {&hold, &copied, &never, &done, &batch}) {
    ASSERT_EQ(hsa_signal_create(1, 0, nullptr, s), HSA_STATUS_SUCCESS);
  }
  const auto round = [&] {
    for (hsa_signal_t s : {hold, copied, never, done}) {
      hsa_signal_store_relaxed(s, 1);
    }
    hsa_queue_t* q = program_.Queue();
    ASSERT_NE(q, nullptr);
    ASSERT_EQ(hsa_amd_memory_async_copy(dst.data(), program_.gpu, src.data(),
                                        program_.cpu, 64, 1, &hold, copied),
              HSA_STATUS_SUCCESS);
    // Lent the copy's tracer signal; `never` keeps it waiting.
    gpu_test::Barrier(q, HSA_PACKET_TYPE_BARRIER_AND, {copied, never}, done);
    const roctracer_gpu_activity_stats_t before = gpu_test::GpuStats();
    ASSERT_EQ(hsa_queue_destroy(q), HSA_STATUS_SUCCESS);
    EXPECT_EQ(gpu_test::GpuStats().incomplete, before.incomplete + 1);
    hsa_signal_store_screlease(hold, 0);
    ASSERT_EQ(gpu_test::WaitZero(copied), 0);
    // The ring's other slots, the copy's last.
    for (int left = kRing - 1; left > 0; left -= kBatch) {
      const int n = std::min(left, kBatch);
      hsa_signal_store_relaxed(batch, n);
      for (int i = 0; i < n; ++i) {
        ASSERT_EQ(
            hsa_amd_memory_async_copy(dst.data(), program_.gpu, src.data(),
                                      program_.cpu, 64, 0, nullptr, batch),
            HSA_STATUS_SUCCESS);
      }
      ASSERT_EQ(gpu_test::WaitZero(batch), 0);
    }
    ASSERT_EQ(roctracer_flush_activity_expl(pool_), ROCTRACER_STATUS_SUCCESS);
  };
  const roctracer_gpu_activity_stats_t before = gpu_test::GpuStats();
  round();
  round();
  const int64_t after_second = live_signals_();
  round();
  round();
  EXPECT_EQ(live_signals_(), after_second + 2)
      << "an abandoned barrier's loan stayed out of use";
  const roctracer_gpu_activity_stats_t stats = gpu_test::GpuStats();
  EXPECT_EQ(stats.untraced, before.untraced) << "the ring overflowed";
  EXPECT_EQ(stats.in_flight, 0u);
  for (hsa_signal_t s : {hold, copied, never, done, batch}) {
    hsa_signal_destroy(s);
  }
}

#if HSA_AMD_INTERFACE_VERSION_MINOR >= 7
// hsa_amd_signal_wait_all (newer headers) on a traced copy's signal is
// noticed as a waiter on that copy, as wait_any is. softhsa answers
// HSA_STATUS_ERROR for it at once, so the waiter is played by loads after
// it: the copy's signal moves within a wake-up of its completion, and the
// copy does not count as one nobody collected (unnoticed, such copies made
// the completion thread prompt after two trials).
TEST_F(GpuActivity, AWaitAllOnACopysSignalIsNoticedAsAWaiter) {
  std::vector<char> src(64, 'a'), dst(64, 0);
  hsa_signal_t hold, copied, other;
  ASSERT_EQ(hsa_signal_create(1, 0, nullptr, &hold), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_signal_create(1, 0, nullptr, &copied), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_signal_create(1, 0, nullptr, &other), HSA_STATUS_SUCCESS);
  hsa_signal_condition_t cond = HSA_SIGNAL_CONDITION_LT;
  hsa_signal_value_t one = 1, seen = -1;
  std::vector<double> us;
  for (int trial = 0; trial < 21; ++trial) {
    hsa_signal_store_relaxed(hold, 1);
    hsa_signal_store_relaxed(copied, 1);
    ASSERT_EQ(hsa_amd_memory_async_copy(dst.data(), program_.gpu, src.data(),
                                        program_.cpu, 64, 1, &hold, copied),
              HSA_STATUS_SUCCESS);
    hsa_amd_signal_wait_all(1, &copied, &cond, &one, 0, HSA_WAIT_STATE_ACTIVE,
                            &seen);
    const auto start = std::chrono::steady_clock::now();
    hsa_signal_store_screlease(hold, 0);
    while (hsa_signal_load_scacquire(copied) != 0) std::this_thread::yield();
    us.push_back(std::chrono::duration<double, std::micro>(
                     std::chrono::steady_clock::now() - start)
                     .count());
  }
  std::sort(us.begin(), us.end());
  EXPECT_LT(us[us.size() / 2], 1000.0) << "median of 21, us";
  EXPECT_GE(UsUntilAnUnwaitedCopyIsReported(program_, other), 500.0)
      << "a copy nobody waits on was reported by a prompt completion thread";
  ASSERT_EQ(roctracer_flush_activity_expl(pool_), ROCTRACER_STATUS_SUCCESS);
  EXPECT_EQ(records_.Count(ACTIVITY_DOMAIN_HSA_OPS, HSA_OP_ID_COPY), 22u);
  EXPECT_EQ(dst[0], 'a');
  for (hsa_signal_t s : {hold, copied, other}) hsa_signal_destroy(s);
}
#endif

// The median of `trials` latencies (µs) that `trial` measures, taken in up
// to three series: a loaded machine can delay one series' wake-ups by
// milliseconds, so the first series whose median is under `prompt_us`
// ends it. `*series` counts the series taken.
// What a trial that failed (and said so) returns.
constexpr double kFailedTrial = 1e9;

double PromptMedianUs(int trials, double prompt_us, int* series,
                      const std::function<double()>& trial) {
  double median = 0;
  for (*series = 1;; ++*series) {
    std::vector<double> us;
    for (int i = 0; i < trials; ++i) {
      us.push_back(trial());
      if (us.back() >= kFailedTrial) return us.back();  // failed: said there
    }
    std::sort(us.begin(), us.end());
    median = us[us.size() / 2];
    if (median < prompt_us || *series == 3) return median;
  }
}

// Microseconds from `start` until `polled` loads 0 (loads, not a wait:
// nobody waits on the copy), or kFailedTrial after 10 s.
double UsUntilLoadedZero(hsa_signal_t polled,
                         std::chrono::steady_clock::time_point start) {
  const auto deadline = start + std::chrono::seconds(10);
  while (hsa_signal_load_scacquire(polled) != 0 &&
         std::chrono::steady_clock::now() < deadline) {
    std::this_thread::yield();
  }
  if (hsa_signal_load_scacquire(polled) != 0) {
    ADD_FAILURE() << "copy not done in 10 s";
    return kFailedTrial;
  }
  return std::chrono::duration<double, std::micro>(
             std::chrono::steady_clock::now() - start)
      .count();
}

// A copy published in one of the copy ring's free slots that the completion
// thread watches ahead wakes it when it completes, through the runtime: the
// submitting thread does not wake it (it did, once a copy, before). Copies
// held back by a dependency, submitted one by one, leave it asleep but for
// its look every millisecond while it is active. The thread watches ahead
// once it had to complete copies nobody waited on: it is prompt then, and a
// copy nobody waits on has its signal moved as it completes (left to a
// waiter, it would be reported two looks after its submission, a
// millisecond or more).
TEST_F(GpuActivity, CopiesInTheSlotsWatchedAheadDoNotWakeTheCompletionThread) {
  ASSERT_TRUE(CopiesNobodyWaitsOn(program_));
  std::vector<char> src(64, 'k'), dst(64, 0);
  constexpr int kUnwaited = 21;
  int unwaited = 0;  // copies of every series taken
  {
    hsa_signal_t polled;
    ASSERT_EQ(hsa_signal_create(1, 0, nullptr, &polled), HSA_STATUS_SUCCESS);
    // Left to a waiter, every series' median would be a millisecond or more.
    int series = 0;
    const double median = PromptMedianUs(kUnwaited, 600.0, &series, [&] {
      hsa_signal_store_relaxed(polled, 1);
      const auto start = std::chrono::steady_clock::now();
      if (hsa_amd_memory_async_copy(dst.data(), program_.gpu, src.data(),
                                    program_.cpu, 64, 0, nullptr,
                                    polled) != HSA_STATUS_SUCCESS) {
        ADD_FAILURE() << "copy refused";
        return kFailedTrial;
      }
      return UsUntilLoadedZero(polled, start);
    });
    unwaited = kUnwaited * series;
    EXPECT_LT(median, 600.0) << "median of 21, us, in every series";
    hsa_signal_destroy(polled);
  }
  hsa_signal_t hold;
  ASSERT_EQ(hsa_signal_create(1, 0, nullptr, &hold), HSA_STATUS_SUCCESS);
  constexpr int kHeld = 12;  // fewer than the slots watched ahead
  std::vector<hsa_signal_t> held(kHeld);
  for (hsa_signal_t& h : held) {
    ASSERT_EQ(hsa_signal_create(1, 0, nullptr, &h), HSA_STATUS_SUCCESS);
  }
  auto submit = [&](hsa_signal_t h) {
    ASSERT_EQ(hsa_amd_memory_async_copy(dst.data(), program_.gpu, src.data(),
                                        program_.cpu, 64, 1, &hold, h),
              HSA_STATUS_SUCCESS);
  };
  // The first wakes the idle thread, which then watches ahead.
  submit(held[0]);
  std::this_thread::sleep_for(std::chrono::milliseconds(2));
  const long before = CompletionThreadSleeps();
  ASSERT_GE(before, 0) << "no thread named roctracer-gpu";
  const auto start = std::chrono::steady_clock::now();
  for (int i = 1; i < kHeld; ++i) {
    // Time for the thread to be asleep again after any wake-up.
    std::this_thread::sleep_for(std::chrono::microseconds(300));
    submit(held[i]);
  }
  const long sleeps = CompletionThreadSleeps() - before;
  const long ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                      std::chrono::steady_clock::now() - start)
                      .count();
  // Its looks every millisecond, and a few more; a wake-up per copy would
  // add kHeld - 1.
  EXPECT_LE(sleeps, ms + 3) << ms << " ms";
  hsa_signal_store_screlease(hold, 0);
  for (hsa_signal_t h : held) EXPECT_EQ(gpu_test::WaitZero(h), 0);
  ASSERT_EQ(roctracer_flush_activity_expl(pool_), ROCTRACER_STATUS_SUCCESS);
  EXPECT_EQ(records_.Count(ACTIVITY_DOMAIN_HSA_OPS, HSA_OP_ID_COPY),
            size_t{kHeld} + 2 + size_t(unwaited));
  EXPECT_EQ(dst[0], 'k');
  for (hsa_signal_t h : held) hsa_signal_destroy(h);
  hsa_signal_destroy(hold);
}

// A copy the runtime refuses is no operation: the caller gets the runtime's
// status, its signal is untouched, the observers that wanted the copy hear
// it abandoned, and nothing stays in flight or counts as lost.
class CopyOutcomes : public roctracer::gpu::Observer {
 public:
  uint64_t OnEnqueue(
      const roctracer::gpu::EnqueueInfo& info) noexcept override {
    return info.kind == roctracer::gpu::OpKind::kCopy ? 1 : 0;
  }
  void OnCopy(const roctracer::gpu::CopyRecord&, uint64_t) noexcept override {
    ++copies;
  }
  void OnAbandon(uint64_t) noexcept override { ++abandoned; }
  std::atomic<int> copies{0}, abandoned{0};
};

// The tracer asks the runtime once per signal whether it accepts it as a
// copy's completion signal (HIP reuses its signals), and forgets the answer
// when the signal is destroyed: a copy given a signal destroyed since its
// last copy gets the runtime's refusal, as without the tracer, rather than
// going through with the tracer's signal (and a completion into freed
// memory).
TEST_F(GpuActivity, ACopyOnASignalDestroyedSinceIsRefusedAsWithoutTheTracer) {
  CopyOutcomes observer;
  ASSERT_TRUE(roctracer_internal_gpu_add_observer(
      roctracer::gpu::kObserverAbiVersion, &observer));
  std::vector<char> src(64, 'd'), dst(64, 0);
  hsa_signal_t done;
  ASSERT_EQ(hsa_signal_create(1, 0, nullptr, &done), HSA_STATUS_SUCCESS);
  for (int i = 0; i < 3; ++i) {
    hsa_signal_store_relaxed(done, 1);
    ASSERT_EQ(hsa_amd_memory_async_copy(dst.data(), program_.gpu, src.data(),
                                        program_.cpu, 64, 0, nullptr, done),
              HSA_STATUS_SUCCESS);
    ASSERT_EQ(gpu_test::WaitZero(done), 0);
  }
  ASSERT_EQ(hsa_signal_destroy(done), HSA_STATUS_SUCCESS);
  // No signal is created in between: the handle names no signal.
  EXPECT_EQ(hsa_amd_memory_async_copy(dst.data(), program_.gpu, src.data(),
                                      program_.cpu, 64, 0, nullptr, done),
            HSA_STATUS_ERROR_INVALID_SIGNAL);
  ASSERT_EQ(roctracer_flush_activity_expl(pool_), ROCTRACER_STATUS_SUCCESS);
  roctracer_internal_gpu_remove_observer(&observer);
  EXPECT_EQ(observer.copies.load(), 3);
  EXPECT_EQ(records_.Count(ACTIVITY_DOMAIN_HSA_OPS, HSA_OP_ID_COPY), 3u);
  EXPECT_EQ(gpu_test::GpuStats().in_flight, 0u);
  EXPECT_EQ(dst[0], 'd');
}

// A signal destroyed while a traced copy of it is in flight (the program's
// mistake, undefined without the tracer too) is not completed by the tracer
// afterwards: the runtime may have handed its handle to a new signal, which
// the copy's report must leave alone.
TEST_F(GpuActivity, ASignalDestroyedWhileItsCopyIsInFlightIsNotCompletedLater) {
  std::vector<char> src(64, 'x'), dst(64, 0);
  hsa_signal_t hold, doomed, created;
  ASSERT_EQ(hsa_signal_create(1, 0, nullptr, &hold), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_signal_create(1, 0, nullptr, &doomed), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_amd_memory_async_copy(dst.data(), program_.gpu, src.data(),
                                      program_.cpu, 64, 1, &hold, doomed),
            HSA_STATUS_SUCCESS);
  const uint64_t doomed_handle = doomed.handle;
  ASSERT_EQ(hsa_signal_destroy(doomed), HSA_STATUS_SUCCESS);
  // Usually the destroyed signal's memory, and so its handle.
  ASSERT_EQ(hsa_signal_create(7, 0, nullptr, &created), HSA_STATUS_SUCCESS);
  hsa_signal_store_screlease(hold, 0);
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (records_.Count(ACTIVITY_DOMAIN_HSA_OPS, HSA_OP_ID_COPY) == 0 &&
         std::chrono::steady_clock::now() < deadline) {
    ASSERT_EQ(roctracer_flush_activity_expl(pool_), ROCTRACER_STATUS_SUCCESS);
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  EXPECT_EQ(records_.Count(ACTIVITY_DOMAIN_HSA_OPS, HSA_OP_ID_COPY), 1u);
  EXPECT_EQ(hsa_signal_load_scacquire(created), 7)
      << (created.handle == doomed_handle ? "the destroyed signal's handle"
                                          : "a new handle");
  EXPECT_EQ(gpu_test::GpuStats().in_flight, 0u);
  EXPECT_EQ(dst[0], 'x');
  hsa_signal_destroy(created);
  hsa_signal_destroy(hold);
}

// A zero-timeout wait on a copy's signal is a poll, not a wait that collects
// the thread's copies: a thread that polls so once while its copy is held,
// then with loads, is one nobody waits for, and its copies turn the
// completion thread prompt as loads alone do (the signal moves within a
// wake-up, not the thread's looks a millisecond or more apart).
TEST_F(GpuActivity, AZeroTimeoutPollDoesNotExemptTheThreadsNextCopy) {
  // Longer than a prompt period: what earlier tests' copies left is over.
  std::this_thread::sleep_for(std::chrono::milliseconds(250));
  std::vector<char> src(64, 'z'), dst(64, 0);
  hsa_signal_t hold, polled;
  ASSERT_EQ(hsa_signal_create(1, 0, nullptr, &hold), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_signal_create(1, 0, nullptr, &polled), HSA_STATUS_SUCCESS);
  constexpr int kTrials = 21;
  // Exempted, the copies were moved by the thread's looks, two or more
  // milliseconds after they completed (a median of about 4 ms); prompt,
  // within a wake-up.
  int series = 0;
  [[maybe_unused]] const double median =
      PromptMedianUs(kTrials, 600.0, &series, [&] {
        hsa_signal_store_relaxed(hold, 1);
        hsa_signal_store_relaxed(polled, 1);
        if (hsa_amd_memory_async_copy(dst.data(), program_.gpu, src.data(),
                                      program_.cpu, 64, 1, &hold,
                                      polled) != HSA_STATUS_SUCCESS) {
          ADD_FAILURE() << "copy refused";
          return kFailedTrial;
        }
        EXPECT_EQ(hsa_signal_wait_scacquire(polled, HSA_SIGNAL_CONDITION_EQ, 0,
                                            0, HSA_WAIT_STATE_ACTIVE),
                  1);
        const auto start = std::chrono::steady_clock::now();
        hsa_signal_store_screlease(hold, 0);
        return UsUntilLoadedZero(polled, start);
      });
  // Under TSan on a loaded machine a wake-up can take milliseconds too: not
  // timed there.
#if !defined(__SANITIZE_THREAD__)
  EXPECT_LT(median, 600.0) << "median of 21, us, in every series";
#endif
  ASSERT_EQ(roctracer_flush_activity_expl(pool_), ROCTRACER_STATUS_SUCCESS);
  EXPECT_EQ(records_.Count(ACTIVITY_DOMAIN_HSA_OPS, HSA_OP_ID_COPY),
            size_t(kTrials * series));
  EXPECT_EQ(dst[0], 'z');
  for (hsa_signal_t s : {hold, polled}) hsa_signal_destroy(s);
}

// A byte the copy engine may be writing: the test peeks at it before any
// signal says the copy is done (it looks whether the copy ran at all), a race
// by design that TSan is told not to report.
__attribute__((no_sanitize("thread"))) char PeekByte(const volatile char* p) {
  return *p;
}

// While the first of two copies is reported, looks (up to 2 s) for the
// second's bytes at `watched`: whether the second copy ran before the first's
// report was over.
class SecondCopyWatcher : public roctracer::gpu::Observer {
 public:
  SecondCopyWatcher(uint64_t first_bytes, const volatile char* watched,
                    char expected)
      : first_bytes_(first_bytes), watched_(watched), expected_(expected) {}
  uint64_t OnEnqueue(
      const roctracer::gpu::EnqueueInfo& info) noexcept override {
    return info.kind == roctracer::gpu::OpKind::kCopy ? 1 : 0;
  }
  void OnCopy(const roctracer::gpu::CopyRecord& r, uint64_t) noexcept override {
    if (r.bytes != first_bytes_) return;
    const auto deadline =
        std::chrono::steady_clock::now() + std::chrono::seconds(2);
    while (PeekByte(watched_) != expected_ &&
           std::chrono::steady_clock::now() < deadline) {
      std::this_thread::yield();
    }
    seen_.store(PeekByte(watched_) == expected_);
  }
  bool Seen() const { return seen_.load(); }

 private:
  const uint64_t first_bytes_;
  const volatile char* watched_;
  const char expected_;
  std::atomic<bool> seen_{false};
};

// A copy that depends on a traced copy's application signal (HIP chains a
// stream's copies so) starts when that copy is done, not once the tracer has
// reported it and moved the signal: the dependency the runtime gets is the
// tracer's signal of that copy, which the runtime itself completes. Seen from
// the first copy's report, which finds the second copy's bytes already
// copied (before, the second copy waited for the report's end: the observer
// looked for 2 s in vain).
TEST_F(GpuActivity, ACopyDependingOnATracedCopyStartsWhenThatCopyIsDone) {
  std::vector<char> src_a(64, 'a'), dst_a(64, 0), src_b(128, 'b');
  std::vector<char> dst_b(128, 0);
  SecondCopyWatcher observer(64, dst_b.data(), 'b');
  ASSERT_TRUE(roctracer_internal_gpu_add_observer(
      roctracer::gpu::kObserverAbiVersion, &observer));
  hsa_signal_t hold, a_done, b_done;
  ASSERT_EQ(hsa_signal_create(1, 0, nullptr, &hold), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_signal_create(1, 0, nullptr, &a_done), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_signal_create(1, 0, nullptr, &b_done), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_amd_memory_async_copy(dst_a.data(), program_.gpu, src_a.data(),
                                      program_.cpu, 64, 1, &hold, a_done),
            HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_amd_memory_async_copy(dst_b.data(), program_.gpu, src_b.data(),
                                      program_.cpu, 128, 1, &a_done, b_done),
            HSA_STATUS_SUCCESS);
  hsa_signal_store_screlease(hold, 0);
  EXPECT_EQ(gpu_test::WaitZero(b_done), 0);
  EXPECT_EQ(gpu_test::WaitZero(a_done), 0);
  EXPECT_TRUE(observer.Seen())
      << "the second copy waited for the first one's report";
  EXPECT_EQ(dst_a[63], 'a');
  EXPECT_EQ(dst_b[127], 'b');
  ASSERT_EQ(roctracer_flush_activity_expl(pool_), ROCTRACER_STATUS_SUCCESS);
  roctracer_internal_gpu_remove_observer(&observer);
  EXPECT_EQ(records_.Count(ACTIVITY_DOMAIN_HSA_OPS, HSA_OP_ID_COPY), 2u);
  for (hsa_signal_t s : {hold, a_done, b_done}) hsa_signal_destroy(s);
}

// A signal two copies in flight complete (at 2) is left as the dependency:
// the dependent copy waits for both of them, the second held back here.
TEST_F(GpuActivity, ACopyDependingOnASignalOfTwoCopiesWaitsForBoth) {
  std::vector<char> src(64, 's'), dst1(64, 0), dst2(64, 0), dst3(64, 0);
  hsa_signal_t hold1, hold2, shared, last;
  for (hsa_signal_t* s : {&hold1, &hold2, &last}) {
    ASSERT_EQ(hsa_signal_create(1, 0, nullptr, s), HSA_STATUS_SUCCESS);
  }
  ASSERT_EQ(hsa_signal_create(2, 0, nullptr, &shared), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_amd_memory_async_copy(dst1.data(), program_.gpu, src.data(),
                                      program_.cpu, 64, 1, &hold1, shared),
            HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_amd_memory_async_copy(dst2.data(), program_.gpu, src.data(),
                                      program_.cpu, 64, 1, &hold2, shared),
            HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_amd_memory_async_copy(dst3.data(), program_.gpu, src.data(),
                                      program_.cpu, 64, 1, &shared, last),
            HSA_STATUS_SUCCESS);
  hsa_signal_store_screlease(hold1, 0);
  // Loads: the tracer's wait on a copy's signal waits for its newest copy.
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (hsa_signal_load_scacquire(shared) != 1 &&
         std::chrono::steady_clock::now() < deadline) {
    std::this_thread::yield();
  }
  ASSERT_EQ(hsa_signal_load_scacquire(shared), 1);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(dst3[0], 0) << "the dependent copy ran before both were done";
  EXPECT_EQ(hsa_signal_load_scacquire(last), 1);
  hsa_signal_store_screlease(hold2, 0);
  EXPECT_EQ(gpu_test::WaitZero(last), 0);
  EXPECT_EQ(dst3[63], 's');
  for (hsa_signal_t s : {hold1, hold2, shared, last}) hsa_signal_destroy(s);
}

// A copy the runtime refused leaves its signal to the application: a copy
// submitted right after that depends on the signal waits for the
// application to move it, as without the tracer (it must not get the refused
// copy's tracer signal, which no runtime completes, in its place).
TEST_F(GpuActivity, ACopyDependingOnARefusedCopysSignalWaitsForTheSignal) {
  std::vector<char> src(64, 'r'), dst(64, 0);
  uint64_t hz = 0;
  ASSERT_EQ(hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY, &hz),
            HSA_STATUS_SUCCESS);
  for (int trial = 0; trial < 5; ++trial) {
    hsa_signal_t refused, last;
    ASSERT_EQ(hsa_signal_create(1, 0, nullptr, &refused), HSA_STATUS_SUCCESS);
    ASSERT_EQ(hsa_signal_create(1, 0, nullptr, &last), HSA_STATUS_SUCCESS);
    dst[0] = 0;
    ASSERT_EQ(hsa_amd_memory_async_copy(dst.data(), program_.gpu, nullptr,
                                        program_.cpu, 64, 0, nullptr, refused),
              HSA_STATUS_ERROR_INVALID_ARGUMENT);
    ASSERT_EQ(hsa_amd_memory_async_copy(dst.data(), program_.gpu, src.data(),
                                        program_.cpu, 64, 1, &refused, last),
              HSA_STATUS_SUCCESS);
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    EXPECT_EQ(hsa_signal_load_scacquire(last), 1) << "trial " << trial;
    hsa_signal_store_screlease(refused, 0);
    EXPECT_EQ(hsa_signal_wait_scacquire(last, HSA_SIGNAL_CONDITION_EQ, 0,
                                        hz * 5, HSA_WAIT_STATE_BLOCKED),
              0)
        << "trial " << trial << ": the copy waits for the refused copy";
    EXPECT_EQ(dst[0], 'r');
    if (hsa_signal_load_scacquire(last) != 0) {
      // Not destroyed under a copy the runtime may still hold.
      break;
    }
    hsa_signal_destroy(refused);
    hsa_signal_destroy(last);
  }
}

// While a 64-byte copy is reported, looks (up to 2 s) whether `done`, the
// completion signal of a barrier packet depending on that copy, reached 0:
// whether the barrier ran before the copy's report was over.
class BarrierAfterCopyWatcher : public roctracer::gpu::Observer {
 public:
  explicit BarrierAfterCopyWatcher(hsa_signal_t done) : done_(done) {}
  uint64_t OnEnqueue(
      const roctracer::gpu::EnqueueInfo& info) noexcept override {
    return info.kind == roctracer::gpu::OpKind::kCopy ||
                   info.kind == roctracer::gpu::OpKind::kBarrier
               ? 1
               : 0;
  }
  void OnCopy(const roctracer::gpu::CopyRecord& r, uint64_t) noexcept override {
    if (r.bytes != 64) return;
    const auto deadline =
        std::chrono::steady_clock::now() + std::chrono::seconds(2);
    while (hsa_signal_load_scacquire(done_) != 0 &&
           std::chrono::steady_clock::now() < deadline) {
      std::this_thread::yield();
    }
    seen_.store(hsa_signal_load_scacquire(done_) == 0);
  }
  bool Seen() const { return seen_.load(); }

 private:
  const hsa_signal_t done_;
  std::atomic<bool> seen_{false};
};

// A barrier-AND or -OR packet that depends on a traced copy's application
// signal (HIP orders a stream's work after its copies so) runs when that copy
// is done, not once the tracer has reported it: the packet's dependency is
// the copy's tracer signal, which the runtime completes. Seen from the copy's
// report, which finds the barrier done (before, the barrier waited for the
// report's end: the observer looked for 2 s in vain). As without the tracer,
// the barrier still waits for the copy: not done while the copy is held back,
// and the copy's bytes are there once it is.
TEST_F(GpuActivity, ABarrierDependingOnATracedCopyRunsWhenThatCopyIsDone) {
  hsa_queue_t* q = program_.Queue();
  ASSERT_NE(q, nullptr);
  for (hsa_packet_type_t type :
       {HSA_PACKET_TYPE_BARRIER_AND, HSA_PACKET_TYPE_BARRIER_OR}) {
    SCOPED_TRACE(type == HSA_PACKET_TYPE_BARRIER_AND ? "AND" : "OR");
    std::vector<char> src(64, 'c'), dst(64, 0);
    hsa_signal_t hold, copied, done;
    for (hsa_signal_t* s : {&hold, &copied, &done}) {
      ASSERT_EQ(hsa_signal_create(1, 0, nullptr, s), HSA_STATUS_SUCCESS);
    }
    BarrierAfterCopyWatcher observer(done);
    ASSERT_TRUE(roctracer_internal_gpu_add_observer(
        roctracer::gpu::kObserverAbiVersion, &observer));
    records_.Clear();
    ASSERT_EQ(hsa_amd_memory_async_copy(dst.data(), program_.gpu, src.data(),
                                        program_.cpu, 64, 1, &hold, copied),
              HSA_STATUS_SUCCESS);
    gpu_test::Barrier(q, type, {copied}, done);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    EXPECT_EQ(hsa_signal_load_scacquire(done), 1)
        << "the barrier ran before the copy it depends on";
    hsa_signal_store_screlease(hold, 0);
    ASSERT_EQ(gpu_test::WaitZero(done), 0);
    EXPECT_EQ(PeekByte(&dst[63]), 'c');
    EXPECT_EQ(gpu_test::WaitZero(copied), 0);
    EXPECT_TRUE(observer.Seen()) << "the barrier waited for the copy's report";
    ASSERT_EQ(roctracer_flush_activity_expl(pool_), ROCTRACER_STATUS_SUCCESS);
    roctracer_internal_gpu_remove_observer(&observer);
    EXPECT_EQ(records_.Count(ACTIVITY_DOMAIN_HSA_OPS, HSA_OP_ID_COPY), 1u);
    EXPECT_EQ(records_.Count(ACTIVITY_DOMAIN_HSA_OPS, HSA_OP_ID_BARRIER), 1u);
    for (hsa_signal_t s : {hold, copied, done}) hsa_signal_destroy(s);
  }
  hsa_queue_destroy(q);
}

// The same watch for a tool that traces copies alone: it is not asked for
// barriers.
class CopyOnlyWatcher : public BarrierAfterCopyWatcher {
 public:
  using BarrierAfterCopyWatcher::BarrierAfterCopyWatcher;
  uint64_t OnEnqueue(
      const roctracer::gpu::EnqueueInfo& info) noexcept override {
    return info.kind == roctracer::gpu::OpKind::kCopy ? 1 : 0;
  }
};

// A barrier nobody traces (HIP's barrier after its copies, under a tool that
// traces copies alone) depending on a traced copy runs when that copy is
// done, as a traced barrier does, not once the copy's report moved the
// application's signal (before, it kept that signal as its dependency: the
// copy's report found it not done for 2 s). It still waits for the copy, and
// it is neither reported nor counted.
TEST_F(GpuActivity, AnUntracedBarrierDependingOnATracedCopyRunsWhenItIsDone) {
  ASSERT_EQ(roctracer_disable_domain_activity(ACTIVITY_DOMAIN_HSA_OPS),
            ROCTRACER_STATUS_SUCCESS);
  hsa_queue_t* q = program_.Queue();
  ASSERT_NE(q, nullptr);
  for (hsa_packet_type_t type :
       {HSA_PACKET_TYPE_BARRIER_AND, HSA_PACKET_TYPE_BARRIER_OR}) {
    SCOPED_TRACE(type == HSA_PACKET_TYPE_BARRIER_AND ? "AND" : "OR");
    std::vector<char> src(64, 'u'), dst(64, 0);
    hsa_signal_t hold, copied, done;
    for (hsa_signal_t* s : {&hold, &copied, &done}) {
      ASSERT_EQ(hsa_signal_create(1, 0, nullptr, s), HSA_STATUS_SUCCESS);
    }
    CopyOnlyWatcher observer(done);
    ASSERT_TRUE(roctracer_internal_gpu_add_observer(
        roctracer::gpu::kObserverAbiVersion, &observer));
    const roctracer_gpu_activity_stats_t before = gpu_test::GpuStats();
    ASSERT_EQ(hsa_amd_memory_async_copy(dst.data(), program_.gpu, src.data(),
                                        program_.cpu, 64, 1, &hold, copied),
              HSA_STATUS_SUCCESS);
    gpu_test::Barrier(q, type, {copied}, done);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    EXPECT_EQ(hsa_signal_load_scacquire(done), 1)
        << "the barrier ran before the copy it depends on";
    hsa_signal_store_screlease(hold, 0);
    ASSERT_EQ(gpu_test::WaitZero(done), 0);
    EXPECT_EQ(PeekByte(&dst[63]), 'u');
    EXPECT_EQ(gpu_test::WaitZero(copied), 0);
    EXPECT_TRUE(observer.Seen()) << "the barrier waited for the copy's report";
    ASSERT_EQ(roctracer_flush_activity_expl(pool_), ROCTRACER_STATUS_SUCCESS);
    roctracer_internal_gpu_remove_observer(&observer);
    const roctracer_gpu_activity_stats_t after = gpu_test::GpuStats();
    EXPECT_EQ(after.copies, before.copies + 1);
    EXPECT_EQ(after.barriers, before.barriers);
    EXPECT_EQ(after.incomplete, before.incomplete);
    EXPECT_EQ(after.untraced, before.untraced);
    EXPECT_EQ(after.in_flight, 0u);
    for (hsa_signal_t s : {hold, copied, done}) hsa_signal_destroy(s);
  }
  hsa_queue_destroy(q);
}

// A signal two copies in flight complete (at 2) stays a barrier's
// dependency: the barrier waits for both copies, the second held back.
TEST_F(GpuActivity, ABarrierOnASignalOfTwoCopiesWaitsForBoth) {
  hsa_queue_t* q = program_.Queue();
  ASSERT_NE(q, nullptr);
  SharedSignalCopies c;
  StartSharedSignalCopies(&c);
  hsa_signal_t done;
  ASSERT_EQ(hsa_signal_create(1, 0, nullptr, &done), HSA_STATUS_SUCCESS);
  gpu_test::Barrier(q, HSA_PACKET_TYPE_BARRIER_AND, {c.done}, done);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(hsa_signal_load_scacquire(done), 1)
      << "the barrier ran before both copies were done";
  hsa_signal_store_screlease(c.hold, 0);
  ASSERT_EQ(gpu_test::WaitZero(done), 0);
  EXPECT_EQ(hsa_signal_load_scacquire(c.done), 0);
  EXPECT_EQ(PeekByte(&c.b[63]), 's');
  hsa_queue_destroy(q);
  for (hsa_signal_t s : {c.done, c.hold, done}) hsa_signal_destroy(s);
}

TEST_F(GpuActivity, ACopyTheRuntimeRefusesIsAbandonedAndLeavesItsSignal) {
  CopyOutcomes observer;
  ASSERT_TRUE(roctracer_internal_gpu_add_observer(
      roctracer::gpu::kObserverAbiVersion, &observer));
  hsa_signal_t done;
  ASSERT_EQ(hsa_signal_create(1, 0, nullptr, &done), HSA_STATUS_SUCCESS);
  std::vector<char> dst(64, 0);
  const roctracer_gpu_activity_stats_t before = gpu_test::GpuStats();
  EXPECT_EQ(hsa_amd_memory_async_copy(dst.data(), program_.gpu, nullptr,
                                      program_.cpu, 64, 0, nullptr, done),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  // A copy accepted after it is traced as usual.
  std::vector<char> src(64, 'a');
  ASSERT_EQ(hsa_amd_memory_async_copy(dst.data(), program_.gpu, src.data(),
                                      program_.cpu, 64, 0, nullptr, done),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(gpu_test::WaitZero(done), 0);
  ASSERT_EQ(roctracer_flush_activity_expl(pool_), ROCTRACER_STATUS_SUCCESS);
  roctracer_internal_gpu_remove_observer(&observer);
  EXPECT_EQ(observer.abandoned.load(), 1);
  EXPECT_EQ(observer.copies.load(), 1);
  EXPECT_EQ(records_.Count(ACTIVITY_DOMAIN_HSA_OPS, HSA_OP_ID_COPY), 1u);
  EXPECT_EQ(dst[0], 'a');
  const roctracer_gpu_activity_stats_t after = gpu_test::GpuStats();
  EXPECT_EQ(after.in_flight, 0u);
  EXPECT_EQ(after.failed_copies, before.failed_copies);
  EXPECT_EQ(after.incomplete, before.incomplete);
  EXPECT_EQ(after.copies, before.copies + 1);
  hsa_signal_destroy(done);
}

// A tool's callback may wait on a signal itself while a copy is reported,
// even on another traced copy's signal (it is then an ordinary wait).
class WaitingObserver : public roctracer::gpu::Observer {
 public:
  explicit WaitingObserver(hsa_signal_t other) : other_(other) {}
  uint64_t OnEnqueue(
      const roctracer::gpu::EnqueueInfo& info) noexcept override {
    return info.kind == roctracer::gpu::OpKind::kCopy ? 1 : 0;
  }
  void OnCopy(const roctracer::gpu::CopyRecord&, uint64_t) noexcept override {
    uint64_t hz = 0;
    hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY, &hz);
    if (!waited_.exchange(true)) {
      seen_ = hsa_signal_wait_scacquire(other_, HSA_SIGNAL_CONDITION_LT, 1,
                                        hz / 1000, HSA_WAIT_STATE_BLOCKED);
    }
  }
  hsa_signal_value_t seen() const { return seen_; }

 private:
  hsa_signal_t other_;
  std::atomic<bool> waited_{false};
  std::atomic<hsa_signal_value_t> seen_{-5};
};

TEST_F(GpuActivity, AnObserverMayWaitOnAnotherCopysSignal) {
  hsa_signal_t done, other, hold;
  ASSERT_EQ(hsa_signal_create(1, 0, nullptr, &done), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_signal_create(1, 0, nullptr, &other), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_signal_create(1, 0, nullptr, &hold), HSA_STATUS_SUCCESS);
  WaitingObserver observer(other);
  ASSERT_TRUE(roctracer_internal_gpu_add_observer(
      roctracer::gpu::kObserverAbiVersion, &observer));
  std::vector<char> src(64, 'o'), a(64, 0), b(64, 0);
  // The copy completing `other` waits for `hold`: still in flight while the
  // first copy is reported.
  ASSERT_EQ(hsa_amd_memory_async_copy(b.data(), program_.gpu, src.data(),
                                      program_.cpu, 64, 1, &hold, other),
            HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_amd_memory_async_copy(a.data(), program_.gpu, src.data(),
                                      program_.cpu, 64, 0, nullptr, done),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(gpu_test::WaitZero(done), 0);
  ASSERT_EQ(roctracer_flush_activity_expl(pool_), ROCTRACER_STATUS_SUCCESS);
  EXPECT_EQ(observer.seen(), 1);  // its 1 ms passed, the copy still held
  hsa_signal_store_screlease(hold, 0);
  EXPECT_EQ(gpu_test::WaitZero(other), 0);
  EXPECT_EQ(b[0], 'o');
  roctracer_internal_gpu_remove_observer(&observer);
  hsa_signal_destroy(hold);
  hsa_signal_destroy(other);
  hsa_signal_destroy(done);
}

// Such a wait keeps its timeout and its condition: one signal shared by two
// copies, the second held back by a dependency, is not below 1 until both
// are done.
TEST_F(GpuActivity, AWaitOnASharedCopySignalKeepsItsTimeoutAndCondition) {
  SharedSignalCopies c;
  ASSERT_NO_FATAL_FAILURE(StartSharedSignalCopies(&c));
  const auto start = std::chrono::steady_clock::now();
  // 20 ms: several of the slices a wait on a copy's signal is made of.
  EXPECT_EQ(hsa_signal_wait_scacquire(c.done, HSA_SIGNAL_CONDITION_LT, 1,
                                      c.hz / 50, HSA_WAIT_STATE_BLOCKED),
            1);
  const auto waited = std::chrono::steady_clock::now() - start;
  EXPECT_GE(waited, std::chrono::milliseconds(15));
  EXPECT_LT(waited, std::chrono::seconds(5));
  EXPECT_EQ(c.a[0], 's');
  EXPECT_EQ(c.b[0], 0);
  hsa_signal_store_screlease(c.hold, 0);
  FinishSharedSignalCopies(&c);
}

// A wait whose condition the first of two copies sharing a signal satisfies
// returns once that copy is done, as it would untraced, not when the second
// (held back by a dependency) is: with a timeout (`EQ 1`) well before the
// timeout, without one (`LT 2`, on another thread) at all.
TEST_F(GpuActivity, AWaitSatisfiedByTheFirstOfTwoCopiesReturnsThen) {
  SharedSignalCopies c;
  ASSERT_NO_FATAL_FAILURE(StartSharedSignalCopies(&c));
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(hsa_signal_wait_scacquire(c.done, HSA_SIGNAL_CONDITION_EQ, 1,
                                      c.hz * 10, HSA_WAIT_STATE_BLOCKED),
            1);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5))
      << "the wait waited for the second copy, to its timeout";
  EXPECT_EQ(c.a[0], 's');
  EXPECT_EQ(c.b[0], 0);
  std::atomic<bool> returned{false};
  std::atomic<hsa_signal_value_t> seen{-5};
  std::thread waiter([&] {
    seen = hsa_signal_wait_scacquire(c.done, HSA_SIGNAL_CONDITION_LT, 2,
                                     UINT64_MAX, HSA_WAIT_STATE_BLOCKED);
    returned = true;
  });
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (!returned && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  EXPECT_TRUE(returned) << "a wait without a timeout waited for the held copy";
  // Releases the held copy (ending such a wait too) before the next checks.
  hsa_signal_store_screlease(c.hold, 0);
  waiter.join();
  EXPECT_LT(seen.load(), 2);
  FinishSharedSignalCopies(&c);
}

// A rectangle copy goes through the same chained completion as a linear
// one: the runtime completes the application's signal, the record has the
// rectangle's bytes and the tracer's times.
TEST_F(GpuActivity, RectangleCopyCompletesTheSignalAndIsRecorded) {
  hsa_signal_t done;
  ASSERT_EQ(hsa_signal_create(1, 0, nullptr, &done), HSA_STATUS_SUCCESS);
  std::vector<char> src(16 * 4, 'r'), dst(32 * 4, 0);
  hsa_pitched_ptr_t s{src.data(), 16, 16 * 4}, d{dst.data(), 32, 32 * 4};
  hsa_dim3_t origin{0, 0, 0}, range{8, 4, 1};
  const uint64_t t0 = Now();
  ASSERT_EQ(hsa_amd_memory_async_copy_rect(&d, &origin, &s, &origin, &range,
                                           program_.gpu, hsaHostToDevice, 0,
                                           nullptr, done),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(gpu_test::WaitZero(done), 0);
  const uint64_t t1 = Now();
  EXPECT_EQ(dst[3 * 32 + 7], 'r');
  EXPECT_EQ(dst[3 * 32 + 8], 0);
  ASSERT_EQ(roctracer_flush_activity_expl(pool_), ROCTRACER_STATUS_SUCCESS);
  auto copies = records_.Of(ACTIVITY_DOMAIN_HSA_OPS, HSA_OP_ID_COPY);
  ASSERT_EQ(copies.size(), 1u);
  EXPECT_EQ(copies[0].r.bytes, 32u);
  EXPECT_EQ(copies[0].r.kind, uint32_t{hsaHostToDevice});
  EXPECT_LE(t0, copies[0].r.begin_ns);
  EXPECT_LE(copies[0].r.begin_ns, copies[0].r.end_ns);
  EXPECT_LE(copies[0].r.end_ns, t1);
  EXPECT_EQ(gpu_test::GpuStats().in_flight, 0u);
  // Still exactly one decrement: the signal stays at 0.
  EXPECT_EQ(hsa_signal_load_scacquire(done), 0);
  hsa_signal_destroy(done);
}

// The kernel reads CLOCK_BOOTTIME itself: the record, converted from the
// runtime's system timestamp domain (100 MHz, epoch 1000 s off on softhsa,
// with a 25 MHz device clock under it), must bracket what the kernel saw, to
// within the device clock's 40 ns tick and the anchor's error.
TEST_F(GpuActivity, DispatchTimesAreTheKernelsInTheTracersClock) {
  hsa_queue_t* q = program_.Queue();
  auto* out = static_cast<uint64_t*>(program_.kernarg) + 8;
  *static_cast<uint64_t**>(program_.kernarg) = out;
  hsa_signal_t done;
  ASSERT_EQ(hsa_signal_create(1, 0, nullptr, &done), HSA_STATUS_SUCCESS);
  constexpr uint64_t kSlackNs = 200;
  for (uint64_t spin : {0u, 20'000u, 300'000u}) {
    records_.Clear();
    out[2] = spin;
    hsa_signal_store_screlease(done, 1);
    gpu_test::Dispatch(q, program_.stamp, program_.kernarg, done);
    gpu_test::WaitZero(done);
    roctracer_flush_activity_expl(pool_);
    auto d = records_.Of(ACTIVITY_DOMAIN_HSA_OPS, HSA_OP_ID_DISPATCH);
    ASSERT_EQ(d.size(), 1u);
    EXPECT_LE(d[0].r.begin_ns, out[0] + kSlackNs) << spin;
    EXPECT_GE(d[0].r.end_ns + kSlackNs, out[1]) << spin;
    EXPECT_GE(d[0].r.end_ns - d[0].r.begin_ns + kSlackNs, out[1] - out[0]);
    // Not far outside either: the kernel is most of the dispatch.
    EXPECT_LT(out[0] - d[0].r.begin_ns + 0ull, 1'000'000u) << spin;
  }
  hsa_queue_destroy(q);
  hsa_signal_destroy(done);
}

// With HSA_API traced, a dispatch carries the correlation ID of the doorbell
// store that submitted it, and lies after that call's start on one timeline.
TEST_F(GpuActivity, DispatchCarriesTheSubmittingCallsCorrelationId) {
  uint32_t store_op = 0;
  ASSERT_EQ(roctracer_op_code(ACTIVITY_DOMAIN_HSA_API,
                              "hsa_signal_store_screlease", &store_op, nullptr),
            ROCTRACER_STATUS_SUCCESS);
  ASSERT_EQ(roctracer_enable_op_activity_expl(ACTIVITY_DOMAIN_HSA_API, store_op,
                                              pool_),
            ROCTRACER_STATUS_SUCCESS);
  hsa_queue_t* q = program_.Queue();
  hsa_signal_t done;
  ASSERT_EQ(hsa_signal_create(3, 0, nullptr, &done), HSA_STATUS_SUCCESS);
  for (int i = 0; i < 3; ++i) {
    gpu_test::Dispatch(q, program_.empty, program_.kernarg, done);
  }
  gpu_test::WaitZero(done);
  roctracer_disable_op_activity(ACTIVITY_DOMAIN_HSA_API, store_op);
  roctracer_flush_activity_expl(pool_);
  auto stores = records_.Of(ACTIVITY_DOMAIN_HSA_API, store_op);
  auto dispatches = records_.Of(ACTIVITY_DOMAIN_HSA_OPS, HSA_OP_ID_DISPATCH);
  ASSERT_EQ(stores.size(), 3u);
  ASSERT_EQ(dispatches.size(), 3u);
  // Records written on different threads (the API records on this one, the
  // dispatches on the completion thread or the flushing one) reach the
  // buffer callback in either order: pair them in time order.
  auto by_begin = [](const gpu_test::Record& a, const gpu_test::Record& b) {
    return a.r.begin_ns < b.r.begin_ns;
  };
  std::sort(stores.begin(), stores.end(), by_begin);
  std::sort(dispatches.begin(), dispatches.end(), by_begin);
  for (int i = 0; i < 3; ++i) {
    EXPECT_NE(stores[i].r.correlation_id, 0u);
    EXPECT_EQ(dispatches[i].r.correlation_id, stores[i].r.correlation_id);
    EXPECT_LE(stores[i].r.begin_ns, dispatches[i].r.begin_ns);
  }
  hsa_queue_destroy(q);
  hsa_signal_destroy(done);
}

// Work the application saw complete is in the pool when it flushes, closes
// the pool or shuts the runtime down, whatever the completion thread did.
TEST_F(GpuActivity, CompletedWorkIsDeliveredAtFlushCloseAndShutdown) {
  hsa_queue_t* q = program_.Queue();
  hsa_signal_t done;
  ASSERT_EQ(hsa_signal_create(1, 0, nullptr, &done), HSA_STATUS_SUCCESS);
  for (int round = 0; round < 50; ++round) {
    records_.Clear();
    hsa_signal_store_screlease(done, 1);
    gpu_test::Dispatch(q, program_.empty, program_.kernarg, done);
    gpu_test::WaitZero(done);
    roctracer_flush_activity_expl(pool_);
    ASSERT_EQ(records_.Count(ACTIVITY_DOMAIN_HSA_OPS, HSA_OP_ID_DISPATCH), 1u)
        << round;
  }
  records_.Clear();
  hsa_signal_store_screlease(done, 1);
  gpu_test::Barrier(q, HSA_PACKET_TYPE_BARRIER_AND, {}, done);
  gpu_test::WaitZero(done);
  ASSERT_EQ(roctracer_close_pool_expl(pool_), ROCTRACER_STATUS_SUCCESS);
  pool_ = nullptr;
  EXPECT_EQ(records_.Count(ACTIVITY_DOMAIN_HSA_OPS, HSA_OP_ID_BARRIER), 1u);

  ASSERT_EQ(gpu_test::OpenPool(&records_, &pool_), ROCTRACER_STATUS_SUCCESS);
  roctracer_enable_domain_activity_expl(ACTIVITY_DOMAIN_HSA_OPS, pool_);
  records_.Clear();
  hsa_signal_store_screlease(done, 1);
  gpu_test::Dispatch(q, program_.empty, program_.kernarg, done);
  gpu_test::WaitZero(done);
  hsa_signal_destroy(done);
  program_.Stop();  // hsa_shut_down with the queue still open
  roctracer_flush_activity_expl(pool_);
  EXPECT_EQ(records_.Count(ACTIVITY_DOMAIN_HSA_OPS, HSA_OP_ID_DISPATCH), 1u);
  EXPECT_EQ(gpu_test::GpuStats().in_flight, 0u);
  ASSERT_TRUE(program_.Start());  // for TearDown
}

// Disabling mid-stream: what was submitted while enabled is recorded, what
// came after is not, and no tracer signal stays in use.
TEST_F(GpuActivity, DisablingMidStreamStopsNewRecordsAndLeaksNothing) {
  hsa_queue_t* q = program_.Queue(256);
  hsa_signal_t gate, done;
  ASSERT_EQ(hsa_signal_create(1, 0, nullptr, &gate), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_signal_create(41, 0, nullptr, &done), HSA_STATUS_SUCCESS);
  const roctracer_gpu_activity_stats_t before = gpu_test::GpuStats();
  // Nothing completes before the gate opens: the first 20 are in flight
  // when activity is disabled.
  gpu_test::Barrier(q, HSA_PACKET_TYPE_BARRIER_AND, {gate}, done);
  for (int i = 0; i < 19; ++i) {
    gpu_test::Dispatch(q, program_.empty, program_.kernarg, done);
  }
  EXPECT_EQ(gpu_test::GpuStats().in_flight, 20u);
  ASSERT_EQ(roctracer_disable_domain_activity(ACTIVITY_DOMAIN_HSA_OPS),
            ROCTRACER_STATUS_SUCCESS);
  for (int i = 0; i < 21; ++i) {
    gpu_test::Dispatch(q, program_.empty, program_.kernarg, done);
  }
  hsa_signal_store_screlease(gate, 0);
  gpu_test::WaitZero(done);
  roctracer_flush_activity_expl(pool_);
  EXPECT_EQ(records_.Count(ACTIVITY_DOMAIN_HSA_OPS, HSA_OP_ID_BARRIER), 1u);
  EXPECT_EQ(records_.Count(ACTIVITY_DOMAIN_HSA_OPS, HSA_OP_ID_DISPATCH), 19u);
  const roctracer_gpu_activity_stats_t after = gpu_test::GpuStats();
  EXPECT_EQ(after.in_flight, 0u);
  EXPECT_EQ(after.untraced, before.untraced);
  EXPECT_EQ(after.dispatches - before.dispatches, 19u);
  hsa_queue_destroy(q);
  hsa_signal_destroy(gate);
  hsa_signal_destroy(done);
}

// A tool's pool (the tool slot, tool_activity.h) and the program's get the
// same device records; the program's disable and close leave the tool's on.
TEST_F(GpuActivity, ToolPoolAndProgramPoolBothGetEveryRecord) {
  Records tool_records;
  roctracer_pool_t* tool_pool = nullptr;
  ASSERT_EQ(gpu_test::OpenPool(&tool_records, &tool_pool),
            ROCTRACER_STATUS_SUCCESS);
  ASSERT_EQ(roctracer_internal_tool_enable_domain_activity(
                ACTIVITY_DOMAIN_HSA_OPS, tool_pool),
            ROCTRACER_STATUS_SUCCESS);
  hsa_queue_t* q = program_.Queue();
  hsa_signal_t done;
  ASSERT_EQ(hsa_signal_create(3, 0, nullptr, &done), HSA_STATUS_SUCCESS);
  std::vector<char> src(64, 'x'), dst(64, 0);
  auto submit = [&] {
    hsa_signal_store_screlease(done, 3);
    gpu_test::Dispatch(q, program_.scale, program_.kernarg, done);
    gpu_test::Barrier(q, HSA_PACKET_TYPE_BARRIER_AND, {}, done);
    ASSERT_EQ(
        hsa_amd_memory_async_copy(dst.data(), program_.gpu, src.data(),
                                  program_.cpu, src.size(), 0, nullptr, done),
        HSA_STATUS_SUCCESS);
    EXPECT_EQ(gpu_test::WaitZero(done), 0);
  };
  submit();  // both
  ASSERT_EQ(roctracer_disable_domain_activity(ACTIVITY_DOMAIN_HSA_OPS),
            ROCTRACER_STATUS_SUCCESS);
  submit();  // the tool's only
  ASSERT_EQ(
      roctracer_enable_domain_activity_expl(ACTIVITY_DOMAIN_HSA_OPS, pool_),
      ROCTRACER_STATUS_SUCCESS);
  ASSERT_EQ(roctracer_close_pool_expl(pool_), ROCTRACER_STATUS_SUCCESS);
  pool_ = nullptr;
  submit();  // the tool's only
  ASSERT_EQ(roctracer_close_pool_expl(tool_pool), ROCTRACER_STATUS_SUCCESS);
  submit();  // nobody's
  for (uint32_t op : {HSA_OP_ID_DISPATCH, HSA_OP_ID_BARRIER, HSA_OP_ID_COPY}) {
    EXPECT_EQ(records_.Count(ACTIVITY_DOMAIN_HSA_OPS, op), 1u) << op;
    EXPECT_EQ(tool_records.Count(ACTIVITY_DOMAIN_HSA_OPS, op), 3u) << op;
  }
  const auto program_dispatch =
      records_.Of(ACTIVITY_DOMAIN_HSA_OPS, HSA_OP_ID_DISPATCH);
  const auto tool_dispatches =
      tool_records.Of(ACTIVITY_DOMAIN_HSA_OPS, HSA_OP_ID_DISPATCH);
  ASSERT_EQ(program_dispatch.size(), 1u);
  EXPECT_EQ(program_dispatch[0].r.correlation_id,
            tool_dispatches[0].r.correlation_id);
  EXPECT_EQ(program_dispatch[0].r.begin_ns, tool_dispatches[0].r.begin_ns);
  EXPECT_EQ(program_dispatch[0].name, tool_dispatches[0].name);
  EXPECT_FALSE(tool_dispatches[0].name.empty());
  hsa_queue_destroy(q);
  hsa_signal_destroy(done);
}

// A queue of 64 packets has 64 tracer slots: the 65th operation in flight is
// submitted untraced, counted, and still runs and completes its signal.
TEST_F(GpuActivity, OperationsBeyondTheTracerSlotsAreCountedNotLost) {
  hsa_queue_t* q = program_.Queue(64);
  hsa_signal_t gate, done;
  ASSERT_EQ(hsa_signal_create(1, 0, nullptr, &gate), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_signal_create(1, 0, nullptr, &done), HSA_STATUS_SUCCESS);
  const uint64_t untraced = gpu_test::GpuStats().untraced;
  gpu_test::Barrier(q, HSA_PACKET_TYPE_BARRIER_AND, {gate}, hsa_signal_t{0});
  for (int i = 0; i < 63; ++i) {
    gpu_test::Barrier(q, HSA_PACKET_TYPE_BARRIER_AND, {}, hsa_signal_t{0});
  }
  gpu_test::Barrier(q, HSA_PACKET_TYPE_BARRIER_AND, {}, done);
  EXPECT_EQ(gpu_test::GpuStats().untraced, untraced + 1);
  hsa_signal_store_screlease(gate, 0);
  EXPECT_EQ(gpu_test::WaitZero(done), 0);
  roctracer_flush_activity_expl(pool_);
  EXPECT_EQ(records_.Count(ACTIVITY_DOMAIN_HSA_OPS, HSA_OP_ID_BARRIER), 64u);
  hsa_queue_destroy(q);
  hsa_signal_destroy(gate);
  hsa_signal_destroy(done);
}

}  // namespace

namespace {

constexpr int kOpsPerThread = 10000;
constexpr int kThreads = 4;

// 4 threads, each on its own queue, 10k operations each (dispatches,
// barriers and copies in turn): exactly one record per operation.
TEST_F(GpuActivity, ExactCountsFromFourThreadsOnFourQueues) {
  std::vector<hsa_queue_t*> queues;
  for (int t = 0; t < kThreads; ++t) queues.push_back(program_.Queue(1024));
  const roctracer_gpu_activity_stats_t before = gpu_test::GpuStats();
  const uint64_t t0 = Now();
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      hsa_signal_t done;
      hsa_signal_create(kOpsPerThread, 0, nullptr, &done);
      uint64_t src = 42, dst = 0;
      for (int i = 0; i < kOpsPerThread; ++i) {
        switch (i % 3) {
          case 0:
            gpu_test::Dispatch(queues[t], program_.empty, program_.kernarg,
                               done);
            break;
          case 1:
            gpu_test::Barrier(queues[t], HSA_PACKET_TYPE_BARRIER_AND, {}, done);
            break;
          default:
            if (hsa_amd_memory_async_copy(&dst, program_.gpu, &src,
                                          program_.cpu, sizeof(src), 0, nullptr,
                                          done) != HSA_STATUS_SUCCESS) {
              failures++;
            }
        }
      }
      if (gpu_test::WaitZero(done) != 0) failures++;
      hsa_signal_destroy(done);
    });
  }
  for (auto& th : threads) th.join();
  const uint64_t t1 = Now();
  ASSERT_EQ(failures.load(), 0);
  roctracer_flush_activity_expl(pool_);
  const int per_kind = kOpsPerThread / 3;
  const size_t dispatches = kThreads * (per_kind + (kOpsPerThread % 3 > 0));
  const size_t barriers = kThreads * (per_kind + (kOpsPerThread % 3 > 1));
  const size_t copies = kThreads * per_kind;
  auto d = records_.Of(ACTIVITY_DOMAIN_HSA_OPS, HSA_OP_ID_DISPATCH);
  auto b = records_.Of(ACTIVITY_DOMAIN_HSA_OPS, HSA_OP_ID_BARRIER);
  auto c = records_.Of(ACTIVITY_DOMAIN_HSA_OPS, HSA_OP_ID_COPY);
  EXPECT_EQ(d.size(), dispatches);
  EXPECT_EQ(b.size(), barriers);
  EXPECT_EQ(c.size(), copies);
  std::map<uint64_t, size_t> per_queue;
  for (auto* list : {&d, &b, &c}) {
    for (const gpu_test::Record& r : *list) {
      ASSERT_LE(t0, r.r.begin_ns);
      ASSERT_LE(r.r.begin_ns, r.r.end_ns);
      ASSERT_LE(r.r.end_ns, t1);
      if (list != &c) per_queue[r.r.queue_id]++;
    }
  }
  for (const gpu_test::Record& r : d) ASSERT_EQ(r.name, "empty");
  ASSERT_EQ(per_queue.size(), size_t{kThreads});
  for (auto& [id, n] : per_queue) {
    EXPECT_EQ(n, (dispatches + barriers) / kThreads) << id;
  }
  const roctracer_gpu_activity_stats_t after = gpu_test::GpuStats();
  EXPECT_EQ(after.untraced, before.untraced);
  EXPECT_EQ(after.incomplete, before.incomplete);
  EXPECT_EQ(after.in_flight, 0u);
  for (hsa_queue_t* q : queues) hsa_queue_destroy(q);
}

// fork() while the completion thread reports a copy (holding the copy
// ring's lock, inside an observer): the child, where that thread does not
// exist, neither waits for that lock nor reports the parent's operations at
// its exit (they are the parent's to report), and ends at once.
class ParkingObserver : public roctracer::gpu::Observer {
 public:
  uint64_t OnEnqueue(
      const roctracer::gpu::EnqueueInfo& info) noexcept override {
    return info.kind == roctracer::gpu::OpKind::kCopy ? 1 : 0;
  }
  void OnCopy(const roctracer::gpu::CopyRecord&, uint64_t) noexcept override {
    if (getpid() != parent) _exit(3);  // the child reports a copy
    ++copies;
    parked = true;
    while (!release.load()) std::this_thread::yield();
  }
  void OnAbandon(uint64_t) noexcept override {
    if (getpid() != parent) _exit(4);  // the child abandons one
  }
  const pid_t parent = getpid();
  std::atomic<int> copies{0};
  std::atomic<bool> parked{false}, release{false};
};

TEST_F(GpuActivity, AForkChildNeitherWaitsForTheCompletionThreadNorReports) {
#if defined(__SANITIZE_THREAD__)
  GTEST_SKIP() << "the child's exit may start threads: not under TSan";
#endif
  ParkingObserver observer;
  ASSERT_TRUE(roctracer_internal_gpu_add_observer(
      roctracer::gpu::kObserverAbiVersion, &observer));
  hsa_signal_t done, second;
  ASSERT_EQ(hsa_signal_create(1, 0, nullptr, &done), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_signal_create(1, 0, nullptr, &second), HSA_STATUS_SUCCESS);
  std::vector<char> src(64, 'f'), dst(64, 0), dst2(64, 0);
  ASSERT_EQ(hsa_amd_memory_async_copy(dst.data(), program_.gpu, src.data(),
                                      program_.cpu, 64, 0, nullptr, done),
            HSA_STATUS_SUCCESS);
  for (int i = 0; i < 5000 && !observer.parked.load(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ASSERT_TRUE(observer.parked.load());
  // A second copy, completed and not yet reported when the process forks.
  ASSERT_EQ(hsa_amd_memory_async_copy(dst2.data(), program_.gpu, src.data(),
                                      program_.cpu, 64, 0, nullptr, second),
            HSA_STATUS_SUCCESS);
  for (int i = 0; i < 5000 && dst2[0] != 'f'; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  std::fflush(nullptr);
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  // The child ends through exit(), as a program returning from main does.
  if (pid == 0) {
    bounded_child::g_in_child = true;
    std::exit(0);
  }
  const int result = bounded_child::Wait(pid, 10);
  observer.release = true;
  EXPECT_EQ(gpu_test::WaitZero(done), 0);
  EXPECT_EQ(gpu_test::WaitZero(second), 0);
  ASSERT_EQ(roctracer_flush_activity_expl(pool_), ROCTRACER_STATUS_SUCCESS);
  roctracer_internal_gpu_remove_observer(&observer);
  EXPECT_NE(result, bounded_child::kHung) << "the child hung at exit";
  EXPECT_EQ(result, 0) << "3: the child reported a copy, 4: it abandoned one "
                          "(negative: the signal that ended it)";
  EXPECT_EQ(observer.copies.load(), 2);
  hsa_signal_destroy(done);
  hsa_signal_destroy(second);
}

// fork() while another thread loads an executable (holding the code-object
// tracker's lock, inside an observer): the child, where that thread does not
// exist, loads and unloads an executable of its own, sees its code object,
// and ends at once.
class LoadParkingObserver : public roctracer::gpu::Observer {
 public:
  uint64_t OnEnqueue(const roctracer::gpu::EnqueueInfo&) noexcept override {
    return 0;
  }
  void OnCodeObject(
      const roctracer::gpu::CodeObjectEvent& e) noexcept override {
    if (getpid() != parent) {
      if (e.load) ++child_loads;
      return;
    }
    if (!e.load || !armed.load()) return;  // not the replay at registration
    parked = true;
    while (!release.load()) std::this_thread::yield();
  }
  const pid_t parent = getpid();
  std::atomic<int> child_loads{0};
  std::atomic<bool> armed{false}, parked{false}, release{false};
};

TEST_F(GpuActivity, AForkChildLoadsCodeObjectsWhileTheParentWasLoadingOne) {
#if defined(__SANITIZE_THREAD__)
  GTEST_SKIP() << "the child's exit may start threads: not under TSan";
#endif
  static LoadParkingObserver* observer = new LoadParkingObserver;
  ASSERT_TRUE(roctracer_internal_gpu_add_observer(
      roctracer::gpu::kObserverAbiVersion, observer));
  observer->armed = true;
  static hsa_agent_t gpu = program_.gpu;
  hsa_test::Loaded loading;
  std::thread loader([&loading] {
    EXPECT_EQ(hsa_test::LoadFile(gpu_test::kKernels, gpu, &loading),
              HSA_STATUS_SUCCESS);
  });
  for (int i = 0; i < 5000 && !observer->parked.load(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ASSERT_TRUE(observer->parked.load());
  // The child loads an executable (a code-object event) and ends through
  // exit(), as a program returning from main does.
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    bounded_child::g_in_child = true;
    hsa_test::Loaded mine;
    if (hsa_test::LoadFile(gpu_test::kKernels, gpu, &mine) !=
        HSA_STATUS_SUCCESS) {
      std::exit(5);
    }
    hsa_test::Unload(&mine);
    std::exit(observer->child_loads.load() == 1 ? 0 : 6);
  }
  ASSERT_GE(pid, 0);
  const int result = bounded_child::Wait(pid, 10);
  observer->release = true;
  loader.join();
  hsa_test::Unload(&loading);
  roctracer_internal_gpu_remove_observer(observer);
  EXPECT_NE(result, bounded_child::kHung)
      << "the child hung on the code-object tracker's lock";
  EXPECT_EQ(result, 0) << "5: the child's load failed, 6: it did not see its "
                          "code object once (negative: the signal that ended "
                          "it)";
}

}  // namespace
