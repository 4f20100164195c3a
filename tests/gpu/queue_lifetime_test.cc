// Queues destroyed from a completion's callback (an observer, as a tool's
// KERNEL_DISPATCH or MEMORY_COPY callback is) while other threads harvest,
// drain or report: the destruction returns, the queue is destroyed once,
// and nobody reads it after the runtime destroyed it. Each scenario runs in
// a fresh process (a death test re-executes the program) that exits: the
// exit drain is part of what is tested, and a deadlock ends the process
// with SIGALRM instead of hanging the test. The queue_watch tool, loaded
// before the tracer, sees every queue call the tracer makes: it ends the
// process with kUsedAfterDestroy when a destroyed queue is read, and holds
// a thread's look at a queue open for another thread's destruction.
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <thread>
#include <vector>

#include "runtime/private/observer_export.h"
#include "tests/gpu/gpu_test_util.h"

namespace {

using roctracer::gpu::CopyRecord;
using roctracer::gpu::DispatchRecord;
using roctracer::gpu::EnqueueInfo;

// The queue_watch tool's exit status for a queue read after its destruction.
constexpr int kUsedAfterDestroy = 70;
// Bound of a scenario (a deadlock ends it with SIGALRM).
constexpr unsigned kScenarioBoundS = 30;

// Runs `on_dispatch` in the report of the first dispatch of `dispatch_queue`
// (of every one with `every_dispatch`) and `on_copy` in the report of the
// first copy of `copy_bytes` bytes.
// Allocated and never destroyed: still registered when the process exits.
class Callbacks : public roctracer::gpu::Observer {
 public:
  uint64_t OnEnqueue(const EnqueueInfo&) noexcept override { return 1; }
  void OnDispatch(const DispatchRecord& r, uint64_t) noexcept override {
    if (r.queue.queue != dispatch_queue) return;
    ++dispatches;
    if (!dispatch_seen.exchange(true) || every_dispatch) on_dispatch();
  }
  void OnAbandon(uint64_t) noexcept override { ++abandoned; }
  void OnCopy(const CopyRecord& r, uint64_t) noexcept override {
    if (r.bytes == copy_bytes && !copy_seen.exchange(true)) on_copy();
  }
  const hsa_queue_t* dispatch_queue = nullptr;
  bool every_dispatch = false;
  uint64_t copy_bytes = 0;
  std::function<void()> on_dispatch = [] {};
  std::function<void()> on_copy = [] {};
  std::atomic<bool> dispatch_seen{false}, copy_seen{false};
  // Dispatches of `dispatch_queue` reported; operations abandoned (any).
  std::atomic<int> dispatches{0}, abandoned{0};
};

// The program on softhsa with the queue_watch tool loaded before the tracer.
struct Child {
  gpu_test::Program program;
  gpu_test::Records records;
  roctracer_pool_t* pool = nullptr;
  void (*hold_look)(const hsa_queue_t*, int, bool) = nullptr;
  bool (*held)() = nullptr;
  int (*destroys)(const hsa_queue_t*) = nullptr;

