// Where traced operations wait for their completion and get reported: the
// intercepted queues' rings and the copies' ring, the tracer's completion
// thread, and the harvests that flushes, pool closes, queue and executable
// destruction, runtime shutdown and process exit run synchronously so that
// completed work is never left behind.
//
// The completion thread reports dispatches and barriers in batches: the
// runtime completes their application signals itself (a barrier packet
// after each), so nothing waits for the report; it looks every millisecond
// while anything is in flight, and an API that needs the records now
// harvests them itself. A copy's application signal is completed by
// whoever reports the copy (the runtime cannot be asked to: ROCR does
// nothing for a chained empty copy): a thread that waits on that signal
// (AwaitCopyOf), else the completion thread. While copies are collected by
// their waiters, the thread leaves them to those, looking once a
// millisecond for copies nobody collected and watching those other work
// depends on (NoteDependencies); once it found one nobody collected, it
// watches every copy promptly for a while, the signals of the copy ring's
// next free slots included, so that the copies submitted there wake it
// through the runtime when they complete rather than through a wake-up on
// the submitting thread.
#ifndef RUNTIME_GPU_COMPLETION_H_
#define RUNTIME_GPU_COMPLETION_H_

#include <hsa/hsa.h>

#include <atomic>
#include <cstdint>
#include <mutex>

#include "runtime/gpu/op_ring.h"
#include "runtime/private/gpu_events.h"

