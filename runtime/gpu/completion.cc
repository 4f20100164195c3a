#include "runtime/gpu/completion.h"

#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <new>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "runtime/activity/correlation.h"
#include "runtime/clock/clock.h"
#include "runtime/gpu/code_objects.h"
#include "runtime/gpu/gpu_clock.h"
#include "runtime/gpu/observers.h"
#include "runtime/gpu/runtime_table.h"
#include "runtime/platform/cpu_relax.h"
#include "runtime/platform/hot_tls.h"
#include "runtime/pool/futex.h"

namespace roctracer::gpu {

using activity::NextCorrelationId;

namespace {

// How long a destroyed queue, a shutdown or an exit waits for work in flight.
constexpr uint64_t kDrainTimeoutNs = 500'000'000;
// A drain's longest single wait before it looks again: the op it waits for
// may have been reported by another thread meanwhile, and the application's
// packets still to be intercepted become new ops.
constexpr uint64_t kDrainSliceNs = 10'000'000;
constexpr auto kDrainPoll = std::chrono::microseconds(100);
// The completion thread's look at busy queues and copies, its sleep when
// idle, and how long it keeps looking after the last operation completed (so
// that a program submitting now and then does not wake it every time).
constexpr uint64_t kBusyPollNs = 1'000'000;
constexpr uint64_t kIdlePollNs = 100'000'000;
constexpr uint64_t kLingerNs = 100'000'000;
// Forwarded copies waited on at once by the completion thread (the oldest
// positions of the ring).
constexpr uint64_t kCopiesWatched = 16;
// Tries of the harvest mutex before the completion thread blocks on it.
constexpr int kHarvestLockSpins = 500;
// Free slots of the copy ring the active completion thread also waits on:
// copies published there need no wake-up from their submitting thread. Their
// signals are made ready in batches of kCopySlotsEnsured.
constexpr uint64_t kCopySlotsAhead = 48;
constexpr uint64_t kCopySlotsEnsured = 256;
constexpr uint32_t kCopyRingCapacity = 8192;
// How long the completion thread watches copies promptly (the free slots
// ahead included) once it had to report a second copy within that time that
// nobody collected: one that completed and that no thread waited for
// through the two intercepted waits (AwaitCopyOf) though it was published
// two looks before, and that no other work was submitted to depend on.
// Otherwise it leaves copies to their waiters and looks once per
// kBusyPollNs.
constexpr uint64_t kPromptNs = 100'000'000;
// How long a copy waits for a slot before it goes untraced.
constexpr uint64_t kCopyRoomWaitNs = 10'000'000;
// A wait on a traced copy's application signal waits on the tracer's
// signal in slices of this, looking again in between: the completion
// thread may have reported the copy and its slot's signal started serving
// a newer copy meanwhile.
constexpr uint64_t kCopyWaitSliceNs = 1'000'000;
// How long work being submitted waits for the copy ring's harvest mutex
// to be given a copy's tracer signal (LockToLend), spinning first.
constexpr uint64_t kLendLockWaitNs = 10'000'000;
constexpr uint32_t kLendLockSpins = 200;
// How many of the newest copies in flight a wait looks among for its
// signal (the application waits on recent copies).
constexpr uint32_t kCopyWaitLookup = 64;
// Rounds of hsa_shut_down's stopping of the completion thread and running of
// deferred destructions (each may start the other again through a tool's
// callback) before it gives up.
constexpr int kShutDownRounds = 1000;

// Everything here is used by threads that may outlive static destruction
// (the completion thread, exit-time harvests): allocated once, never freed.
struct Registry {
  // The queue list and the signals given back. The submission path takes it
  // (EnsureSignal, on the thread the runtime intercepts packets on), so
  // nothing ever waits for the GPU while holding it.
  std::mutex mutex;
  std::vector<QueueState*> queues;
  std::vector<hsa_signal_t> free_signals;
  // Tracer signals of copy slots reused while work given the signal as a
  // dependency was still in flight (a later copy, a ring's worth of copies
  // submitted meanwhile; a barrier packet): back to `free_signals` once
  // that work is reported (ReturnLentSignalsLocked).
  struct LentSignal {
    hsa_signal_t signal;
    // The copy ring position + 1 of the newest copy depending on it (0:
    // none): it is given back once the ring has freed that position.
    uint64_t copy_until;
  };
  std::vector<LentSignal> lent_signals;
  // Copies' tracer signals given to barrier packets in flight as
  // dependencies (LendCopySignals), by handle: how many such barriers.
  // Under `loans_mutex`, taken last (under `mutex` too): a barrier's report
  // gives its loans back while the completion thread holds `mutex`.
  std::mutex loans_mutex;
  std::unordered_map<uint64_t, uint32_t> barrier_loans;
  // Held by whoever waits for queues' work or ends a queue's state (queue
  // destruction, shutdown, exit), so that drains of one queue do not
  // overlap. Neither the submission path nor the completion thread takes it:
  // waiting under it holds up neither. Recursive: a drain reports, and a
  // tool's callback may destroy another queue (the states a drain uses are
  // held, QueueState::holds, so one retired so stays allocated).
  std::recursive_mutex drain_mutex;
  // Queue destructions deferred by observers that hold a harvest mutex the
  // destruction needs (DrainAndDestroyQueue), under `mutex`; done by the
  // completion thread, or by the final harvest or shutdown, once those
  // reports are over. Each holds its state (QueueState::holds), so a state
  // is never freed, nor its address reused, while an entry names it.
  struct DeferredDestroy {
    QueueState* state;
    hsa_queue_t* queue;
    hsa_status_t (*destroy)(hsa_queue_t*);
    // The runtime processes none of its packets any more: the drain waits
    // for nothing.
    bool inactivated;
  };
  std::vector<DeferredDestroy> deferred_destroys;
  std::atomic<bool> any_deferred{false};  // deferred_destroys is not empty
};
Registry& Reg() {
  static Registry* registry = new Registry;
  return *registry;
}

struct CompletionThread {
  std::mutex mutex;  // start/stop
  std::thread* thread = nullptr;
  // Set once the thread runs: the copy path asks on every copy.
  std::atomic<bool> running{false};
  // The running thread's own stop flag (a thread started while an earlier
  // one is being stopped does not clear the earlier one's).
  std::atomic<bool>* stop = nullptr;
  hsa_signal_t kick{0};
  // The kick again, as a word of the tracer's own that the thread sleeps on
  // when it watches no signal but the kick (between its looks while copies
  // are left to their waiters, and when idle): a runtime's wait on a signal
  // may spin before it sleeps (softhsa 2000 pauses, ROCR up to 200 us),
  // which the thread would pay at every look.
  std::atomic<uint32_t> kick_word{0};
  std::atomic<uint32_t> word_sleepers{0};
};
CompletionThread& TheCompletionThread() {
  static CompletionThread* instance = new CompletionThread;
  return *instance;
}

// The runtime's system timestamp frequency, asked once per hsa_init (0: not
// yet; ShutDown forgets it): a wait on a copy's signal converts with it.
std::atomic<uint64_t> g_ticks_per_second{0};

uint64_t TicksPerSecond() {
  uint64_t frequency = g_ticks_per_second.load(std::memory_order_relaxed);
  if (frequency == 0) {
    Core().hsa_system_get_info_fn(HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY,
                                  &frequency);
    g_ticks_per_second.store(frequency, std::memory_order_relaxed);
  }
  return frequency;
}

uint64_t NsToTicks(uint64_t ns) {
  const uint64_t frequency = TicksPerSecond();
  if (frequency == 0) return ns;
  uint64_t product;
  if (!__builtin_mul_overflow(ns, frequency, &product)) {
    return product / 1'000'000'000u;
  }
  return static_cast<uint64_t>(static_cast<unsigned __int128>(ns) * frequency /
                               1'000'000'000u);
}

bool Done(const PendingOp& op) {
  return Core().hsa_signal_load_scacquire_fn(op.signal) < 1;
}

// Set while a dispatch's or barrier's observers run, under the queue's
// harvest mutex (never under the registry's): a tool's callback that
// flushes or finalizes must not harvest again on this thread.
ROCTRACER_HOT_TLS bool t_reporting_dispatch = false;

// Runs the observers of a dispatch or barrier with t_reporting_dispatch set.
// The previous value comes back after, so that a report nested in a
// callback's own runtime call does not clear the outer report's flag.
template <typename Call>
void WhileReportingDispatch(Call call) {
  const bool outer = t_reporting_dispatch;
  t_reporting_dispatch = true;
  call();
  t_reporting_dispatch = outer;
}

void ReportDispatch(const PendingOp& op, const QueueInfo& queue) {
  if (op.loans_only) return;  // followed for its loans alone
  hsa_amd_profiling_dispatch_time_t t{};
  Amd().hsa_amd_profiling_get_dispatch_time_fn(queue.agent, op.signal, &t);
  uint64_t begin = 0, end = 0;
  SystemTicksToNs(t.start, t.end, &begin, &end);
  if (op.kind == OpKind::kBarrier) {
    Count().barriers.fetch_add(1, std::memory_order_relaxed);
    const BarrierRecord r{
        op.op_id, op.correlation_id, queue, op.packet_type, begin, end};
    WhileReportingDispatch([&] {
      ForInterested(op.interest,
                    [&r](Observer* o, uint64_t c) { o->OnBarrier(r, c); });
    });
    return;
  }
  std::string name;
  const bool resolved = KernelName(op.kernel_object, &name);
  if (!resolved) {
    Count().names_unresolved.fetch_add(1, std::memory_order_relaxed);
    char text[48];
    std::snprintf(text, sizeof(text), "<unknown kernel 0x%" PRIx64 ">",
                  op.kernel_object);
    name = text;
  }
  Count().dispatches.fetch_add(1, std::memory_order_relaxed);
  DispatchRecord r{};
  r.op_id = op.op_id;
  r.correlation_id = op.correlation_id;
  r.queue = queue;
  r.kernel_object = op.kernel_object;
  r.kernel_name = name.c_str();
  r.name_resolved = resolved;
  std::memcpy(r.grid, op.grid, sizeof(r.grid));
  std::memcpy(r.workgroup, op.workgroup, sizeof(r.workgroup));
  r.private_segment_size = op.private_segment_size;
  r.group_segment_size = op.group_segment_size;
  r.begin_ns = begin;
  r.end_ns = end;
  WhileReportingDispatch([&] {
    ForInterested(op.interest,
                  [&r](Observer* o, uint64_t c) { o->OnDispatch(r, c); });
  });
}

}  // namespace

// Read on every copy's submission, wait and report: initial-exec
// thread-locals (hot_tls.h), one %fs-relative access each rather than a
// __tls_get_addr call, between a copy's completion and the next submission
// included.
//
// Set while a copy's observers run, under the copy ring's harvest mutex: a
// signal wait they make (a tool's callback) must not take that mutex again.
ROCTRACER_HOT_TLS bool t_reporting_copy = false;

namespace {

// Around a copy's observers, under the copy ring's harvest mutex (so one
// thread at a time stores CopyTrack::calling_observers).
class ReportingCopy {
 public:
  ReportingCopy() : outer_(t_reporting_copy) {
    t_reporting_copy = true;
    Copies().calling_observers.store(true, std::memory_order_release);
  }
  ~ReportingCopy() {
    if (!outer_) {
      Copies().calling_observers.store(false, std::memory_order_release);
    }
    t_reporting_copy = outer_;
  }
  ReportingCopy(const ReportingCopy&) = delete;
  ReportingCopy& operator=(const ReportingCopy&) = delete;