  // Ends the process with 2 when anything is missing.
  void Start() {
    alarm(kScenarioBoundS);
    const char* tool = std::getenv("GPU_TEST_QUEUE_WATCH_TOOL");
    if (tool == nullptr) _exit(2);
    program.tools_first = tool;
    if (!program.Start()) _exit(2);
    // HSA_OPS records, as a tracing tool has: the library's exit handler
    // (whose first step drains GPU work) runs once a pool exists.
    if (gpu_test::OpenPool(&records, &pool) != ROCTRACER_STATUS_SUCCESS ||
        roctracer_enable_domain_activity_expl(ACTIVITY_DOMAIN_HSA_OPS, pool) !=
            ROCTRACER_STATUS_SUCCESS) {
      _exit(2);
    }
    void* handle = dlopen(tool, RTLD_NOW | RTLD_NOLOAD);
    if (handle == nullptr) _exit(2);
    hold_look = reinterpret_cast<void (*)(const hsa_queue_t*, int, bool)>(
        dlsym(handle, "queue_watch_hold_look"));
    held = reinterpret_cast<bool (*)()>(dlsym(handle, "queue_watch_held"));
    destroys = reinterpret_cast<int (*)(const hsa_queue_t*)>(
        dlsym(handle, "queue_watch_destroys"));
    if (hold_look == nullptr || held == nullptr || destroys == nullptr) {
      _exit(2);
    }
  }
  void Watch(Callbacks* callbacks) {
    if (!roctracer_internal_gpu_add_observer(
            roctracer::gpu::kObserverAbiVersion, callbacks)) {
      _exit(2);
    }
  }
  // Ends the process with 4 unless `queue` is destroyed once within 10 s.
  void ExpectDestroyedOnce(const hsa_queue_t* queue) {
    for (int i = 0; i < 10000 && destroys(queue) == 0; ++i) usleep(1000);
    if (destroys(queue) != 1) _exit(4);
  }
};

hsa_signal_t Signal(hsa_signal_value_t value) {
  hsa_signal_t s{0};
  if (hsa_signal_create(value, 0, nullptr, &s) != HSA_STATUS_SUCCESS) _exit(2);
  return s;
}

// Waits (at most 10 s) until `flag` is set.
void Await(const std::atomic<bool>& flag) {
  for (int i = 0; i < 10000 && !flag.load(); ++i) usleep(1000);
}

// exit() with two queues traced: the exit drain looks at `doomed` (for
// packets not intercepted yet, or, when a barrier there never completes,
// for those to count as lost) and the tool holds that look open; meanwhile
// a dispatch on `other` is reported on the completion thread, whose
// callback destroys `doomed` without the drain mutex the exit holds.
void ExitWhileACallbackDestroysADrainedQueue(bool doomed_busy) {
  static Child& c = *new Child;
  c.Start();
  hsa_queue_t* doomed = c.program.Queue();
  hsa_queue_t* other = c.program.Queue();
  if (doomed == nullptr || other == nullptr) _exit(2);
  const hsa_signal_t never = Signal(1), done = Signal(1);
  static Callbacks& callbacks = *new Callbacks;
  callbacks.dispatch_queue = other;
  callbacks.on_dispatch = [doomed] {
    const hsa_status_t status = hsa_queue_destroy(doomed);
    std::fprintf(stderr, "destroyed from a callback: %d\n", status);
  };
  c.Watch(&callbacks);
  if (doomed_busy) {
    gpu_test::Barrier(doomed, HSA_PACKET_TYPE_BARRIER_AND, {never},
                      hsa_signal_t{0});
  }
  c.hold_look(doomed, 3000, false);
  std::thread([other, done] {
    for (int i = 0; i < 20000 && !c.held(); ++i) usleep(1000);
    gpu_test::Dispatch(other, c.program.empty, c.program.kernarg, done);
  }).detach();
  std::exit(0);
}

TEST(QueueLifetime, ACallbackDestroysAQueueTheExitDrainLooksAtForPackets) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(ExitWhileACallbackDestroysADrainedQueue(false),
              testing::ExitedWithCode(0), "destroyed from a callback: 0");
}

TEST(QueueLifetime, ACallbackDestroysAQueueTheExitDrainCopiesPacketsOf) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(ExitWhileACallbackDestroysADrainedQueue(true),
              testing::ExitedWithCode(0), "destroyed from a callback: 0");
}

