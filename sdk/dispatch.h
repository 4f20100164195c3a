// The traced-call path: the ApiConsumerFn the SDK installs in the
// interception layer (runtime/intercept/api_consumer.h).
#ifndef ROCPROFILER_SDK_IMPL_DISPATCH_H_
#define ROCPROFILER_SDK_IMPL_DISPATCH_H_

#include <cstdint>

#include "rocprofiler-sdk/external_correlation.h"
#include "rocprofiler-sdk/fwd.h"
#include "runtime/intercept/api_consumer.h"
#include "runtime/platform/asymmetric_fence.h"
#include "sdk/context.h"
#include "sdk/thread_state.h"

namespace rocprofiler_sdk {

// One delivery to context `i` from thread block `t`, bracketed so that
// stopping or finalizing the context waits for it (WaitForDeliveries). The
// context may be called when it is active, or, for a `captured` delivery (the
// completion of GPU work the context captured when it was submitted, which
// rocprofiler-sdk delivers even after a stop), when it has not been
// invalidated. Published before the flag is read: either the read sees the
// stop, or the stopping thread sees this delivery and waits for it.
// `outer` is what `delivering` held before: a delivery nested in a callback
// (a rocTX annotation the callback made) hands the outer one back its mark.
inline bool BeginDelivery(ThreadState& t, int i, bool captured,
                          uint32_t outer = 0) noexcept {
  roctracer::platform::PublishBusy(&t.delivering, static_cast<uint32_t>(i) + 1);
  const bool ok =
      captured ? !g_contexts[i].invalid.load(std::memory_order_seq_cst)
               : (g_active_mask.load(std::memory_order_seq_cst) >> i) & 1u;
  if (!ok) t.delivering.store(outer, std::memory_order_release);
  return ok;
}
inline void EndDelivery(ThreadState& t, uint32_t outer = 0) noexcept {
  t.delivering.store(outer, std::memory_order_release);
}

// Calls the `record.kind` callback of each context of `mask`, each in its own
// delivery (BeginDelivery; a context stopped meanwhile is skipped), with
// the record's context ID and external correlation ID set for that context:
// `external[i]`, or the top of the thread's stack for context i when
// `external` is null. `user` holds one slot per context, kept from a call's
// ENTER to its EXIT; null gives each callback a slot of its own holding 0.
// At ENTER a context's slot is zeroed and its bit set in `*called` (when
// given): the contexts owed the EXIT. For the kinds made here rather than on
// the traced-call path (marker ranges, HIP streams, memory allocation,
// runtime initialization).
void DeliverCallbacks(ThreadState& t, uint64_t mask,
                      rocprofiler_callback_tracing_record_t& record,
                      rocprofiler_user_data_t* user,
                      const rocprofiler_user_data_t* external,
                      uint64_t* called) noexcept;

// The external-correlation request service: each context of `mask` that
// configured it for `kind` and has no external correlation ID pushed on
// this thread is asked for one, before the call's first callback. A
// context's answer is stored in `answers[i]` when its callback returns 0;
// returns the contexts that answered so.
uint64_t RequestExternalIds(
    ThreadState& t, uint64_t mask,
    rocprofiler_external_correlation_id_request_kind_t kind, int32_t operation,
    uint64_t correlation_id, rocprofiler_thread_id_t thread_id,
    rocprofiler_user_data_t* answers) noexcept;

// Calls the callbacks of every active context tracing the call's (kind,
// operation) and writes the buffer records of those buffer-tracing it. ENTER
// and EXIT of one call share a per-thread frame holding one user_data slot
// per context; a context gets EXIT only if it got ENTER and is still active.
// No lock, no allocation.
void ConsumeAny(const roctracer::ApiCallInfo& info) noexcept;
// The same, with the calls that are only buffer-traced (no callback, no EXT
// record, no external-ID request, no memory call) taken first on a shorter
// path; any other call goes on to ConsumeAny. Either may see the other's
// frames (the installed one changes as contexts start and stop,
// interest.cc).
void ConsumeBufferedFirst(const roctracer::ApiCallInfo& info) noexcept;
// ConsumeBufferedFirst once rocTX pushes and pops (starts and stops) are
// watched for good (marker_ranges.h's g_pairs_watched): the rocTX calls go
// to ConsumeAny, whose derived kinds keep the thread's ranges, on a cold
// branch; HIP and HSA calls keep the short path.
void ConsumeBufferedFirstKeepingRanges(
    const roctracer::ApiCallInfo& info) noexcept;
// The record consumer (api_consumer.h's ApiRecordFn), installed while every
// started context only buffer-traces API kinds (and correlation-ID
// retirement: interest.cc): a call the interception layer kept on its own
// record path, recorded once at its EXIT in each buffer-tracing context
// active when it began, with the same record, ancestor, external ID and
// retirement as the two-phase path gives it; no frame on the SDK's stack.
void RecordBufferedCall(const roctracer::ApiCallInfo& info, uint64_t begin_ns,
                        uint64_t end_ns, uint64_t enclosing_id) noexcept;

// Returns once no other thread is inside a callback of `context` (an index
// into g_contexts) that started before its active bit was cleared. Not
// waited for: the calling thread's own callback (stopping a context from its
// own callback), and callbacks of threads that are themselves inside stop or
// finalize (a StopScope): they cannot return before that does, and waiting
// for them deadlocks when two callbacks stop at once. Must be called without
// ConfigMutex held: a callback in flight may itself take it.
void WaitForDeliveries(int context) noexcept;

// Marks the calling thread as stopping for the scope's life; covers waits
// for locks too (a thread blocked on the registration lock in its callback
// cannot finish that callback either). Not on the traced-call path.
class StopScope {
 public:
  StopScope() noexcept;
  ~StopScope();
  StopScope(const StopScope&) = delete;
  StopScope& operator=(const StopScope&) = delete;

 private:
  ThreadState* state_;
};

// Calls skipped because they nested deeper than kMaxCallDepth.
uint64_t SkippedCalls() noexcept;

}  // namespace rocprofiler_sdk

#endif  // ROCPROFILER_SDK_IMPL_DISPATCH_H_