 private:
  const bool outer_;
};

}  // namespace

// Set when this thread waited (a timeout above zero) on the copy it
// submitted last while that copy was in flight (AwaitCopyOf), taken by its
// next copy's submission (WaitedSinceLastCopy). A wait on another thread's
// copy, or a zero-timeout poll, says nothing of how this thread's own copies
// are collected.
ROCTRACER_HOT_TLS bool t_waited_since_copy = false;
// The ring position of the copy this thread submitted last, plus one (0:
// none yet).
ROCTRACER_HOT_TLS uint64_t t_last_copy = 0;

namespace {

// The record first, then the application's signal: whoever sees the copy
// complete and flushes finds its record.
void RecordCopyAndSignal(PendingOp& op) {
  // A zero application signal: destroyed while the copy was in flight
  // (ForgetCopiesOf); its handle may belong to another signal by now.
  const bool has_app_signal = op.app_signal.handle != 0;
  const hsa_signal_value_t value =
      Core().hsa_signal_load_scacquire_fn(op.signal);
  if (value == kRefusedCopy) {
    // The runtime refused it (and told the caller): no operation.
    ReportingCopy reporting;
    AbandonInterest(op.interest);
    return;
  }
  if (value == 0) {
    hsa_amd_profiling_async_copy_time_t t{};
    Amd().hsa_amd_profiling_get_async_copy_time_fn(op.signal, &t);
    CopyRecord r{};
    r.op_id = op.op_id;
    r.correlation_id = op.correlation_id;
    r.src_agent = op.src_agent;
    r.dst_agent = op.dst_agent;
    r.device_id = op.device_id;
    r.bytes = op.bytes;
    r.direction = op.direction;
    SystemTicksToNs(t.start, t.end, &r.begin_ns, &r.end_ns);
    Count().copies.fetch_add(1, std::memory_order_relaxed);
    {
      ReportingCopy reporting;
      ForInterested(op.interest,
                    [&r](Observer* o, uint64_t c) { o->OnCopy(r, c); });
    }
    // What the runtime does on completion: the signal goes down by one.
    if (has_app_signal) {
      Core().hsa_signal_subtract_screlease_fn(op.app_signal, 1);
    }
  } else {
    // A failed copy: the runtime would have stored its error value.
    Count().failed_copies.fetch_add(1, std::memory_order_relaxed);
    {
      ReportingCopy reporting;
      AbandonInterest(op.interest);
    }
    if (has_app_signal) {
      Core().hsa_signal_store_screlease_fn(op.app_signal, value);
    }
  }
}

void ReportCopy(PendingOp& op) {
  RecordCopyAndSignal(op);
  // Its application signal moved: waits need not report it any more.
  if (op.lent_to_barriers) {
    Copies().unreported_lenders.fetch_sub(1, std::memory_order_release);
  }
}

// A reported barrier packet gives back the copies' tracer signals it was
// given as dependencies: a copy slot reused since may give them to other
// work again (ReturnLentSignalsLocked).
void ReturnBorrowed(PendingOp* op) {
  if (op->kind != OpKind::kBarrier) return;
  bool any = false;
  for (const hsa_signal_t& s : op->borrowed) any |= s.handle != 0;
  if (!any) return;
  Registry& r = Reg();
  std::lock_guard<std::mutex> lock(r.loans_mutex);
  for (hsa_signal_t& s : op->borrowed) {
    if (s.handle == 0) continue;
    auto it = r.barrier_loans.find(s.handle);
    if (it != r.barrier_loans.end() && --it->second == 0) {
      r.barrier_loans.erase(it);
    }
    s = hsa_signal_t{0};
  }
}

// The queues whose operations this thread reports now, holding their
// harvest mutexes (innermost first; a report's callback may destroy another
// queue, whose drain reports too): a callback destroying one of them defers
// it (DrainAndDestroyQueue).
struct ReportedQueue {
  const hsa_queue_t* queue;
  const ReportedQueue* outer;
};
ROCTRACER_HOT_TLS const ReportedQueue* t_reported_queues = nullptr;

bool ReportingQueueOnThisThread(const hsa_queue_t* queue) {
  for (const ReportedQueue* r = t_reported_queues; r != nullptr; r = r->outer) {
    if (r->queue == queue) return true;
  }
  return false;
}

size_t HarvestQueueLocked(QueueState* q, bool all) {
  const ReportedQueue reported{q->queue, t_reported_queues};
  t_reported_queues = &reported;
  const size_t n = q->ring.Harvest(all, &Done, [q](PendingOp& op) {
    ReportDispatch(op, q->info);
    ReturnBorrowed(&op);
  });
  t_reported_queues = reported.outer;
  return n;
}

// With the registry's mutex held: a state no queue uses any more gives its
// slots' signals back and is deleted.
void FreeStateLocked(Registry* r, QueueState* q) {
  if (q->runtime_gone) {
    delete q;
    return;
  }
  q->ring.ForEachSlot([r](PendingOp& op) {
    if (op.signal.handle != 0) r->free_signals.push_back(op.signal);
  });
  delete q;
}

// The registered queues, each held (QueueState::holds) until ReleaseQueues:
// the registry's mutex is not held while they are harvested, since the
// reports run tools' callbacks, which may create or destroy queues or submit
// work (each takes that mutex).
void HoldQueues(std::vector<QueueState*>* held) {
  Registry& r = Reg();
  std::lock_guard<std::mutex> lock(r.mutex);
  held->assign(r.queues.begin(), r.queues.end());
  for (QueueState* q : *held) ++q->holds;
}

void ReleaseQueues(std::vector<QueueState*>* held) {
  Registry& r = Reg();
  std::lock_guard<std::mutex> lock(r.mutex);
  for (QueueState* q : *held) {
    if (--q->holds == 0 && q->retired.load(std::memory_order_relaxed)) {
      FreeStateLocked(&r, q);
    }
  }
  held->clear();
}

// Harvests each held queue not retired since under its own harvest mutex
// alone; whether any still has work in flight.
bool HarvestHeld(const std::vector<QueueState*>& held, bool all) {
  bool busy = false;
  for (QueueState* q : held) {
    std::lock_guard<std::mutex> harvest(q->harvest_mutex);
    if (q->retired.load(std::memory_order_acquire)) continue;
    HarvestQueueLocked(q, all);
    busy |= q->ring.InFlight() != 0;
  }
  return busy;
}

size_t HarvestCopiesLocked() {
  return Copies().ring.Harvest(true, &Done, &ReportCopy);
}

// `runs_no_more`: the ring's queue was destroyed by the runtime, so none of
// its packets can run any more.
void Abandon(OpRing* ring, bool runs_no_more) {
  size_t followed_only = 0;
  // Their signals may still be decremented by a late completion: they are
  // never reused (the runtime frees them at shutdown).
  ring->ForEachPending([runs_no_more, &followed_only](PendingOp& op) {
    op.signal = hsa_signal_t{0};
    AbandonInterest(op.interest);
    if (op.loans_only) ++followed_only;
    // A barrier's loans stay counted while it may still run (never reused:
    // it would wait for another copy); a barrier of a destroyed queue gives
    // them back. A lending copy is reported by nobody now.
    if (op.kind == OpKind::kBarrier) {
      if (runs_no_more) ReturnBorrowed(&op);
      for (hsa_signal_t& s : op.borrowed) s = hsa_signal_t{0};
    } else if (op.kind == OpKind::kCopy && op.lent_to_barriers) {
      Copies().unreported_lenders.fetch_sub(1);
    }
  });
  const size_t lost = ring->Abandon() - followed_only;
  Count().incomplete.fetch_add(lost, std::memory_order_relaxed);
}

// The signal of the oldest op of `ring` not reported yet (0: none).
hsa_signal_t OldestPending(OpRing* ring) {
  hsa_signal_t oldest{0};
  ring->ForEachPending([&oldest](PendingOp& op) {
    if (oldest.handle == 0) oldest = op.signal;
  });
  return oldest;
}

// Whether the application published packets on `queue` that the
// interceptor has not taken yet (they become ops once it does).
bool PacketsNotIntercepted(hsa_queue_t* queue) {
  return Core().hsa_queue_load_read_index_scacquire_fn(queue) <
         Core().hsa_queue_load_write_index_scacquire_fn(queue);
}

// Reports what `ring` completes until nothing is pending and `more()` (work
// not yet published) is false, or `*budget_ns` (shared by a whole drain) is
// spent. `harvest` and `more` run under `harvest_mutex`; the waits run with
// no lock held, so the submission path (which intercepts the packets the
// drain waits for) and other harvesters go on meanwhile.
template <class Harvest, class More>
void DrainRing(OpRing* ring, std::mutex* harvest_mutex, Harvest harvest,
               More more, uint64_t* budget_ns) {
  for (;;) {
    hsa_signal_t oldest;
    bool published = false;
    {
      std::lock_guard<std::mutex> lock(*harvest_mutex);
      harvest();
      oldest = OldestPending(ring);
      published = oldest.handle == 0 && more();
    }
    if (*budget_ns == 0 || (oldest.handle == 0 && !published)) return;
    const uint64_t start = clock::TimestampNs();
    if (oldest.handle != 0) {
      Core().hsa_signal_wait_scacquire_fn(
          oldest, HSA_SIGNAL_CONDITION_LT, 1,
          NsToTicks(std::min(*budget_ns, kDrainSliceNs)),
          HSA_WAIT_STATE_BLOCKED);
    } else {
      std::this_thread::sleep_for(kDrainPoll);
    }
    const uint64_t spent = clock::TimestampNs() - start;
    *budget_ns = spent >= *budget_ns ? 0 : *budget_ns - spent;
  }
}

void DrainQueue(QueueState* q, uint64_t* budget_ns) {
  // A queue another thread destroys (QueueState::gone) is read no more.
  DrainRing(
      &q->ring, &q->harvest_mutex, [q] { HarvestQueueLocked(q, true); },
      [q] { return !q->gone && PacketsNotIntercepted(q->queue); }, budget_ns);
}

// A packet the application published that the runtime had not handed to the
// interceptor yet, copied while its queue exists.
struct UnseenPacket {
  uint64_t index;
  uint8_t bytes[64];
};

// The packets of `q` from the next one the interceptor will get up to the
// queue's write index. A drain that ran out of time leaves them behind: the
// queue is destroyed, or the process ends, with them never intercepted.
// Those below QueueState::counted_until were counted by the final harvest
// already. `*written_out` (if not NULL) gets the write index read.
std::vector<UnseenPacket> CopyUnseen(QueueState* q,
                                     uint64_t* written_out = nullptr) {
  std::vector<UnseenPacket> unseen;
  hsa_queue_t* queue = q->queue;
  const uint64_t written =
      Core().hsa_queue_load_write_index_scacquire_fn(queue);
  if (written_out != nullptr) *written_out = written;
  const uint64_t seen = std::max(
      q->packets_seen.load(std::memory_order_acquire), q->counted_until);
  if (written <= seen || queue->size == 0 || queue->base_address == nullptr) {
    return unseen;
  }
  const uint64_t n = std::min<uint64_t>(written - seen, queue->size);
  unseen.resize(n);
  const auto* base = static_cast<const uint8_t*>(queue->base_address);
  for (uint64_t i = 0; i < n; ++i) {
    const uint64_t index = written - n + i;
    unseen[i].index = index;
    std::memcpy(unseen[i].bytes, base + (index % queue->size) * 64, 64);
  }
  return unseen;
}

// Once the interceptor runs no more: the copied packets it never got are
// operations that never completed, like a traced packet that did not (each
// dispatch or barrier an observer would have traced is abandoned to it and
// counted), rather than operations nobody hears of.
void AbandonUnseen(QueueState* q, const std::vector<UnseenPacket>& unseen) {
  const uint64_t seen = q->packets_seen.load(std::memory_order_acquire);
  for (const UnseenPacket& p : unseen) {
    if (p.index < seen) continue;  // intercepted after it was copied
    uint16_t header;
    std::memcpy(&header, p.bytes, sizeof(header));
    EnqueueInfo info{};
    if (!TracedPacketKind(PacketType(header), &info.kind)) continue;
    info.op_id = NextCorrelationId();
    info.queue = q->info;
    info.packet = p.bytes;
    Interest interest;
    if (!AskObservers(info, &interest)) continue;
    AbandonInterest(interest);
    Count().incomplete.fetch_add(1, std::memory_order_relaxed);
  }
}

// Reports what completed and counts the rest as never completed, the packets
// in `unseen` included.
void AbandonQueue(QueueState* q, const std::vector<UnseenPacket>& unseen,
                  bool destroyed) {
  std::lock_guard<std::mutex> lock(q->harvest_mutex);
  HarvestQueueLocked(q, true);
  Abandon(&q->ring, destroyed);
  AbandonUnseen(q, unseen);
}

// The same at shutdown or exit, for a queue the runtime may still run: its
// packets not intercepted yet are copied under the harvest mutex, unless a
// destruction of it, under way or deferred, abandons what is left itself
// (counting it here too would count it twice).
void AbandonQueueAtEnd(QueueState* q) {
  std::lock_guard<std::mutex> lock(q->harvest_mutex);
  if (q->gone || q->destroying.load(std::memory_order_acquire) ||
      q->retired.load(std::memory_order_acquire)) {
    return;
  }
  HarvestQueueLocked(q, true);
  Abandon(&q->ring, false);
  uint64_t written = 0;
  AbandonUnseen(q, CopyUnseen(q, &written));
  // A destruction that a later report of this harvest runs (a copy's
  // callback, a callback in another queue's step here) counts only what
  // was written after this.
  q->counted_until = std::max(q->counted_until, written);
}

void DrainCopies(uint64_t* budget_ns) {
  CopyTrack& copies = Copies();
  DrainRing(
      &copies.ring, &copies.harvest_mutex, [] { HarvestCopiesLocked(); },
      [] { return false; }, budget_ns);
  std::lock_guard<std::mutex> lock(copies.harvest_mutex);
  HarvestCopiesLocked();
  Abandon(&copies.ring, false);
}

hsa_status_t DestroyHeldQueue(QueueState* q, hsa_queue_t* queue,
                              hsa_status_t (*destroy)(hsa_queue_t*),
                              uint64_t budget);

// Destroys the queues whose destruction observers deferred
// (DrainAndDestroyQueue), under the drain mutex; a thread that reports
// nothing now calls it. Without `wait` (the completion thread, which must
// not stall the copies' reports behind another thread's drain) it does
// nothing while another thread holds that mutex: the thread looks again at
// its next round.
void RunDeferredDestroys(bool wait) {
  Registry& r = Reg();
  if (!r.any_deferred.load(std::memory_order_acquire)) return;
  std::unique_lock<std::recursive_mutex> drain(r.drain_mutex, std::defer_lock);
  if (wait) {
    drain.lock();
  } else if (!drain.try_lock()) {
    return;
  }
  for (;;) {
    Registry::DeferredDestroy d;
    {
      std::lock_guard<std::mutex> lock(r.mutex);
      if (r.deferred_destroys.empty()) return;
      d = r.deferred_destroys.front();
      r.deferred_destroys.erase(r.deferred_destroys.begin());
      r.any_deferred.store(!r.deferred_destroys.empty(),
                           std::memory_order_release);
      if (std::find(r.queues.begin(), r.queues.end(), d.state) ==
          r.queues.end()) {
        // No longer traced (the runtime's queue may be gone): not destroyed
        // again.
        if (--d.state->holds == 0 &&
            d.state->retired.load(std::memory_order_relaxed)) {
          FreeStateLocked(&r, d.state);
        }
        continue;
      }
    }
    DestroyHeldQueue(d.state, d.queue, d.destroy,
                     d.inactivated ? 0 : kDrainTimeoutNs);
  }
}

void PrintLosses() {
  const GpuStats s = Stats();
  if (s.incomplete + s.untraced + s.names_unresolved + s.failed_copies == 0) {
    return;
  }
  std::fprintf(stderr,
               "roctracer: GPU activity: %" PRIu64
               " operation(s) never completed, %" PRIu64
               " submitted untraced (no tracer signal), %" PRIu64
               " kernel name(s) unresolved, %" PRIu64 " copy(ies) failed\n",
               s.incomplete, s.untraced, s.names_unresolved, s.failed_copies);
}

// Copies are reported by the threads that wait on their application signals
// (AwaitCopyOf), or by this thread: while copies are collected by their
// waiters, it looks at them once per kBusyPollNs and reports (and watches)
// only those published two looks before and those other work depends on
// (NoteDependencies), leaving the newer ones to the waiter about to come
// (HIP waits on each copy before the next): the copies then cost no wake-up
// of this thread. Once it had to report two within kPromptNs itself, it
// watches every copy promptly for kPromptNs (the free slots ahead too, so
// that a copy wakes it as it completes). The queues, whose signals the
// runtime completes itself, are looked at every kBusyPollNs.
void CompletionThreadMain(std::atomic<bool>* stop) {
  CompletionThread& c = TheCompletionThread();
  std::vector<hsa_signal_t> signals;
  std::vector<hsa_signal_condition_t> conds;
  std::vector<hsa_signal_value_t> values;
  std::vector<QueueState*> held;
  const uint64_t busy_ticks = NsToTicks(kBusyPollNs);
  const uint64_t idle_ticks = NsToTicks(kIdlePollNs);
  uint64_t queues_at = 0;
  uint64_t active_at = 0;  // when something was last in flight
  // The copy ring's positions below this one have slots with signals, at 1
  // until a copy uses them.
  uint64_t ensured_until = 0;
  // Until when copies are watched promptly; the copy ring's positions
  // published before the timed look two before the last (copies that had
  // at least two looks' time to be collected: a waiter that the machine's
  // load kept off the cores for one does not make the thread prompt), and
  // those published before each of the last two.
  uint64_t prompt_until = 0;
  // Until when every copy is watched because work depending on one could not
  // mark it (CopyTrack::watch_all).
  uint64_t watch_all_until = 0;
  uint64_t uncollected_at = 0;  // when it last reported one nobody collected
  uint64_t old_below = 0;
  uint64_t published_at_look[2] = {0, 0};
  auto watch = [&](hsa_signal_t signal) {
    signals.push_back(signal);
    conds.push_back(HSA_SIGNAL_CONDITION_LT);
    values.push_back(1);
  };
  while (!stop->load(std::memory_order_acquire)) {
    RunDeferredDestroys(false);
    const uint32_t seen_word = c.kick_word.load(std::memory_order_seq_cst);
    const hsa_signal_value_t seen = Core().hsa_signal_load_scacquire_fn(c.kick);
    signals.assign(1, c.kick);
    conds.assign(1, HSA_SIGNAL_CONDITION_NE);
    values.assign(1, seen);
    bool busy = false;
    CopyTrack& copies = Copies();
    const uint64_t now = clock::TimestampNs();
    const bool timed = now - queues_at >= kBusyPollNs;
    if (timed) {
      old_below = published_at_look[0];
      published_at_look[0] = published_at_look[1];
      published_at_look[1] = copies.ring.Published();
    }
    if (copies.watch_all.exchange(false, std::memory_order_seq_cst)) {
      watch_all_until = now + 2 * kBusyPollNs;
    }
    bool prompt = now < prompt_until || now < watch_all_until;
    {
      std::unique_lock<std::mutex> lock(copies.harvest_mutex, std::defer_lock);
      if (prompt) {
        // A waiter woken by the same completion usually holds the mutex for
        // a report: a short spin first, so that its unlock wakes no one.
        lock.try_lock();
        for (int i = 0; i < kHarvestLockSpins && !lock.owns_lock(); ++i) {
          platform::CpuRelax();
          lock.try_lock();
        }
      }
      if (!lock.owns_lock()) lock.lock();
      // Not prompt, the newer copies are left to their waiters (but those
      // other work depends on): an older one this thread has to report is
      // one nobody collected.
      const uint64_t reportable_below = prompt ? UINT64_MAX : old_below;
      size_t uncollected = 0;
      auto harvest = [reportable_below, &uncollected, &copies] {
        return copies.ring.Harvest(
            true,
            [reportable_below, &uncollected](PendingOp& op) {
              if (op.waiters != 0 ||
                  (op.position >= reportable_below && !op.depended) ||
                  !Done(op)) {
                return false;
              }
              // A copy of a thread that waits on its copies had a waiter
              // the machine's load kept off the cores: no evidence of an
              // application that does not wait.
              if (!op.depended && !op.submitter_waits) ++uncollected;
              return true;
            },
            &ReportCopy);
      };
      if (!prompt) {
        harvest();
        // One alone may be a waiter the machine's load kept off the cores;
        // a second within kPromptNs is an application that does not wait.
        if (uncollected > 1 ||
            (uncollected == 1 && now - uncollected_at < kPromptNs)) {
          prompt = true;
          prompt_until = now + kPromptNs;
          // The prompt period's end counts as the last copy nobody
          // collected: one more within kPromptNs of it renews the period.
          uncollected_at = prompt_until;
        } else if (uncollected > 0) {
          uncollected_at = now;
        }
      } else {
        // While copies keep completing, take them without going to sleep
        // between them: a futex wake per copy costs more than the report.
        for (int spins = 0; harvest() > 0 && spins < 64; ++spins) {
          if (copies.ring.InFlight() == 0) break;
          lock.unlock();
          sched_yield();
          lock.lock();
        }
      }
      busy = copies.ring.InFlight() != 0;
    }
    if (timed) {
      queues_at = now;
      HoldQueues(&held);
      busy |= HarvestHeld(held, false);
      ReleaseQueues(&held);
    } else {
      busy = true;  // looked less than a poll ago: look again after one
    }
    if (busy) active_at = now;
    bool idle = now - active_at >= kLingerNs;
    OpRing& ring = copies.ring;
    if (prompt && !idle &&
        ensured_until < ring.Published() + 2 * kCopySlotsAhead) {
      // The free slots to watch ahead get their signals (at 1 until a copy
      // uses them) under the submit mutex, which makes them the submitters'
      // only after this; in batches, when no copy is being submitted right
      // now (a submitter waiting for this thread's unlock would pay a
      // wake-up), unless the slots ready ahead run short.
      std::unique_lock<std::mutex> submit(copies.submit_mutex,
                                          std::try_to_lock);
      if (!submit.owns_lock() &&
          ensured_until < ring.Published() + kCopySlotsAhead) {
        submit.lock();
      }
      if (submit.owns_lock()) {
        uint64_t position = std::max(ensured_until, ring.Published());
        const uint64_t end = std::min(ring.Published() + kCopySlotsEnsured,
                                      ring.Freed() + ring.capacity());
        while (position < end && EnsureSignal(&ring.At(position))) ++position;
        ensured_until = std::max(ensured_until, position);
      }
    }
    // The promise to the submitters (CopyTrack::watched_until), then the
    // look at what they published: a submitter that published below the
    // promise without kicking published before this thread's look (both
    // sides store, then load, seq_cst), so its copy is among those pending.
    // Not prompt, every copy is looked at within a look or two without a
    // kick.
    const uint64_t watched_until =
        idle     ? 0
        : prompt ? std::min(ring.Published() + kCopySlotsAhead, ensured_until)
                 : UINT64_MAX;
    copies.watched_until.store(watched_until, std::memory_order_seq_cst);
    {
      // The oldest copies published until now but those completed that a
      // waiter reports (watched even with a waiter: one that gives up needs
      // no wake-up of this thread), then the slots watched ahead that are
      // still free.
      std::lock_guard<std::mutex> lock(copies.harvest_mutex);
      const uint64_t published = ring.Published(std::memory_order_seq_cst);
      const uint64_t freed = ring.Freed();
      if (published != freed) idle = false;
      auto maybe_watch = [&](const PendingOp& op) {
        if (op.state == PendingOp::kPending && (op.waiters == 0 || !Done(op))) {
          watch(op.signal);
        }
      };
      const uint64_t watched_below = prompt ? published : old_below;
      for (uint64_t i = freed;
           i < published && i < watched_below && i < freed + kCopiesWatched;
           ++i) {
        maybe_watch(ring.At(i));
      }
      // Not prompt: the newer copies that other work depends on.
      const uint64_t newer = std::max(
          {freed, std::min(published, watched_below),
           published - std::min<uint64_t>(published, kCopyWaitLookup)});
      for (uint64_t i = newer; !prompt && i < published; ++i) {
        if (ring.At(i).depended) maybe_watch(ring.At(i));
      }
      // A copy older than those that work depends on (NoteDependencies found
      // it through CopyTrack::newest_by_signal): all of them looked at, until
      // none is left.
      if (copies.older_depended) {
        bool any = false;
        for (uint64_t i = freed; i < newer; ++i) {
          const PendingOp& op = ring.At(i);
          if (op.state == PendingOp::kPending && op.depended) {
            any = true;
            maybe_watch(op);
          }
        }
        copies.older_depended = any;
      }
      for (uint64_t i = published; prompt && i < watched_until; ++i) {
        watch(ring.At(i).signal);
      }
    }
    const uint64_t ticks = idle ? idle_ticks : busy_ticks;
    if (signals.size() == 1) {
      // The kick alone: the tracer's own word (a kicker registers its kick,
      // then looks for sleepers; this thread registers, then looks at the
      // kicks: one of the two sees the other).
      c.word_sleepers.fetch_add(1, std::memory_order_seq_cst);
      if (c.kick_word.load(std::memory_order_seq_cst) == seen_word &&
          !stop->load(std::memory_order_acquire)) {
        pool::pool_internal::FutexWait(&c.kick_word, seen_word,
                                       idle ? kIdlePollNs : kBusyPollNs);
      }
      c.word_sleepers.fetch_sub(1, std::memory_order_seq_cst);
    } else {
      Amd().hsa_amd_signal_wait_any_fn(
          static_cast<uint32_t>(signals.size()), signals.data(), conds.data(),
          values.data(), ticks, HSA_WAIT_STATE_BLOCKED, nullptr);
    }
  }
}

// fork(): the child has only the forking thread. What is in flight is the
// parent's to report (the child's pools start empty, and nothing the child
// runs completes it): the queues and copies are forgotten unreported, so the
// child's exit neither waits for them nor reports them again. The locks a
// thread of the parent held at the fork (the completion thread's, inside a
// report) are made anew, and a completion thread is started again by the
// child's first copy.
void ForgetInChild() {
  Registry& r = Reg();
  new (&r.mutex) std::mutex;
  new (&r.drain_mutex) std::recursive_mutex;
  new (&r.loans_mutex) std::mutex;
  r.queues.clear();  // their states stay the parent's interceptors' data
  r.deferred_destroys.clear();
  r.any_deferred.store(false, std::memory_order_relaxed);
  CopyTrack& copies = Copies();
  new (&copies.submit_mutex) std::mutex;
  new (&copies.harvest_mutex) std::mutex;
  copies.ring.Abandon();
  copies.watched_until.store(0, std::memory_order_relaxed);
  copies.watch_all.store(false, std::memory_order_relaxed);
  copies.older_depended = false;
  copies.unreported_lenders.store(0, std::memory_order_relaxed);
  r.lent_signals.clear();
  r.barrier_loans.clear();
  CompletionThread& c = TheCompletionThread();
  new (&c.mutex) std::mutex;
  c.thread = nullptr;  // the parent's, never joined here
  c.stop = nullptr;
  c.running.store(false, std::memory_order_relaxed);
  c.word_sleepers.store(0, std::memory_order_relaxed);
}

void ForgetInChildAfterFork() {
  static const bool registered =
      pthread_atfork(nullptr, nullptr, &ForgetInChild) == 0;
  (void)registered;
}

}  // namespace

CopyTrack& Copies() {
  static CopyTrack* copies = new CopyTrack(kCopyRingCapacity);
  return *copies;
}

void RegisterQueue(QueueState* state) {
  ForgetInChildAfterFork();
  Registry& r = Reg();
  std::lock_guard<std::mutex> lock(r.mutex);
  r.queues.push_back(state);
}

namespace {

// Whether the lookups of `queue` on this thread skip `s`: a state whose queue
// the runtime destroyed lingers until its destruction's reports end, and
// `queue` may be a new queue at its address (one the tracer does not
// intercept: a soft queue, or one whose interception failed). Only those
// reports (this thread reporting `queue`) still mean the destroyed one: its
// destruction repeated there is refused rather than passed to the runtime.
bool SkippedLocked(const QueueState* s, const hsa_queue_t* queue) {
  return s->runtime_destroyed && !ReportingQueueOnThisThread(queue);
}

// With the registry's mutex held: the state of `queue`, the newest one (a
// queue the runtime made at the address of one whose destruction has not
// retired its state yet is that newer queue), or NULL.
QueueState* FindStateLocked(Registry* r, const hsa_queue_t* queue) {
  auto it = std::find_if(r->queues.rbegin(), r->queues.rend(),
                         [queue](QueueState* s) {
                           return s->queue == queue && !SkippedLocked(s, queue);
                         });
  return it != r->queues.rend() ? *it : nullptr;
}

// `queue`'s state, held for its destruction (nullptr when it has none);
// `*refused` when it was destroyed already (deferred) or is being destroyed
// by another thread.
QueueState* HoldForDestruction(Registry* r, hsa_queue_t* queue, bool* refused) {
  std::lock_guard<std::mutex> lock(r->mutex);
  QueueState* q = FindStateLocked(r, queue);
  if (q == nullptr) return nullptr;
  if (q->destroying.exchange(true, std::memory_order_acq_rel)) {
    *refused = true;
    return nullptr;
  }
  ++q->holds;
  return q;
}

// A destruction from an observer that holds a harvest mutex the drain needs
// (DrainAndDestroyQueue): the state is held and the queue inactivated at
// once; the completion thread (or the final harvest, or shutdown) destroys
// it once the report is over (RunDeferredDestroys).
hsa_status_t DeferDestroy(hsa_queue_t* queue,
                          hsa_status_t (*destroy)(hsa_queue_t*)) {
  Registry& r = Reg();
  bool refused = false;
  QueueState* q = HoldForDestruction(&r, queue, &refused);
  if (refused) return HSA_STATUS_ERROR_INVALID_QUEUE;
  if (q == nullptr) {
    // A queue reported on this thread without a state: its destruction
    // retired it (the runtime destroyed it already).
    if (ReportingQueueOnThisThread(queue)) {
      return HSA_STATUS_ERROR_INVALID_QUEUE;
    }
    return destroy(queue);
  }
  // The application, told the queue is destroyed, may free what the packets
  // not run yet use: the runtime must run none of them.
  const bool inactivated =
      Core().hsa_queue_inactivate_fn != nullptr &&
      Core().hsa_queue_inactivate_fn(queue) == HSA_STATUS_SUCCESS;
  {
    std::lock_guard<std::mutex> lock(r.mutex);
    r.deferred_destroys.push_back(
        Registry::DeferredDestroy{q, queue, destroy, inactivated});
    r.any_deferred.store(true, std::memory_order_release);
  }
  KickCompletionThread();
  return HSA_STATUS_SUCCESS;
}

// The destruction of `q`, held by the caller (released here) with its
// `destroying` set: waits at most `budget` ns for its work (the caller holds
// the drain mutex, unless it reports an operation of another queue).
hsa_status_t DestroyHeldQueue(QueueState* q, hsa_queue_t* queue,
                              hsa_status_t (*destroy)(hsa_queue_t*),
                              uint64_t budget) {
  Registry& r = Reg();
  DrainQueue(q, &budget);
  // The state stays registered, `destroying` set, until what the queue
  // completed is reported (RetireQueue, below): a callback of those reports
  // (or of another thread's harvest) destroying the queue again finds it
  // and is refused, rather than passing a destroyed queue to the runtime.
  std::vector<UnseenPacket> unseen;
  {
    // Drains on other threads read the runtime's queue under this mutex
    // while `gone` is false.
    std::lock_guard<std::mutex> lock(q->harvest_mutex);
    unseen = CopyUnseen(q);
    q->gone = true;
  }
  const hsa_status_t status = destroy(queue);
  bool retired_meanwhile = false;
  {
    std::lock_guard<std::mutex> lock(r.mutex);
    retired_meanwhile = q->retired.load(std::memory_order_acquire);
    if (status == HSA_STATUS_SUCCESS) q->runtime_destroyed = true;
    // Held still (the caller's hold, released below) unless retired.
    if (retired_meanwhile && --q->holds == 0) FreeStateLocked(&r, q);
  }
  // Retired by ShutDown while held here (which emptied the list; this
  // thread went on without the drain mutex): the last holder freed it.
  if (retired_meanwhile) return status;
  if (status != HSA_STATUS_SUCCESS) {
    // Still the runtime's queue, still intercepted (and registered): keep
    // tracing it.
    {
      std::lock_guard<std::mutex> lock(q->harvest_mutex);
      q->gone = false;
    }
    q->destroying.store(false, std::memory_order_release);
    std::lock_guard<std::mutex> lock(r.mutex);
    if (--q->holds == 0 && q->retired.load(std::memory_order_relaxed)) {
      FreeStateLocked(&r, q);
    }
    return status;
  }
  // The interceptor runs no more: what it published after the drain looked
  // is reported or counted here.
  AbandonQueue(q, unseen, true);
  {
    // Unregistered and released at once (ShutDown deletes the registered
    // states nobody holds).
    std::lock_guard<std::mutex> lock(r.mutex);
    auto it = std::find(r.queues.begin(), r.queues.end(), q);
    if (it != r.queues.end()) r.queues.erase(it);
    q->retired.store(true, std::memory_order_release);
    if (--q->holds == 0) FreeStateLocked(&r, q);
  }
  return status;
}

}  // namespace

hsa_status_t DrainAndDestroyQueue(hsa_queue_t* queue,
                                  hsa_status_t (*destroy)(hsa_queue_t*)) {
  Registry& r = Reg();
  // A copy's observer holds the copy ring's harvest mutex, which threads
  // reporting a queue's operations take (a callback's wait on a copy's
  // signal) while holding that queue's: draining here would take them in the
  // other order. An observer of `queue`'s own operation holds the mutex its
  // drain takes.
  if (t_reporting_copy || ReportingQueueOnThisThread(queue)) {
    return DeferDestroy(queue, destroy);
  }
  // From an operation's report (a tool's callback) the drain mutex may be
  // held by a thread destroying the very queue being reported, which waits
  // for this report's harvest mutex: then this goes on without it (the
  // state is held, below, and drains of two queues do not meet).
  std::unique_lock<std::recursive_mutex> drain(r.drain_mutex, std::defer_lock);
  if (t_reporting_dispatch || t_reporting_copy) {
    drain.try_lock();
  } else {
    drain.lock();
  }
  bool refused = false;
  QueueState* q = HoldForDestruction(&r, queue, &refused);
  if (refused) return HSA_STATUS_ERROR_INVALID_QUEUE;
  if (q == nullptr) return destroy(queue);
  return DestroyHeldQueue(q, queue, destroy, kDrainTimeoutNs);
}

void RetireQueue(QueueState* state) {
  Registry& r = Reg();
  std::lock_guard<std::mutex> lock(r.mutex);
  auto it = std::find(r.queues.begin(), r.queues.end(), state);
  if (it != r.queues.end()) r.queues.erase(it);
  // A harvester holding it (possibly this thread, in a tool's callback)
  // deletes it when done.
  if (state->holds != 0) {
    state->retired.store(true, std::memory_order_release);
    return;
  }
  FreeStateLocked(&r, state);
}

bool IsTracedQueue(const hsa_queue_t* queue) {
  Registry& r = Reg();
  std::lock_guard<std::mutex> lock(r.mutex);
  return std::any_of(r.queues.begin(), r.queues.end(), [queue](QueueState* q) {
    return q->queue == queue && !SkippedLocked(q, queue);
  });
}

bool FindQueueInfo(const hsa_queue_t* queue, QueueInfo* info) {
  Registry& r = Reg();
  std::lock_guard<std::mutex> lock(r.mutex);
  // The newest first (FindStateLocked).
  for (auto it = r.queues.rbegin(); it != r.queues.rend(); ++it) {
    const QueueState* q = *it;
    if (SkippedLocked(q, queue)) continue;
    if (q->queue == queue || q->info.queue_id == queue->id) {
      *info = q->info;
      return true;
    }
  }
  return false;
}

// With the registry's mutex held: the lent signals no work depends on any
// more (the copies depending on them reported, no barrier packet holding
// them in flight) go back to the free signals.
void ReturnLentSignalsLocked(Registry* r) {
  const uint64_t freed = Copies().ring.Freed();
  std::lock_guard<std::mutex> loans(r->loans_mutex);
  auto keep = r->lent_signals.begin();
  for (const Registry::LentSignal& l : r->lent_signals) {
    if (l.copy_until <= freed && r->barrier_loans.count(l.signal.handle) == 0) {
      r->free_signals.push_back(l.signal);
    } else {
      *keep++ = l;
    }
  }
  r->lent_signals.erase(keep, r->lent_signals.end());
}

bool EnsureSignal(PendingOp* op) {
  if (op->lent_until != 0 || op->lent_to_barriers) {
    // A copy's slot whose signal later work depends on: while that work is
    // in flight the signal is its dependency, not this slot's.
    const uint64_t until =
        op->lent_until != 0 && Copies().ring.Live(op->lent_until - 1)
            ? op->lent_until
            : 0;
    if (op->signal.handle != 0 && (until != 0 || op->lent_to_barriers)) {
      Registry& r = Reg();
      std::lock_guard<std::mutex> lock(r.mutex);
      if (until != 0 || [&r, op] {
            std::lock_guard<std::mutex> loans(r.loans_mutex);
            return r.barrier_loans.count(op->signal.handle) != 0;
          }()) {
        r.lent_signals.push_back(Registry::LentSignal{op->signal, until});
        op->signal = hsa_signal_t{0};
      }
    }
    op->lent_until = 0;
    op->lent_to_barriers = false;
  }
  if (op->signal.handle == 0) {
    Registry& r = Reg();
    {
      std::lock_guard<std::mutex> lock(r.mutex);
      if (!r.lent_signals.empty()) ReturnLentSignalsLocked(&r);
      if (!r.free_signals.empty()) {
        op->signal = r.free_signals.back();
        r.free_signals.pop_back();
      }
    }
    if (op->signal.handle == 0 &&
        Core().hsa_signal_create_fn(1, 0, nullptr, &op->signal) !=
            HSA_STATUS_SUCCESS) {
      op->signal = hsa_signal_t{0};
      return false;
    }
  }
  Core().hsa_signal_silent_store_relaxed_fn(op->signal, 1);
  return true;
}

void HarvestQueueNow(QueueState* state) {
  // From a tool's dispatch callback this thread may hold this queue's harvest
  // mutex, from a copy callback the copy ring's (taken after queues' by
  // reports that copy): the caller counts its packet untraced instead.
  if (ReportingOnThisThread()) return;
  std::lock_guard<std::mutex> lock(state->harvest_mutex);
  HarvestQueueLocked(state, true);
}

void HarvestQueueIfFree(QueueState* state) {
  // A tool's dispatch callback may hold this very queue's harvest mutex
  // (try_lock by its owner is undefined): the completion thread harvests.
  if (t_reporting_dispatch) return;
  if (!state->harvest_mutex.try_lock()) return;
  HarvestQueueLocked(state, false);
  state->harvest_mutex.unlock();
}

bool ReportingOnThisThread() {
  return t_reporting_dispatch || t_reporting_copy;
}

void MakeRoomForCopy() {
  CopyTrack& copies = Copies();
  std::lock_guard<std::mutex> harvest(copies.harvest_mutex);
  if (HarvestCopiesLocked() > 0) return;
  bool waited = false;
  copies.ring.ForEachPending([&waited](PendingOp& op) {
    if (waited) return;
    waited = true;
    Core().hsa_signal_wait_scacquire_fn(op.signal, HSA_SIGNAL_CONDITION_LT, 1,
                                        NsToTicks(kCopyRoomWaitNs),
                                        HSA_WAIT_STATE_BLOCKED);
  });
  HarvestCopiesLocked();
}

// With the copy ring's harvest mutex held: the position of a pending copy
// of `signal` older than the newest kCopyWaitLookup (those are scanned),
// from CopyTrack::newest_by_signal; OpRing::kNone if none is known.
uint64_t OlderCopyOf(hsa_signal_t signal) {
  CopyTrack& copies = Copies();
  const uint64_t entry =
      copies.newest_by_signal[CopyTrack::EntryOf(signal)].load(
          std::memory_order_relaxed);
  if (entry == 0) return OpRing::kNone;
  const uint64_t position = entry - 1;
  // After the entry: a position below it is published, its slot's fields
  // visible.
  const uint64_t published = copies.ring.Published();
  if (position >= published || published - position <= kCopyWaitLookup ||
      !copies.ring.Live(position)) {
    return OpRing::kNone;
  }
  const PendingOp& op = copies.ring.At(position);
  if (op.state != PendingOp::kPending ||
      op.app_signal.handle != signal.handle) {
    return OpRing::kNone;
  }
  return position;
}

// Whether `value` meets a signal wait's condition (as the runtime tests it).
bool ConditionMet(hsa_signal_value_t value, hsa_signal_condition_t condition,
                  hsa_signal_value_t compare_value) {
  switch (condition) {
    case HSA_SIGNAL_CONDITION_EQ:
      return value == compare_value;
    case HSA_SIGNAL_CONDITION_NE:
      return value != compare_value;
    case HSA_SIGNAL_CONDITION_LT:
      return value < compare_value;
    case HSA_SIGNAL_CONDITION_GTE:
      return value >= compare_value;
  }
  return false;
}

uint64_t AwaitCopyOf(hsa_signal_t app_signal, hsa_signal_condition_t condition,
                     hsa_signal_value_t compare_value, uint64_t timeout_ticks,
                     hsa_wait_state_t state) {
  CopyTrack& copies = Copies();
  if (copies.ring.InFlight() == 0 || t_reporting_copy ||
      app_signal.handle == 0) {
    return timeout_ticks;
  }
  // The time waited is read from the tracer's clock (not a call into the
  // runtime) once per slice, after its wait (and once before the first),
  // and taken from what is left of the timeout in the runtime's ticks; a
  // wait without a timeout reads no clock.
  const bool timed = timeout_ticks != UINT64_MAX;
  uint64_t left = timeout_ticks;
  uint64_t last = 0;
  bool clock_read = !timed;
  const uint64_t slice = NsToTicks(kCopyWaitSliceNs);
  for (;;) {
    // Met by the copies reported so far (a signal several copies complete):
    // the runtime's wait returns at once, as it would untraced.
    if (ConditionMet(Core().hsa_signal_load_scacquire_fn(app_signal), condition,
                     compare_value)) {
      return left;
    }
    uint64_t position = OpRing::kNone;
    hsa_signal_t tracer{0};
    {
      std::lock_guard<std::mutex> lock(copies.harvest_mutex);
      // The oldest copy of the signal, the next whose report moves it (a
      // newer one may be held back by its dependencies). A wait on the
      // signal of this thread's last copy is a wait on that copy too.
      bool on_last = false;
      copies.ring.ForNewestPending(
          [app_signal, &position, &on_last](const PendingOp& op) {
            if (op.app_signal.handle == app_signal.handle) {
              position = op.position;
              on_last = on_last || op.position + 1 == t_last_copy;
            }
          },
          kCopyWaitLookup);
      if (position == OpRing::kNone) position = OlderCopyOf(app_signal);
      if (position == OpRing::kNone) return left;
      if ((on_last || position + 1 == t_last_copy) && timeout_ticks != 0) {
        t_waited_since_copy = true;
      }
      PendingOp& op = copies.ring.At(position);
      ++op.waiters;
      tracer = op.signal;
    }
    if (!clock_read) {
      last = clock::TimestampNs();
      clock_read = true;
    }
    if (left != 0) {
      Core().hsa_signal_wait_scacquire_fn(tracer, HSA_SIGNAL_CONDITION_LT, 1,
                                          std::min(left, slice), state);
    }
    if (timed) {
      const uint64_t t = clock::TimestampNs();
      left -= std::min(left, NsToTicks(t - last));
      last = t;
    }
    bool left_behind;
    {
      std::lock_guard<std::mutex> lock(copies.harvest_mutex);
      // Its slot may have been reported and freed meanwhile (a flush): it
      // is then no longer this wait's.
      if (copies.ring.Live(position)) --copies.ring.At(position).waiters;
      HarvestCopiesLocked();
      // Not done, no one waiting any more, and beyond the oldest positions
      // the completion thread watches: it must look again.
      left_behind = copies.ring.Live(position) &&
                    copies.ring.At(position).state == PendingOp::kPending &&
                    copies.ring.At(position).waiters == 0 &&
                    position >= copies.ring.Freed() + kCopiesWatched;
    }
    if (left_behind) KickCompletionThread();
    // The copy done or not, the condition is looked at again, and the
    // signal's oldest copy in flight waited for while it is not met.
    if (left == 0) return left;
  }
}

void HarvestAll(HarvestReason reason) {
  // Called from a tool's dispatch or copy callback (a flush, a finalize, an
  // exit): this thread holds the harvest locks and is reporting already.
  if (t_reporting_dispatch || t_reporting_copy) return;
  const bool final =
      reason == HarvestReason::kShutdown || reason == HarvestReason::kExit;
  Registry& r = Reg();
  if (!final) {
    std::vector<QueueState*> held;
    HoldQueues(&held);
    HarvestHeld(held, reason != HarvestReason::kCompletionThread);
    ReleaseQueues(&held);
    CopyTrack& copies = Copies();
    std::lock_guard<std::mutex> harvest(copies.harvest_mutex);
    HarvestCopiesLocked();
    return;
  }
  {
    // The states stay allocated (held) while the waits run without the
    // registry's mutex; one a tool's callback destroyed meanwhile (retired)
    // is skipped.
    std::lock_guard<std::recursive_mutex> drain(r.drain_mutex);
    // Deferred destructions first: their queues run nothing more, and what
    // they never ran is counted once, by them.
    RunDeferredDestroys(true);
    std::vector<QueueState*> queues;
    HoldQueues(&queues);
    // A queue whose destruction is deferred (by a report below) or under
    // way is left to that destruction.
    auto live = [](QueueState* q) {
      return !q->retired.load(std::memory_order_acquire) &&
             !q->destroying.load(std::memory_order_acquire);
    };
    uint64_t budget = kDrainTimeoutNs;
    for (QueueState* q : queues) {
      if (live(q)) DrainQueue(q, &budget);
    }
    // The runtime may still be running: what it has not handed over by now
    // is past the last report.
    for (QueueState* q : queues) AbandonQueueAtEnd(q);
    ReleaseQueues(&queues);
    DrainCopies(&budget);
    // Destructions the reports above deferred (the completion thread may be
    // stopped).
    RunDeferredDestroys(true);
  }
  if (reason == HarvestReason::kExit) PrintLosses();
}

void EnsureCompletionThread() {
  CompletionThread& c = TheCompletionThread();
  if (c.running.load(std::memory_order_acquire)) return;
  std::lock_guard<std::mutex> lock(c.mutex);
  if (c.thread != nullptr) return;
  if (c.kick.handle == 0 && Core().hsa_signal_create_fn(
                                0, 0, nullptr, &c.kick) != HSA_STATUS_SUCCESS) {
    c.kick = hsa_signal_t{0};
    return;
  }
  ForgetInChildAfterFork();
  c.stop = new std::atomic<bool>(false);
  c.thread = new std::thread(&CompletionThreadMain, c.stop);
  // Named for whoever looks at the process's threads (top, perf, a test).
  pthread_setname_np(c.thread->native_handle(), "roctracer-gpu");
  c.running.store(true, std::memory_order_release);
}

bool WaitedSinceLastCopy(uint64_t position) {
  const bool waited = t_waited_since_copy;
  t_waited_since_copy = false;
  t_last_copy = position + 1;
  return waited;
}

void ForgetCopiesOf(hsa_signal_t app_signal) {
  CopyTrack& copies = Copies();
  if (app_signal.handle == 0 || copies.ring.InFlight() == 0) return;
  // A tool's callback reporting a copy already holds the mutex.
  std::unique_lock<std::mutex> lock(copies.harvest_mutex, std::defer_lock);
  if (!t_reporting_copy) lock.lock();
  copies.ring.ForEachPending([app_signal](PendingOp& op) {
    if (op.app_signal.handle == app_signal.handle) op.app_signal.handle = 0;
  });
}

void NoteDependencies(const hsa_signal_t* signals, uint32_t count) {
  CopyTrack& copies = Copies();
  if (count == 0 || signals == nullptr || copies.ring.InFlight() == 0 ||
      t_reporting_copy) {
    return;
  }
  bool found = false;
  {
    // Not waited for: its holder may be reporting a copy to a tool that
    // waits for the queue whose interceptor calls this.
    std::unique_lock<std::mutex> lock(copies.harvest_mutex, std::try_to_lock);
    if (!lock.owns_lock()) {
      copies.watch_all.store(true, std::memory_order_seq_cst);
      KickCompletionThread();
      return;
    }
    // Every copy completing a signal the work waits on, not only the newest:
    // copies may share one signal (its initial value their count).
    copies.ring.ForNewestPending(
        [signals, count, &found](PendingOp& op) {
          for (uint32_t i = 0; i < count; ++i) {
            if (signals[i].handle != 0 &&
                op.app_signal.handle == signals[i].handle) {
              op.depended = true;
              found = true;
              return;
            }
          }
        },
        kCopyWaitLookup);
    // The newest 64 move on as copies are published: a copy marked here
    // may be older than them at the thread's next look.
    if (found) copies.older_depended = true;
    for (uint32_t i = 0; i < count; ++i) {
      const uint64_t older =
          signals[i].handle != 0 ? OlderCopyOf(signals[i]) : OpRing::kNone;
      if (older != OpRing::kNone) {
        copies.ring.At(older).depended = true;
        copies.older_depended = true;
        found = true;
      }
    }
  }
  if (found) KickCompletionThread();
}

namespace {

// Locks the copy ring's harvest mutex to lend a copy's tracer signal to
// work being submitted (on the thread the runtime intercepts packets on, or
// under the copy submit mutex). Its holders keep it for a look at the ring
// or a report (the completion thread takes it as soon as it is kicked, by
// the very submission that depends on a copy), so it is waited for, not
// merely tried: a lending decided by who happened to hold the mutex made a
// dependant wait for the copy's report now and then, more often the slower
// the threads ran. Not waited for while the holder runs a copy's observers
// (a tool's callback may wait for the queue being submitted to), nor longer
// than kLendLockWaitNs; false then, and nothing is lent.
bool LockToLend(std::unique_lock<std::mutex>* lock) {
  if (lock->try_lock()) return true;
  const CopyTrack& copies = Copies();
  const uint64_t deadline = clock::TimestampNs() + kLendLockWaitNs;
  for (uint32_t i = 1;; ++i) {
    if (copies.calling_observers.load(std::memory_order_acquire)) return false;
    if (i < kLendLockSpins) {
      platform::CpuRelax();
    } else {
      sched_yield();
    }
    if (lock->try_lock()) return true;
    if (i % 64 == 0 && clock::TimestampNs() > deadline) return false;
  }
}

// With the copy ring's harvest mutex held: the one traced copy in flight
// whose report completes `signal`, when replacing `signal` by that copy's
// tracer signal is exact (see SubstituteCopyDependencies); NULL otherwise.
PendingOp* LenderOf(hsa_signal_t signal) {
  if (signal.handle == 0) return nullptr;
  CopyTrack& copies = Copies();
  // The one copy in flight that completes this signal: none older than
  // those scanned may have it.
  PendingOp* lender = nullptr;
  uint32_t found = 0;
  copies.ring.ForNewestPending(
      [&](PendingOp& op) {
        if (op.app_signal.handle == signal.handle) {
          lender = &op;
          ++found;
        }
      },
      kCopyWaitLookup);
  // A copy the runtime refused (not yet abandoned) leaves the signal to
  // the application: no runtime completes its tracer signal. Its refusal
  // was stored before the submit mutex was freed.
  if (found != 1 || lender->signal.handle == 0 ||
      Core().hsa_signal_load_relaxed_fn(lender->signal) == kRefusedCopy ||
      OlderCopyOf(signal) != OpRing::kNone ||
      Core().hsa_signal_load_relaxed_fn(signal) != 1) {
    return nullptr;
  }
  return lender;
}

}  // namespace

bool SubstituteCopyDependencies(const hsa_signal_t* signals, uint32_t count,
                                uint64_t position, hsa_signal_t* out) {
  CopyTrack& copies = Copies();
  if (count == 0 || signals == nullptr || copies.ring.InFlight() == 0 ||
      t_reporting_copy) {
    return false;
  }
  // Not lent when the mutex cannot be had (LockToLend): the copy then waits
  // for the application's signal, as it would have.
  std::unique_lock<std::mutex> lock(copies.harvest_mutex, std::defer_lock);
  if (!LockToLend(&lock)) return false;
  bool any = false;
  for (uint32_t i = 0; i < count; ++i) {
    out[i] = signals[i];
    PendingOp* lender = LenderOf(signals[i]);
    // Older than the dependent copy (the one submitted now is published).
    if (lender == nullptr || lender->position >= position) continue;
    out[i] = lender->signal;
    lender->lent_until = std::max(lender->lent_until, position + 1);
    any = true;
  }
  return any;
}

bool MayBorrowCopySignals(const hsa_signal_t* signals, uint32_t count) {
  if (Copies().ring.InFlight() == 0 || t_reporting_copy) return false;
  for (uint32_t i = 0; i < count; ++i) {
    if (signals[i].handle != 0) return true;
  }
  return false;
}

bool LendCopySignals(const hsa_signal_t* signals, uint32_t count,
                     hsa_signal_t* out, hsa_signal_t* borrowed) {
  for (uint32_t i = 0; i < count; ++i) {
    out[i] = signals[i];
    borrowed[i] = hsa_signal_t{0};
  }
  CopyTrack& copies = Copies();
  if (copies.ring.InFlight() == 0 || t_reporting_copy) return false;
  // As in SubstituteCopyDependencies.
  std::unique_lock<std::mutex> lock(copies.harvest_mutex, std::defer_lock);
  if (!LockToLend(&lock)) return false;
  bool any = false;
  for (uint32_t i = 0; i < count; ++i) {
    PendingOp* lender = LenderOf(signals[i]);
    if (lender == nullptr) continue;
    {
      Registry& r = Reg();
      std::lock_guard<std::mutex> loans(r.loans_mutex);
      ++r.barrier_loans[lender->signal.handle];
    }
    if (!lender->lent_to_barriers) {
      lender->lent_to_barriers = true;
      copies.unreported_lenders.fetch_add(1, std::memory_order_relaxed);
    }
    out[i] = borrowed[i] = lender->signal;
    any = true;
  }
  return any;
}

void ReportCopiesAfterWait() {
  CopyTrack& copies = Copies();
  if (copies.unreported_lenders.load(std::memory_order_acquire) == 0 ||
      t_reporting_copy) {
    return;
  }
  std::lock_guard<std::mutex> lock(copies.harvest_mutex);
  HarvestCopiesLocked();
}

void NoteUnknownDependencies() {
  CopyTrack& copies = Copies();
  if (copies.ring.InFlight() == 0 || t_reporting_copy) return;
  {
    // Not waited for, as in NoteDependencies.
    std::unique_lock<std::mutex> lock(copies.harvest_mutex, std::try_to_lock);
    if (!lock.owns_lock()) {
      copies.watch_all.store(true, std::memory_order_seq_cst);
      KickCompletionThread();
      return;
    }
    bool found = false;
    copies.ring.ForEachPending([&found](PendingOp& op) {
      op.depended = true;
      found = true;
    });
    if (!found) return;
    // Older copies than the newest scanned are among them.
    copies.older_depended = true;
  }
  KickCompletionThread();
}

void KickCompletionThread() {
  CompletionThread& c = TheCompletionThread();
  if (c.kick.handle != 0) Core().hsa_signal_add_screlease_fn(c.kick, 1);
  c.kick_word.fetch_add(1, std::memory_order_seq_cst);
  if (c.word_sleepers.load(std::memory_order_seq_cst) != 0) {
    pool::pool_internal::FutexWakeAll(&c.kick_word);
  }
}

namespace {

// Joined without the thread's mutex: a callback of its reports may create a
// queue, which starts a thread (EnsureCompletionThread takes that mutex);
// one so started is stopped too.
void StopCompletionThread() {
  CompletionThread& c = TheCompletionThread();
  for (;;) {
    std::thread* thread;
    std::atomic<bool>* stop;
    {
      std::lock_guard<std::mutex> lock(c.mutex);
      if (c.thread == nullptr) return;
      thread = c.thread;
      stop = c.stop;
      c.thread = nullptr;
      c.stop = nullptr;
      c.running.store(false, std::memory_order_release);
      stop->store(true, std::memory_order_release);
    }
    KickCompletionThread();
    thread->join();
    delete thread;
    delete stop;
  }
}

}  // namespace

void ShutDown() {
  StopCompletionThread();
  HarvestAll(HarvestReason::kShutdown);
  // A callback of that harvest that created a queue started the thread
  // again, and its reports may be destroying a queue (without the drain
  // mutex, which the harvest held) or deferring a destruction: both done
  // before the runtime goes. The deferred ones' reports may start it again.
  Registry& r = Reg();
  CompletionThread& c = TheCompletionThread();
  for (int round = 0;; ++round) {
    if (round == kShutDownRounds) {
      // Callbacks that create a queue, or destroy their own, at every
      // report: what is left is forgotten below.
      std::fprintf(stderr,
                   "roctracer: hsa_shut_down: callbacks kept starting the "
                   "completion thread or deferring queue destructions; "
                   "stopped after %d rounds\n",
                   kShutDownRounds);
      StopCompletionThread();
      break;
    }
    StopCompletionThread();
    RunDeferredDestroys(true);
    std::lock_guard<std::mutex> lock(c.mutex);
    if (c.thread == nullptr &&
        !r.any_deferred.load(std::memory_order_acquire)) {
      break;
    }
  }
  UnloadAllCodeObjects();
  std::vector<hsa_signal_t> signals;
  {
    std::lock_guard<std::recursive_mutex> drain(r.drain_mutex);
    std::lock_guard<std::mutex> lock(r.mutex);
    // None is left but by an application thread's report running after
    // hsa_shut_down began: not run after the runtime goes (its queue may be
    // another one by the next hsa_init).
    for (const Registry::DeferredDestroy& d : r.deferred_destroys) {
      if (--d.state->holds == 0 &&
          d.state->retired.load(std::memory_order_relaxed)) {
        FreeStateLocked(&r, d.state);
      }
    }
    r.deferred_destroys.clear();
    r.any_deferred.store(false, std::memory_order_release);
    for (QueueState* q : r.queues) {
      if (q->holds != 0) {
        // A harvest (a flush) still running on another thread uses its
        // signals and deletes it when done; they are left to the runtime.
        q->runtime_gone = true;
        q->retired.store(true, std::memory_order_release);
        continue;
      }
      q->ring.ForEachSlot([&signals](PendingOp& op) {
        if (op.signal.handle != 0) signals.push_back(op.signal);
      });
      delete q;
    }
    r.queues.clear();
    signals.insert(signals.end(), r.free_signals.begin(), r.free_signals.end());
    r.free_signals.clear();
    for (const Registry::LentSignal& l : r.lent_signals) {
      signals.push_back(l.signal);
    }
    r.lent_signals.clear();
    std::lock_guard<std::mutex> loans(r.loans_mutex);
    r.barrier_loans.clear();
    Copies().unreported_lenders.store(0, std::memory_order_relaxed);
  }
  {
    CopyTrack& copies = Copies();
    std::lock_guard<std::mutex> lock(copies.harvest_mutex);
    copies.ring.ForEachSlot([&signals](PendingOp& op) {
      if (op.signal.handle != 0) signals.push_back(op.signal);
      op.signal = hsa_signal_t{0};
    });
  }
  {
    CopyTrack& copies = Copies();
    copies.watched_until.store(0, std::memory_order_relaxed);
  }
  if (c.kick.handle != 0) signals.push_back(c.kick);
  c.kick = hsa_signal_t{0};
  g_ticks_per_second.store(0, std::memory_order_relaxed);
  for (hsa_signal_t s : signals) Core().hsa_signal_destroy_fn(s);
}

GpuStats Stats() noexcept {
  Counters& c = Count();
  GpuStats s{};
  s.dispatches = c.dispatches.load(std::memory_order_relaxed);
  s.barriers = c.barriers.load(std::memory_order_relaxed);
  s.copies = c.copies.load(std::memory_order_relaxed);
  s.untraced = c.untraced.load(std::memory_order_relaxed);
  s.names_unresolved = c.names_unresolved.load(std::memory_order_relaxed);
  s.incomplete = c.incomplete.load(std::memory_order_relaxed);
  s.failed_copies = c.failed_copies.load(std::memory_order_relaxed);
  Registry& r = Reg();
  std::lock_guard<std::mutex> lock(r.mutex);
  for (QueueState* q : r.queues) s.in_flight += q->ring.InFlight();
  s.in_flight += Copies().ring.InFlight();
  return s;
}

}  // namespace roctracer::gpu