// A copy's callback destroys queue `q` while a dispatch of `q` is being
// reported on another thread, whose callback waits on the signal of a copy
// in flight (each callback holds what the other's call needs: the copy
// ring's harvest mutex, and `q`'s). Both return; `q` is destroyed once.
void CopyCallbackDestroysAQueueWhoseCallbackWaitsOnACopy() {
  static Child& c = *new Child;
  c.Start();
  hsa_queue_t* q = c.program.Queue();
  if (q == nullptr) _exit(2);
  const hsa_signal_t hold = Signal(1), held_copy = Signal(1), done = Signal(1),
                     copied = Signal(1);
  uint64_t hz = 0;
  hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY, &hz);
  static std::atomic<bool> in_dispatch{false}, in_copy{false};
  static Callbacks& callbacks = *new Callbacks;
  callbacks.dispatch_queue = q;
  callbacks.on_dispatch = [held_copy, hz] {
    in_dispatch = true;
    Await(in_copy);
    hsa_signal_wait_scacquire(held_copy, HSA_SIGNAL_CONDITION_LT, 1, hz / 5,
                              HSA_WAIT_STATE_BLOCKED);
  };
  callbacks.copy_bytes = 128;
  callbacks.on_copy = [q] {
    Await(in_dispatch);
    in_copy = true;
    usleep(50 * 1000);  // the other callback's wait reaches the copy ring
    const hsa_status_t status = hsa_queue_destroy(q);
    std::fprintf(stderr, "destroyed from a copy callback: %d\n", status);
  };
  c.Watch(&callbacks);
  static std::vector<char> src(128, 'c'), a(64, 0), b(128, 0);
  // In flight until `hold` moves: what the dispatch callback waits on.
  if (hsa_amd_memory_async_copy(a.data(), c.program.gpu, src.data(),
                                c.program.cpu, 64, 1, &hold,
                                held_copy) != HSA_STATUS_SUCCESS) {
    _exit(2);
  }
  gpu_test::Dispatch(q, c.program.empty, c.program.kernarg, done);
  Await(in_dispatch);
  // Reported by this thread's wait (the completion thread is in the
  // dispatch's callback).
  if (hsa_amd_memory_async_copy(b.data(), c.program.gpu, src.data(),
                                c.program.cpu, 128, 0, nullptr,
                                copied) != HSA_STATUS_SUCCESS) {
    _exit(2);
  }
  gpu_test::WaitZero(copied);
  hsa_signal_store_screlease(hold, 0);
  gpu_test::WaitZero(held_copy);
  c.ExpectDestroyedOnce(q);
  std::exit(0);
}

TEST(QueueLifetime, ACopyCallbackDestroysAQueueWhoseCallbackWaitsOnACopy) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(CopyCallbackDestroysAQueueWhoseCallbackWaitsOnACopy(),
              testing::ExitedWithCode(0), "destroyed from a copy callback: 0");
}

// hsa_shut_down's final harvest reports a dispatch of `trigger` (late by
// softhsa's queue_delay) on this thread, whose callback creates a queue and
// runs a kernel there; the completion thread, started again by that queue,
// reports the kernel, and its callback destroys `doomed` without the drain
// mutex, which the shutdown holds while it waits for a late copy. The tool
// holds that destruction's look at `doomed` open past the copy; the same
// callback destroys its own queue, which is deferred past the final harvest.
// The shutdown must not let the runtime go (nor free the state) before both
// destructions are over.
void ShutDownWhileACallbackDestroysAQueue() {
  // Queue ids count from 0 at hsa_init: `trigger` is the second queue.
  setenv("SOFTHSA_FAULTS", "queue_delay=1:50000,copy_delay_us=300000", 1);
  static Child& c = *new Child;
  c.Start();
  hsa_queue_t* doomed = c.program.Queue();
  hsa_queue_t* trigger = c.program.Queue();
  if (doomed == nullptr || trigger == nullptr || trigger->id != 1) _exit(2);
  const hsa_signal_t done = Signal(1), copied = Signal(1), more = Signal(1);
  // Made by the harvest's callback; its own kernel's callback destroys it.
  static hsa_queue_t* made = nullptr;
  static Callbacks& callbacks = *new Callbacks;
  callbacks.dispatch_queue = trigger;
  callbacks.on_dispatch = [doomed, more] {
    // On this thread, inside hsa_shut_down: a queue and a kernel whose
    // report destroys `doomed`.
    static Callbacks& then = *new Callbacks;
    then.on_dispatch = [doomed] {
      const hsa_status_t status = hsa_queue_destroy(doomed);
      std::fprintf(stderr, "destroyed from a callback: %d\n", status);
      // Its own queue: deferred, after the shutdown's final harvest.
      if (hsa_queue_destroy(made) != HSA_STATUS_SUCCESS) _exit(6);
    };
    c.hold_look(doomed, 1000, true);
    made = c.program.Queue();
    if (made == nullptr) _exit(5);
    then.dispatch_queue = made;
    c.Watch(&then);
    gpu_test::Dispatch(made, c.program.empty, c.program.kernarg, more);
  };
  c.Watch(&callbacks);
  static std::vector<char> src(64, 's'), dst(64, 0);
  if (hsa_amd_memory_async_copy(dst.data(), c.program.gpu, src.data(),
                                c.program.cpu, 64, 0, nullptr,
                                copied) != HSA_STATUS_SUCCESS) {
    _exit(2);
  }
  gpu_test::Dispatch(trigger, c.program.empty, c.program.kernarg, done);
  hsa_shut_down();
  c.ExpectDestroyedOnce(doomed);
  // The destruction the callback deferred was done before the runtime went.
  if (made == nullptr) _exit(5);
  c.ExpectDestroyedOnce(made);
  std::exit(0);
}

