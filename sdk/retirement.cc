#include "sdk/retirement.h"

#include <pthread.h>

#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <new>
#include <thread>

#include "rocprofiler-sdk/buffer_tracing.h"
#include "runtime/clock/clock.h"
#include "sdk/buffers.h"
#include "sdk/internal_threading.h"

namespace rocprofiler_sdk {

void Retire(uint64_t correlation_id, uint64_t ns, uint64_t contexts) noexcept {
  if (correlation_id == 0) return;
  uint64_t mask = contexts;
  if (mask == 0) return;
  rocprofiler_buffer_tracing_correlation_id_retirement_record_t r{};
  r.size = sizeof(r);
  r.kind = ROCPROFILER_BUFFER_TRACING_CORRELATION_ID_RETIREMENT;
  r.timestamp = ns;
  r.internal_correlation_id = correlation_id;
  while (mask != 0) {
    const int i = __builtin_ctzll(mask);
    mask &= mask - 1;
    WriteRecord(g_contexts[i]
                    .buffer_services
                        [ROCPROFILER_BUFFER_TRACING_CORRELATION_ID_RETIREMENT]
                    .buffer,
                &r, sizeof(r));
  }
}

uint64_t ThreadSerial() noexcept {
  static std::atomic<uint64_t> last{0};
  thread_local uint64_t serial = 0;
  if (serial == 0) serial = last.fetch_add(1, std::memory_order_relaxed) + 1;
  return serial;
}

CallRefs* HoldCall(ThreadState& t, uint64_t correlation_id,
                   bool hold) noexcept {
  if (correlation_id == 0) return nullptr;
  const uint32_t depth = t.depth < kMaxCallDepth ? t.depth : kMaxCallDepth;
  Frame* frame = nullptr;
  for (uint32_t i = depth; i-- > 0;) {
    if (t.frames[i].correlation_id == correlation_id) {
      frame = &t.frames[i];
      break;
    }
  }
  if (frame == nullptr) {
    // Work submitted by a call on the interception layer's record path (no
    // ENTER reached the SDK, so it has no frame yet, e.g. a context that
    // traces GPU work started while the call ran): the call gets its bare
    // frame now, so that it is marked seen and its retirement waits for the
    // work's record (RecordBufferedCall ends the frame).
    if (correlation_id != roctracer::hook::CurrentRecordCallId()) {
      return nullptr;
    }
    PushRecordPathFrame(t, correlation_id);
    if (t.depth == 0 || t.depth > kMaxCallDepth ||
        t.frames[t.depth - 1].correlation_id != correlation_id) {
      return nullptr;
    }
    frame = &t.frames[t.depth - 1];
  }
  frame->seen = true;
  if (!hold || RetirementContexts() == 0) return nullptr;
  if (frame->refs == nullptr) {
    auto* refs = static_cast<CallRefs*>(std::malloc(sizeof(CallRefs)));
    if (refs == nullptr) return nullptr;
    new (&refs->refs) std::atomic<uint32_t>(1);  // the frame's
    new (&refs->foreign) std::atomic<uint8_t>(0);
    refs->correlation_id = correlation_id;
    refs->owner = ThreadSerial();
    refs->retired_ns = 0;
    refs->contexts = 0;
    refs->next = nullptr;
    frame->refs = refs;
  }
  frame->refs->refs.fetch_add(1, std::memory_order_relaxed);
  return frame->refs;
}

namespace {

// Retirements waiting for a flush, newest first.
std::atomic<CallRefs*> g_deferred{nullptr};
// Non-zero while the retirement thread waits for the list to fill: a writer
// that lists an entry then wakes it (a Dekker pair with the list's head, so
// no wake-up is lost and busy writers take no lock).
std::atomic<uint32_t> g_sleeping{0};
std::atomic<bool> g_thread_started{false};

// Never destroyed: the retirement thread may wait on them during exit.
struct Wake {
  std::mutex mutex;
  std::condition_variable cv;
};
Wake& TheWake() {
  static Wake* wake = new Wake;
  return *wake;
}

// A batch of deferred retirements is written once per this interval at
// most: each batch costs a flush of the buffers it goes to.
constexpr std::chrono::milliseconds kBatchInterval{1};

void Defer(CallRefs* refs) noexcept {
  CallRefs* head = g_deferred.load(std::memory_order_relaxed);
  do {
    refs->next = head;
  } while (!g_deferred.compare_exchange_weak(
      head, refs, std::memory_order_seq_cst, std::memory_order_relaxed));
  if (g_sleeping.load(std::memory_order_seq_cst) != 0) {
    Wake& w = TheWake();
    std::lock_guard<std::mutex> lock(w.mutex);
    w.cv.notify_one();
  }
}

void RetirementThreadMain() {
  Wake& w = TheWake();
  for (;;) {
    {
      std::unique_lock<std::mutex> lock(w.mutex);
      g_sleeping.store(1, std::memory_order_seq_cst);
      while (g_deferred.load(std::memory_order_seq_cst) == nullptr) {
        w.cv.wait(lock);
      }
      g_sleeping.store(0, std::memory_order_relaxed);
    }
    std::this_thread::sleep_for(kBatchInterval);
    WriteDeferredRetirements();
  }
}

// One writer of deferred retirements at a time (WriteDeferredRetirements).
// Made on first use (constant-initialized: a flush may come from a tool's
// initialize during the library's load-time scan).
std::atomic<std::mutex*> g_writing{nullptr};
std::mutex& WritingLock() noexcept {
  std::mutex* m = g_writing.load(std::memory_order_acquire);
  if (m != nullptr) return *m;
  auto* fresh = new std::mutex;
  if (g_writing.compare_exchange_strong(m, fresh, std::memory_order_acq_rel)) {
    return *fresh;
  }
  delete fresh;
  return *m;
}

// The child of a fork has no retirement thread: its deferred retirements
// are written by its flushes. It never waits for that thread's locks: no
// wake-ups, and a fresh writers' lock (the parent's thread may have held
// the old one at the fork). The retirements listed at the fork are the
// parent's to write, as their IDs' records are the parent's to deliver (a
// child's buffers start empty): the child drops them.
void ForgetRetirementThreadInChild() {
  g_sleeping.store(0, std::memory_order_relaxed);
  g_writing.store(new std::mutex, std::memory_order_release);
  CallRefs* listed = g_deferred.exchange(nullptr, std::memory_order_relaxed);
  while (listed != nullptr) {
    CallRefs* next = listed->next;
    std::free(listed);
    listed = next;
  }
}

}  // namespace

void ReleaseCall(CallRefs* refs) noexcept {
  if (refs->refs.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
  const uint64_t contexts = RetirementContexts();
  if (contexts == 0) {
    std::free(refs);
    return;
  }
  const uint64_t now = roctracer::clock::TimestampNs();
  if (refs->foreign.load(std::memory_order_relaxed) == 0 &&
      refs->owner == ThreadSerial()) {
    // Every record of the ID is this thread's, written before.
    Retire(refs->correlation_id, now, contexts);
    std::free(refs);
    return;
  }
  refs->retired_ns = now;
  refs->contexts = contexts;
  Defer(refs);
}

bool WriteDeferredRetirements() noexcept {
  // One writer at a time: a flush that finds the list empty because the
  // retirement thread took it waits here until those are written, so that
  // it delivers them.
  std::lock_guard<std::mutex> lock(WritingLock());
  // Listed before this point: every record of these IDs was written before
  // (the last reference dropped after them), so the flush below delivers them.
  CallRefs* newest = g_deferred.exchange(nullptr, std::memory_order_seq_cst);
  if (newest == nullptr) return false;
  uint64_t contexts = 0;
  CallRefs* oldest = nullptr;
  while (newest != nullptr) {
    CallRefs* next = newest->next;
    contexts |= newest->contexts;
    newest->next = oldest;
    oldest = newest;
    newest = next;
  }
  uint64_t flushed = 0;  // bit b: buffer b
  while (contexts != 0) {
    const int i = __builtin_ctzll(contexts);
    contexts &= contexts - 1;
    const int buffer =
        g_contexts[i]
            .buffer_services
                [ROCPROFILER_BUFFER_TRACING_CORRELATION_ID_RETIREMENT]
            .buffer;
    if (buffer < 0 || buffer >= kMaxBuffers || ((flushed >> buffer) & 1u)) {
      continue;
    }
    flushed |= uint64_t{1} << buffer;
    FlushBufferAndWait(buffer);
  }
  while (oldest != nullptr) {
    CallRefs* next = oldest->next;
    Retire(oldest->correlation_id, oldest->retired_ns, oldest->contexts);
    std::free(oldest);
    oldest = next;
  }
  return true;
}

void StartRetirementThread() noexcept {
  if (g_thread_started.exchange(true, std::memory_order_acq_rel)) return;
  static const bool fork_handler =
      pthread_atfork(nullptr, nullptr, &ForgetRetirementThreadInChild) == 0;
  (void)fork_handler;
  TheWake();
  NotifyInternalThread(ThreadCreation::kBefore);
  try {
    std::thread(&RetirementThreadMain).detach();
  } catch (...) {
    // Without it, deferred retirements wait for the next flush.
  }
  NotifyInternalThread(ThreadCreation::kAfter);
}

}  // namespace rocprofiler_sdk
