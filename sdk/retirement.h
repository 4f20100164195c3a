// CORRELATION_ID_RETIREMENT: one buffer record per correlation ID, written
// once the ID can appear in no further record of any kind: after the EXIT of
// its call (and the records written there) and after the records of every
// GPU operation the call submitted (their completion or abandonment).
//
// Which IDs: those of calls the SDK saw (a frame on the thread's stack,
// sdk/thread_state.h) whose ID reached some context: its own callbacks or
// buffer records, a memory allocation or GPU work it submitted. A call with
// outstanding GPU work holds a CallRefs: one reference for the frame, one per
// operation; whoever drops the last retires the ID. No lock: one atomic
// decrement per operation, one allocation per call that submitted GPU work
// while a context records retirements.
//
// Order: a buffer delivers each thread's records in the order that thread
// wrote them, but not across threads; only a flush delivers every record
// written before it, whatever thread wrote it. So:
//  - when every buffer record of the ID was written on the call's own thread
//    and the last reference drops there, that thread writes the retirement
//    at once, after them;
//  - otherwise (a GPU operation's record written on the thread that saw it
//    complete, or the last reference dropped on another thread) the
//    retirement is deferred: put on one lock-free list, whose entries are
//    written only after a flush of their buffers that began after they were
//    listed. The retirement thread (started when a context first configures
//    the kind) does that in batches; a flush that waits
//    (rocprofiler_flush_buffer, a client's finalize) does it first for what
//    was listed before it began, then flushes.
#ifndef ROCPROFILER_SDK_IMPL_RETIREMENT_H_
#define ROCPROFILER_SDK_IMPL_RETIREMENT_H_

#include <atomic>
#include <cstdint>

#include "runtime/clock/clock.h"
#include "sdk/context.h"
#include "sdk/thread_state.h"

namespace rocprofiler_sdk {

struct CallRefs {
  std::atomic<uint32_t> refs;
  uint64_t correlation_id;
  // The call's thread (ThreadSerial): not its SDK block, which the next
  // thread to start takes over once this one exits.
  uint64_t owner;
  // Non-zero once a buffer record of the ID was written on a thread other
  // than `owner` (set before that thread drops its reference).
  std::atomic<uint8_t> foreign;
  uint64_t retired_ns;  // when the last reference dropped, if deferred
  uint64_t contexts;    // the contexts recording retirements then
  CallRefs* next;       // in the deferred list
};

// Active contexts that buffer-trace CORRELATION_ID_RETIREMENT.
inline uint64_t RetirementContexts() noexcept {
  return g_active_mask.load(std::memory_order_acquire) &
         g_buffer_kind_mask
             [ROCPROFILER_BUFFER_TRACING_CORRELATION_ID_RETIREMENT]
                 .load(std::memory_order_acquire);
}

// Writes the retirement record of `correlation_id`, retired at `ns`, to the
// buffers of `contexts` (a mask of RetirementContexts() taken then: a
// context stopped since still gets the IDs it saw retire).
void Retire(uint64_t correlation_id, uint64_t ns, uint64_t contexts) noexcept;

// Writes the deferred retirements listed before this call, after a waited
// flush of their buffers; true when there were any (their buffers then hold
// the retirements, not yet delivered). Only on a thread that may wait for
// deliveries (MayWaitForDelivery(), buffers.h).
bool WriteDeferredRetirements() noexcept;

// Starts the thread that writes deferred retirements (once per process).
void StartRetirementThread() noexcept;

// The calling thread's number, never another thread's (a thread's SDK block
// is recycled when it exits, so its address names a later thread too).
uint64_t ThreadSerial() noexcept;

// A buffer record of the call `refs` holds was written on the calling
// thread: its retirement must wait for a flush unless that is the call's.
inline void NoteRecordWrittenHere(CallRefs* refs) noexcept {
  if (ThreadSerial() != refs->owner) {
    refs->foreign.store(1, std::memory_order_relaxed);
  }
}

// Drops one reference; the last one retires the ID and frees `refs`.
void ReleaseCall(CallRefs* refs) noexcept;

// At the EXIT of `frame`'s call (or when its frames are dropped): retires
// its ID now, or drops the frame's reference when GPU work is outstanding.
inline void FinishFrame(Frame& frame) noexcept {
  CallRefs* refs = frame.refs;
  if (refs == nullptr && (frame.called | frame.buffered | frame.buffered_ext |
                          static_cast<uint64_t>(frame.seen)) == 0) {
    return;
  }
  frame.refs = nullptr;
  if (refs != nullptr) {
    ReleaseCall(refs);
  } else if (const uint64_t contexts = RetirementContexts()) {
    Retire(frame.correlation_id, roctracer::clock::TimestampNs(), contexts);
  }
}

// GPU work submitted on this thread under the call `correlation_id`: marks
// its frame as seen and, when `hold` and a context records retirements,
// returns a reference the operation drops (ReleaseCall) once its records
// are written. NULL when the call has no frame here (the SDK did not see
// it: no retirement) or nothing needs holding.
CallRefs* HoldCall(ThreadState& t, uint64_t correlation_id, bool hold) noexcept;

}  // namespace rocprofiler_sdk

#endif  // ROCPROFILER_SDK_IMPL_RETIREMENT_H_