TEST(QueueLifetime, ACallbackDestroysAQueueWhileTheRuntimeShutsDown) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(ShutDownWhileACallbackDestroysAQueue(),
              testing::ExitedWithCode(0), "destroyed from a callback: 0");
}

// A dispatch's callback destroys the dispatch's own queue: it returns, and
// the queue is destroyed once the report is over.
void DispatchCallbackDestroysItsOwnQueue() {
  static Child& c = *new Child;
  c.Start();
  hsa_queue_t* q = c.program.Queue();
  if (q == nullptr) _exit(2);
  const hsa_signal_t done = Signal(1);
  static Callbacks& callbacks = *new Callbacks;
  callbacks.dispatch_queue = q;
  callbacks.on_dispatch = [q] {
    const hsa_status_t status = hsa_queue_destroy(q);
    std::fprintf(stderr, "destroyed its own queue from a callback: %d\n",
                 status);
    // Destroyed already: refused, as the runtime refuses a destroyed queue
    // (destroying it twice later would pass a freed queue to the runtime).
    if (hsa_queue_destroy(q) != HSA_STATUS_ERROR_INVALID_QUEUE) _exit(6);
  };
  c.Watch(&callbacks);
  gpu_test::Dispatch(q, c.program.empty, c.program.kernarg, done);
  gpu_test::WaitZero(done);
  c.ExpectDestroyedOnce(q);
  std::exit(0);
}

TEST(QueueLifetime, ADispatchCallbackDestroysItsOwnQueue) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(DispatchCallbackDestroysItsOwnQueue(), testing::ExitedWithCode(0),
              "destroyed its own queue from a callback: 0");
}

// A dispatch's callback destroys its own queue while the queue's next two
// packets are in the runtime: a barrier waiting for a signal nobody sets,
// then a kernel. The application, told the queue is destroyed, may free
// what they use, so the runtime runs neither once the call returns (the
// barrier gives up its wait), and what did not run is abandoned to the
// observers rather than reported.
void DeferredDestructionRunsNothingMore() {
  setenv("SOFTHSA_FAULTS", "queue_delay=0:100000", 1);
  static Child& c = *new Child;
  c.Start();
  hsa_queue_t* q = c.program.Queue();
  if (q == nullptr || q->id != 0) _exit(2);
  const hsa_signal_t first = Signal(1), never = Signal(1), second = Signal(1),
                     third = Signal(1);
  static Callbacks& callbacks = *new Callbacks;
  callbacks.dispatch_queue = q;
  callbacks.on_dispatch = [q] {
    const hsa_status_t status = hsa_queue_destroy(q);
    std::fprintf(stderr, "destroyed its own queue from a callback: %d\n",
                 status);
  };
  c.Watch(&callbacks);
  gpu_test::Dispatch(q, c.program.empty, c.program.kernarg, first);
  gpu_test::Barrier(q, HSA_PACKET_TYPE_BARRIER_AND, {never}, second);
  gpu_test::Dispatch(q, c.program.empty, c.program.kernarg, third);
  c.ExpectDestroyedOnce(q);
  // The barrier's wait is over: no kernel after it runs now.
  hsa_signal_store_screlease(never, 0);
  usleep(300 * 1000);
  if (hsa_signal_load_scacquire(second) != 1 ||
      hsa_signal_load_scacquire(third) != 1) {
    _exit(6);
  }
  const int reported = callbacks.dispatches.load();
  const int abandoned = callbacks.abandoned.load();
  std::fprintf(stderr, "reported %d, abandoned %d\n", reported, abandoned);
  if (reported != 1 || abandoned != 2) _exit(7);
  std::exit(0);
}

