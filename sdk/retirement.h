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
// wrote them, but not across threads. The call's own records are written by
// its thread (its EXIT), its GPU operations' by the thread that saw them
// complete. So a retirement is written by the call's thread: at once when the
// last reference drops there; else the retiring thread hands the CallRefs to
// the call's thread (ThreadState::retired), which writes it, with the time it
// was retired, at its next traced call, after its own records. A thread that
// makes no further call leaves them to the next flush of the buffers
// (rocprofiler_flush_buffer, a client's finalize): once the buffers have
// been delivered, the flushing thread writes them and flushes again.
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
  ThreadState* owner;   // the call's thread
  uint64_t retired_ns;  // when retired on another thread
  uint64_t contexts;    // the contexts recording retirements then
  CallRefs* next;       // in owner->retired
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

// Writes the retirements other threads handed to `t` (its thread's calls).
void WriteRetiredBy(ThreadState& t) noexcept;
inline void WriteRetiredByOthers(ThreadState& t) noexcept {
  if (__builtin_expect(t.retired.load(std::memory_order_relaxed) != nullptr,
                       0)) {
    WriteRetiredBy(t);
  }
}

// After the buffers were flushed (waited for): writes every thread's handed
// retirements; true when it wrote any (the buffers then need another flush).
bool WriteAllRetired() noexcept;

// Drops one reference; the last one retires the ID and frees `refs`.
void ReleaseCall(CallRefs* refs) noexcept;

// At the EXIT of `frame`'s call (or when its frames are dropped): retires
// its ID now, or drops the frame's reference when GPU work is outstanding.
inline void FinishFrame(Frame& frame) noexcept {
  CallRefs* refs = frame.refs;
  if (refs == nullptr && (frame.called | frame.buffered |
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