namespace roctracer::gpu {

// One intercepted queue (the interceptor's `data`).
struct QueueState {
  QueueState(hsa_queue_t* q, const QueueInfo& queue_info, uint32_t capacity)
      : queue(q), info(queue_info), ring(capacity) {}
  hsa_queue_t* queue;
  QueueInfo info;
  OpRing ring;
  std::mutex harvest_mutex;
  // Packets the runtime has handed to the interceptor, in queue order: the
  // queue index of the next one it will hand over.
  std::atomic<uint64_t> packets_seen{0};
  // Harvesters using this state without the registry's mutex (they report,
  // which runs tools' callbacks that may create, destroy or submit to
  // queues): counted under that mutex, and a state retired meanwhile is
  // deleted by the last of them (RetireQueue never waits for them).
  uint32_t holds = 0;
  // Retired while held: no harvester looks at it any more.
  std::atomic<bool> retired{false};
  // Retired by the runtime's shutdown while held: its slots' signals belong
  // to a runtime that is gone, never to be given out again (under the
  // registry's mutex).
  bool runtime_gone = false;
  // Set (under harvest_mutex) by the thread destroying the queue before it
  // calls the runtime's destroy: the runtime's `queue` may be freed, so
  // drains on other threads (a callback's destroy goes on without the drain
  // mutex) read it only under that mutex and only while this is false.
  bool gone = false;
  // Set (under the registry's mutex) by the one call that takes on the
  // queue's destruction, now or deferred: a second destruction is refused
  // (HSA_STATUS_ERROR_INVALID_QUEUE), and the final harvest of shutdown or
  // exit leaves the queue to that call (which counts what it never ran).
  std::atomic<bool> destroying{false};
  // Set (under the registry's mutex) once the runtime destroyed the queue:
  // the state lingers, registered, until the destruction's reports end, but
  // the runtime may give `queue`'s address to a new queue meanwhile, which
  // lookups of other threads or other reports must not take for this one.
  bool runtime_destroyed = false;
  // The queue index below which the final harvest of shutdown or exit
  // counted the packets never intercepted as never completed (under
  // harvest_mutex): a destruction of the queue that a later report of that
  // harvest runs does not count them again.
  uint64_t counted_until = 0;
};

// An AQL packet header's type.
inline uint8_t PacketType(uint16_t header) {
  return static_cast<uint8_t>((header >> HSA_PACKET_HEADER_TYPE) &
                              ((1u << HSA_PACKET_HEADER_WIDTH_TYPE) - 1));
}

// A dispatch or a barrier (the packet types traced as operations): its kind.
inline bool TracedPacketKind(uint8_t type, OpKind* kind) {
  if (type == HSA_PACKET_TYPE_KERNEL_DISPATCH) {
    *kind = OpKind::kDispatch;
    return true;
  }
  if (type == HSA_PACKET_TYPE_BARRIER_AND ||
      type == HSA_PACKET_TYPE_BARRIER_OR) {
    *kind = OpKind::kBarrier;
    return true;
  }
  return false;
}

// Async copies: one ring, producers serialised by `submit_mutex`.
struct CopyTrack {
  explicit CopyTrack(uint32_t capacity) : ring(capacity) {}
  std::mutex submit_mutex;
  OpRing ring;
  std::mutex harvest_mutex;
  // The ring positions below this one are watched by the completion
  // thread's current (or next) wait, free slots' signals included, so that a
  // copy published there wakes it when it completes without the submitting
  // thread waking it (0: nothing watched ahead). A submitter publishes, then
  // reads this; the thread stores it, then looks at what was published (each
  // a seq_cst operation: one of the two sees the other's store).
  std::atomic<uint64_t> watched_until{0};
  // Set (then the thread kicked) when work depending on some copy could not
  // mark it: the completion thread then watches every copy promptly for a
  // few looks.
  std::atomic<bool> watch_all{false};
  // The ring position (+ 1; 0: none) of the newest copy published with an
  // application signal, by a hash of the signal's handle, stored by the
  // submitter before it publishes: a wait or a dependency finds a copy older
  // than the newest ones it scans (unless a copy of another signal took the
  // entry since).
  static constexpr size_t kNewestBySignal = 1024;  // a power of two
  // Some copy older than the newest ones scanned is depended on (under
  // harvest_mutex): the completion thread looks at every copy in flight.
  bool older_depended = false;
  // Copies in flight whose tracer signals were given to barrier packets as
  // dependencies (LendCopySignals), not reported yet: while any is, an
  // intercepted wait reports the copies done before it returns
  // (ReportCopiesAfterWait).
  std::atomic<uint32_t> unreported_lenders{0};
  // Set while the holder of harvest_mutex runs a copy's observers (a tool's
  // callback, which may wait for anything): work being submitted then does
  // not wait for the mutex to lend it a copy's signal (LockToLend).
  std::atomic<bool> calling_observers{false};
  std::atomic<uint64_t> newest_by_signal[kNewestBySignal] = {};
  static size_t EntryOf(hsa_signal_t signal) {
    return ((signal.handle >> 4) ^ (signal.handle >> 14)) &
           (kNewestBySignal - 1);
  }
};
CopyTrack& Copies();

// What a copy's tracer signal is set to when the runtime refused the copy
// (published already): no runtime stores it; the harvester abandons the copy.
constexpr hsa_signal_value_t kRefusedCopy = INT64_MIN;

void RegisterQueue(QueueState* state);
// hsa_queue_destroy of a traced queue: waits (at most the drain timeout)
// until every packet the application published has been intercepted and
// has completed, reporting each, with no lock held that the submission path
// needs; unregisters the queue; destroys it through `destroy` (the
// runtime's); then reports what completed meanwhile and counts the rest as
// never completed (OnAbandon, GpuStats::incomplete). An untraced queue is
// only destroyed. Returns what `destroy` returned.
// From a completion's observer (a tool's callback) that reports a copy, or
// that reports an operation of `queue` itself, the destruction is deferred
// (returning HSA_STATUS_SUCCESS for a traced queue): that thread holds the
// copy ring's harvest mutex, which ranks after every queue's, or `queue`'s
// own. The queue is inactivated at once (the runtime runs none of its
// packets not started yet: the application, told it is destroyed, may free
// their kernel arguments and signals); the completion thread (or the final
// harvest of shutdown and exit, or shutdown itself) then destroys it as
// above once the report is over, without waiting: what it never ran is
// counted as never completed. A queue whose destruction is already deferred
// or under way returns HSA_STATUS_ERROR_INVALID_QUEUE: its state stays
// registered until that destruction reported what its queue completed, and a
// queue reported on this thread that has no state any more is one destroyed
// already (never passed to the runtime again).
hsa_status_t DrainAndDestroyQueue(hsa_queue_t* queue,
                                  hsa_status_t (*destroy)(hsa_queue_t*));
void RetireQueue(QueueState* state);
// The registered state of `queue`, or NULL (takes the registry mutex).
bool IsTracedQueue(const hsa_queue_t* queue);
// The registered queue that is `queue` or shows its id (an intercept queue
// shows the id of the queue below it, which the runtime may name instead).
bool FindQueueInfo(const hsa_queue_t* queue, QueueInfo* info);

// A tracer signal for a ring slot (from those given back, else a new one).
bool EnsureSignal(PendingOp* op);

enum class HarvestReason {
  kCompletionThread,
  kRingFull,
  kFlush,
  kExecutableDestroy,
  kShutdown,
  kExit
};
// Reports every completed operation of every queue and copy. kShutdown and
// kExit first wait (at most the drain timeout, without holding a lock the
// submission path needs) for what is in flight, packets the application
// published and the runtime has not yet intercepted included, and count
// what never completed.
void HarvestAll(HarvestReason reason);
// One queue, on its submitting thread: when its ring runs full (skipped if
// another thread is harvesting it), and when it is full (waits for that
// thread; reports every completed op, not only the oldest).
void HarvestQueueIfFree(QueueState* state);
// (Not from a tool's dispatch callback, whose thread may hold that queue's
// harvest mutex: then it returns at once.)
void HarvestQueueNow(QueueState* state);

// The copy ring is full: reports what completed and, if that freed nothing,
// waits (at most 10 ms) for the oldest copy. The caller holds submit_mutex.
// True while this thread runs a dispatch's or copy's observers (a tool's
// callback), holding harvest mutexes: work it submits is passed on untraced
// rather than waiting for room, which would take those mutexes again.
bool ReportingOnThisThread();
void MakeRoomForCopy();

// A thread is about to wait on `app_signal` for `condition` against
// `compare_value`. While that is not met and the signal is the application
// signal of traced copies in flight, waits (at most `timeout_ticks`, in the
// runtime's system timestamp ticks) for the oldest such copy's tracer
// signal, as the application would have waited for its own without the
// tracer, and then reports the completed copies on this thread, completing
// their application signals: the wait does not also wait for the completion
// thread to wake up, and a condition the first of several copies of one
// signal meets is not held up by the others. Returns the ticks of
// `timeout_ticks` left (all of them when the signal is no traced copy's).
uint64_t AwaitCopyOf(hsa_signal_t app_signal, hsa_signal_condition_t condition,
                     hsa_signal_value_t compare_value, uint64_t timeout_ticks,
                     hsa_wait_state_t state);

// Whether this thread waited (with a timeout above zero) on the copy it
// submitted last, found in flight by AwaitCopyOf, since it submitted it;
// false from now on until it waits again. Taken at each copy's submission
// (PendingOp::submitter_waits), which is at ring `position`: the copy a
// later wait must be on.
bool WaitedSinceLastCopy(uint64_t position);

// `app_signal` is about to be destroyed: the traced copies in flight with it
// complete no application signal when reported (its handle may be another
// signal's by then).
void ForgetCopiesOf(hsa_signal_t app_signal);

// Work about to be submitted waits for `signals` (a barrier packet's or a
// copy's dependencies; 0 handles are skipped): a traced copy in flight whose
// application signal is among them is one nobody may wait on through the
// intercepted waits, so the completion thread is told to watch it promptly.
// Nothing to do (one load) while no copy is in flight.
void NoteDependencies(const hsa_signal_t* signals, uint32_t count);
// The dependencies `signals` of the traced copy published at ring
// `position`, about to be given to the runtime: each that is the
// application signal of one traced copy in flight (older, accepted by the
// runtime, the only one in flight with that signal, which is at 1: that
// copy's report takes it to 0)
// is replaced in `out` (room for `count`) by that copy's tracer signal,
// which the runtime itself takes to 0 when the copy is done. So the
// dependent copy starts when the copy it waits for is done, not once a
// thread has reported it (on a GPU as on softhsa, a host round trip per
// chained copy: HIP chains a stream's copies so when it does not wait on
// each). The lender's slot keeps its signal for the dependent until that is
// reported. Returns whether any was replaced (else `out` is not to be
// used); the harvest mutex is waited for, but not while its holder runs a
// copy's observers, nor beyond a bound: nothing is replaced then.
bool SubstituteCopyDependencies(const hsa_signal_t* signals, uint32_t count,
                                uint64_t position, hsa_signal_t* out);
// The same for a barrier packet about to be given to the runtime (traced,
// or followed only for its loans: PendingOp::loans_only):
// `out` gets its `count` dependencies with each such application signal
// replaced by its copy's tracer signal, `borrowed` (room for `count`) the
// tracer signals given (else 0), counted as lent until the barrier's
// completion, or the destruction of its queue, gives them back (a copy slot
// reused meanwhile takes another signal).
// Returns whether any was replaced.
bool LendCopySignals(const hsa_signal_t* signals, uint32_t count,
                     hsa_signal_t* out, hsa_signal_t* borrowed);
// Whether a barrier packet waiting for `signals` may be given a copy's
// tracer signal (LendCopySignals): a traced copy is in flight and one of
// them is not 0. One load while no copy is in flight.
bool MayBorrowCopySignals(const hsa_signal_t* signals, uint32_t count);
// After an intercepted wait on any signal returned: while a copy whose
// tracer signal a barrier packet was given is not reported, reports the
// copies done on the calling thread, so that the wait that saw such a
// barrier's completion signal move also sees the application signals of the
// copies it depended on moved (as without the tracer: the barrier ran after
// them).
void ReportCopiesAfterWait();
// Work about to be submitted waits for signals the tracer cannot name (a
// signal group the runtime created before the tracer was loaded): every
// traced copy in flight may be one of them, so each is watched promptly, as
// NoteDependencies watches a copy it finds. One load while no copy is in
// flight.
void NoteUnknownDependencies();

// Starts the completion thread if it is not running.
void EnsureCompletionThread();
// Wakes it: a copy was published at a ring position it does not watch
// (CopyTrack::watched_until: it sleeps its long idle sleep, or copies came
// faster than it looked ahead), or a waiter gave up a copy it had left to
// that waiter.
void KickCompletionThread();

// hsa_shut_down (OnUnload): stop the thread, report and forget everything,
// destroy the tracer's signals.
void ShutDown();

}  // namespace roctracer::gpu

#endif  // RUNTIME_GPU_COMPLETION_H_