TEST(QueueLifetime, AQueueDestroyedFromItsOwnCallbackRunsNothingMore) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(DeferredDestructionRunsNothingMore(), testing::ExitedWithCode(0),
              "destroyed its own queue from a callback: 0");
}

// A dispatch's callback on the completion thread creates a queue while
// hsa_shut_down stops that thread (which starts a completion thread): it
// returns, and the shutdown ends.
void CallbackCreatesAQueueWhileShutDownStopsItsThread() {
  static Child& c = *new Child;
  c.Start();
  hsa_queue_t* q = c.program.Queue();
  if (q == nullptr) _exit(2);
  const hsa_signal_t done = Signal(1);
  static std::atomic<bool> in_callback{false}, shutting_down{false};
  static Callbacks& callbacks = *new Callbacks;
  callbacks.dispatch_queue = q;
  callbacks.on_dispatch = [] {
    in_callback = true;
    Await(shutting_down);
    usleep(200 * 1000);  // hsa_shut_down is stopping this thread
    hsa_queue_t* made = c.program.Queue();
    std::fprintf(stderr, "created a queue from a callback: %d\n",
                 made != nullptr);
  };
  c.Watch(&callbacks);
  gpu_test::Dispatch(q, c.program.empty, c.program.kernarg, done);
  Await(in_callback);
  // A shutdown that never ends fails within seconds, not the scenario's
  // bound.
  alarm(10);
  shutting_down = true;
  hsa_shut_down();
  std::exit(0);
}

TEST(QueueLifetime, ACallbackCreatesAQueueWhileTheShutDownStopsItsThread) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(CallbackCreatesAQueueWhileShutDownStopsItsThread(),
              testing::ExitedWithCode(0), "created a queue from a callback: 1");
}

// hsa_shut_down's final harvest reports a dispatch (late by softhsa's
// queue_delay) whose callback destroys its own queue, in which a kernel is
// written but its doorbell never rung (the runtime never hands it to the
// tracer): the deferred destruction abandons it, and the harvest, which
// leaves that queue to it, does not abandon it again.
void ShutDownWithADeferredDestructionOfAQueueWithAPacketNotRung() {
  setenv("SOFTHSA_FAULTS", "queue_delay=0:100000", 1);
  static Child& c = *new Child;
  c.Start();
  hsa_queue_t* q = c.program.Queue();
  if (q == nullptr || q->id != 0) _exit(2);
  const hsa_signal_t done = Signal(1), never = Signal(1);
  static std::atomic<bool> written{false};
  static Callbacks& callbacks = *new Callbacks;
  callbacks.dispatch_queue = q;
  callbacks.on_dispatch = [q] {
    // Not before the packet is in the queue (the report may come early).
    Await(written);
    const hsa_status_t status = hsa_queue_destroy(q);
    std::fprintf(stderr, "destroyed its own queue from a callback: %d\n",
                 status);
  };
  c.Watch(&callbacks);
  gpu_test::Dispatch(q, c.program.empty, c.program.kernarg, done);
  const hsa_kernel_dispatch_packet_t p =
      hsa_test::DispatchPacket(c.program.empty, c.program.kernarg, 1, 1, never);
  const uint64_t index = hsa_queue_add_write_index_scacq_screl(q, 1);
  auto* slot = static_cast<uint8_t*>(q->base_address) + (index % q->size) * 64;
  std::memcpy(slot, &p, sizeof(p));
  written = true;
  hsa_shut_down();
  c.ExpectDestroyedOnce(q);
  std::fprintf(stderr, "abandoned %d\n", callbacks.abandoned.load());
  std::exit(0);
}

TEST(QueueLifetime, ADeferredDestructionAtShutDownAbandonsAPacketNotRungOnce) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(ShutDownWithADeferredDestructionOfAQueueWithAPacketNotRung(),
              testing::ExitedWithCode(0),
              "destroyed its own queue from a callback: 0.*abandoned 1\n");
}

// A dispatch's callback destroys its own queue at every report: the first
// destruction is deferred; the queue's next kernel, begun already (each
// completes late by softhsa's queue_delay), is reported by that destruction
// after the runtime destroyed the queue, and the callback's destruction there
// is refused rather than passed to the runtime a second time.
void DestroyAtEveryReportOfItsOwnQueue() {
  setenv("SOFTHSA_FAULTS", "queue_delay=0:100000", 1);
  static Child& c = *new Child;
  c.Start();
  hsa_queue_t* q = c.program.Queue();
  if (q == nullptr || q->id != 0) _exit(2);
  static std::atomic<int> calls{0};
  static Callbacks& callbacks = *new Callbacks;
  callbacks.dispatch_queue = q;
  callbacks.every_dispatch = true;
  callbacks.on_dispatch = [q] {
    const int call = ++calls;
    // The second kernel begins as the first completes.
    if (call == 1) usleep(50 * 1000);
    const hsa_status_t status = hsa_queue_destroy(q);
    std::fprintf(stderr, "destroy %d from a callback: %d\n", call, status);
    if (call > 1 && status != HSA_STATUS_ERROR_INVALID_QUEUE) _exit(8);
  };
  c.Watch(&callbacks);
  // No completion signals: the runtime then runs no barrier packet (late
  // too) between the two kernels.
  gpu_test::Dispatch(q, c.program.empty, c.program.kernarg, hsa_signal_t{0});
  gpu_test::Dispatch(q, c.program.empty, c.program.kernarg, hsa_signal_t{0});
  c.ExpectDestroyedOnce(q);
  for (int i = 0; i < 10000 &&
                  callbacks.dispatches.load() + callbacks.abandoned.load() < 2;
       ++i) {
    usleep(1000);
  }
  usleep(100 * 1000);
  std::fprintf(stderr, "reported %d, destroyed %d\n",
               callbacks.dispatches.load(), c.destroys(q));
  if (c.destroys(q) != 1) _exit(4);
  // The refusal was tested only if the second kernel's report ran.
  if (calls.load() < 2) _exit(5);
  std::exit(0);
}

TEST(QueueLifetime, ADestructionRepeatedInItsDeferredDestructionIsRefused) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(DestroyAtEveryReportOfItsOwnQueue(), testing::ExitedWithCode(0),
              "destroy 1 from a callback: 0");
}

// hsa_shut_down's final harvest counts a packet written to queue `y` but
// never rung (the runtime never hands it to the tracer) as never completed;
// then it reports a late copy, whose callback destroys `y`. That destruction
// (deferred: a copy's report) does not count the packet again.
void ShutDownCountsAPacketNotRungOnceThoughACopyCallbackDestroysItsQueue() {
  setenv("SOFTHSA_FAULTS", "copy_delay_us=100000", 1);
  static Child& c = *new Child;
  c.Start();
  static hsa_queue_t* y = c.program.Queue();
  if (y == nullptr) _exit(2);
  const hsa_signal_t never = Signal(1), copied = Signal(1);
  static Callbacks& callbacks = *new Callbacks;
  callbacks.copy_bytes = 64;
  callbacks.on_copy = [] {
    const hsa_status_t status = hsa_queue_destroy(y);
    std::fprintf(stderr, "destroyed from a copy callback: %d\n", status);
  };
  c.Watch(&callbacks);
  const hsa_kernel_dispatch_packet_t p =
      hsa_test::DispatchPacket(c.program.empty, c.program.kernarg, 1, 1, never);
  const uint64_t index = hsa_queue_add_write_index_scacq_screl(y, 1);
  auto* slot = static_cast<uint8_t*>(y->base_address) + (index % y->size) * 64;
  std::memcpy(slot, &p, sizeof(p));
  static std::vector<char> src(64, 's'), dst(64, 0);
  if (hsa_amd_memory_async_copy(dst.data(), c.program.gpu, src.data(),
                                c.program.cpu, 64, 0, nullptr,
                                copied) != HSA_STATUS_SUCCESS) {
    _exit(2);
  }
  hsa_shut_down();
  c.ExpectDestroyedOnce(y);
  std::fprintf(stderr, "abandoned %d\n", callbacks.abandoned.load());
  std::exit(0);
}

TEST(QueueLifetime, AShutDownCountsAPacketNotRungOnceThoughACallbackDestroys) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      ShutDownCountsAPacketNotRungOnceThoughACopyCallbackDestroysItsQueue(),
      testing::ExitedWithCode(0),
      "destroyed from a copy callback: 0.*abandoned 1\n");
}

}  // namespace
