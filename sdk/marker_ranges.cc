#include "sdk/marker_ranges.h"

#include <pthread.h>

#include <cstring>
#include <mutex>
#include <new>
#include <unordered_map>
#include <vector>

#include "ext/prof_protocol.h"
#include "rocprofiler-sdk/buffer_tracing.h"
#include "rocprofiler-sdk/callback_tracing.h"
#include "rocprofiler-sdk/external_correlation.h"
#include "rocprofiler-sdk/marker/api_id.h"
#include "roctracer_roctx.h"
#include "runtime/clock/clock.h"
#include "runtime/intercept/traced_call.h"
#include "runtime/platform/thread_id.h"
#include "runtime/private/roctx_link.h"
#include "sdk/buffers.h"
#include "sdk/dispatch.h"
#include "sdk/interest.h"
#include "sdk/marker_requests.h"
#include "sdk/retirement.h"

namespace rocprofiler_sdk {

// A range (or a mark, or roctxGetThreadId) from its ENTER to its EXIT: what
// the EXIT callbacks and the record need.
struct OpenRange {
  int32_t op;
  // A thread range's nesting level: what its push returned.
  int32_t level;
  // 0: a push no context traced, kept only so that pops pair with pushes.
  uint64_t correlation_id;
  uint64_t ancestor;
  uint64_t thread_id;
  uint64_t start_ns;
  // The thread it opened on, whose open ranges it is one of.
  ThreadState* owner;
  uint64_t called;    // bit i: context i got ENTER
  uint64_t buffered;  // bit i: context i records it
  rocprofiler_callback_tracing_marker_api_data_t payload;
  rocprofiler_user_data_t user[kMaxContexts];
  rocprofiler_user_data_t external[kMaxContexts];
};

std::atomic<bool> g_pairs_watched{false};

// Per thread, allocated at its first traced rocTX call.
struct MarkerRangeThread {
  // The rocTX call between its ENTER and EXIT (its correlation ID; 0: none)
  // and its frame's index.
  uint64_t call_id = 0;
  uint32_t frame = 0;
  OpenRange current;
  // The thread's open roctxThreadRangeA ranges, innermost last.
  std::vector<OpenRange> stack;
  // The IDs of the ranges open on this thread, in the order they opened:
  // thread ranges, process ranges started here, a mark or thread-ID query
  // during its call. The last is ThreadState::open_range. Locked: a process
  // range may be stopped on another thread.
  std::mutex open_mutex;
  std::vector<uint64_t> open;
  // Ranges of this thread another thread closed, with when, kept while a
  // call on the record path may be in progress here (RecordPathAncestor):
  // such a call began before its EXIT can tell, and a range open at its
  // start stays its ancestor. Forgotten by this thread once it finds no
  // such call in progress (ForgetClosesUnlessRecording, at a range's open,
  // at the end of its outermost record-path call, on the out-of-line path
  // of the range check). Non-empty: ThreadState::open_range has
  // kRangeClosedElsewhere. Under open_mutex.
  struct Closed {
    uint64_t id;
    uint64_t closed_ns;
  };
  std::vector<Closed> closed_elsewhere;

  // ThreadState::open_range's value: the innermost open range, flagged
  // while closes are remembered. Under open_mutex.
  uint64_t OpenRangeWord() const noexcept {
    return (open.empty() ? 0 : open.back()) |
           (closed_elsewhere.empty() ? 0 : kRangeClosedElsewhere);
  }
  // No call on the record path is in progress on this (the owning) thread:
  // none began before a remembered close. Under open_mutex.
  void ForgetClosesUnlessRecording() noexcept {
    if (!closed_elsewhere.empty() &&
        roctracer::hook::CurrentRecordCallId() == 0) {
      closed_elsewhere.clear();
    }
  }
};

namespace {

constexpr int kKind = ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_RANGE_API;
constexpr int kBufferKind = ROCPROFILER_BUFFER_TRACING_MARKER_CORE_RANGE_API;

// Whether pushes and pops, starts and stops, are wanted for good
// (ForEachMarkerRangeCall); under the configuration lock.
bool g_thread_pairs_watched = false;
bool g_process_pairs_watched = false;

// Open roctxProcessRangeA ranges by range ID. Never destroyed: a range may
// be stopped from a static destructor.
std::mutex g_process_mutex;
// Taken on the rocTX path: a thread holding it when another forks would
// hold it forever in the child, so the child starts with a fresh one (as
// the SDK's other API-path locks).
void FreshProcessMutexInChild() noexcept {
  new (&g_process_mutex) std::mutex();
  // So is each thread's lock of its open ranges (another thread stopping a
  // process range may have held it).
  ForEachThreadState(
      [](ThreadState& t, void*) {
        if (t.marker_ranges != nullptr) {
          new (&t.marker_ranges->open_mutex) std::mutex();
        }
      },
      nullptr);
}
__attribute__((constructor)) void RegisterProcessMutexForkHandler() {
  pthread_atfork(nullptr, nullptr, &FreshProcessMutexInChild);
}
std::unordered_map<uint64_t, OpenRange>& ProcessRanges() {
  static auto* ranges = new std::unordered_map<uint64_t, OpenRange>();
  return *ranges;
}

// The range operation a call opens; -1 for none (a pop or a stop closes
// one, any other call is no rocTX core call).
int32_t OpenedOp(const roctracer::ApiCallInfo& info) noexcept {
  if (info.domain == roctracer::kRoctxRequestDomain) {
    return info.op == roctracer::kRoctxGetThreadId
               ? ROCPROFILER_MARKER_CORE_RANGE_API_ID_roctxGetThreadId
               : -1;
  }
  if (info.domain != ACTIVITY_DOMAIN_ROCTX) return -1;
  switch (info.op) {
    case ROCTX_API_ID_roctxMarkA:
      return ROCPROFILER_MARKER_CORE_RANGE_API_ID_roctxMarkA;
    case ROCTX_API_ID_roctxRangePushA:
      return ROCPROFILER_MARKER_CORE_RANGE_API_ID_roctxThreadRangeA;
    case ROCTX_API_ID_roctxRangeStartA:
      return ROCPROFILER_MARKER_CORE_RANGE_API_ID_roctxProcessRangeA;
    default:
      return -1;
  }
}

// Active contexts whose callback (`buffer` false) or buffer service traces
// `op`.
uint64_t Tracing(int32_t op, bool buffer) noexcept {
  return ContextsTracing(kKind, kBufferKind, op, buffer);
}

MarkerRangeThread* State(ThreadState& t) noexcept {
  if (t.marker_ranges == nullptr) {
    t.marker_ranges = new (std::nothrow) MarkerRangeThread();
  }
  return t.marker_ranges;
}

void Callbacks(ThreadState& t, OpenRange& r, uint64_t mask, bool exit) {
  rocprofiler_callback_tracing_record_t rec{};
  rec.thread_id = r.thread_id;
  rec.correlation_id.internal = r.correlation_id;
  rec.correlation_id.ancestor = r.ancestor;
  rec.kind = static_cast<rocprofiler_callback_tracing_kind_t>(kKind);
  rec.operation = r.op;
  rec.phase =
      exit ? ROCPROFILER_CALLBACK_PHASE_EXIT : ROCPROFILER_CALLBACK_PHASE_ENTER;
  rec.payload = &r.payload;
  DeliverCallbacks(t, mask, rec, r.user, r.external, &r.called);
}

// `id` is now the innermost range open on thread `t` (block `s`): the
// ancestor of the calls it makes until it closes, as rocprofiler-sdk keeps
// an open range on its thread's correlation stack.
void Opened(ThreadState& t, MarkerRangeThread& s, uint64_t id) {
  std::lock_guard<std::mutex> lock(s.open_mutex);
  s.open.push_back(id);
  s.ForgetClosesUnlessRecording();
  t.open_range.store(s.OpenRangeWord(), std::memory_order_relaxed);
}

// Range `r` is closed, on thread `closer`: no longer an ancestor of the
// calls that begin from now on the thread it opened on. Closed on another
// thread, it is remembered there for the calls in progress that began
// before (RecordPathAncestor).
void Unopened(const ThreadState& closer, const OpenRange& r) noexcept {
  MarkerRangeThread* s = r.owner->marker_ranges;
  std::lock_guard<std::mutex> lock(s->open_mutex);
  for (size_t i = s->open.size(); i-- > 0;) {
    if (s->open[i] == r.correlation_id) {
      s->open.erase(s->open.begin() + static_cast<ptrdiff_t>(i));
      // When it left the list, under the lock that RecordPathAncestor
      // reads it with: a call that began after this time began with the
      // range closed.
      if (&closer != r.owner) {
        s->closed_elsewhere.push_back(
            {r.correlation_id, roctracer::clock::TimestampNs()});
      }
      break;
    }
  }
  r.owner->open_range.store(s->OpenRangeWord(), std::memory_order_relaxed);
}

// A range's ID appears in no record after its EXIT callbacks and records,
// all written on this thread: its retirement follows them here.
void RetireRange(const OpenRange& r) noexcept {
  if (const uint64_t contexts = RetirementContexts()) {
    Retire(r.correlation_id, roctracer::clock::TimestampNs(), contexts);
  }
}

// EXIT callbacks, records and retirement of a range that ends now.
void Close(ThreadState& t, OpenRange& r) noexcept {
  const uint64_t end = roctracer::clock::TimestampNs();
  const uint64_t active = g_active_mask.load(std::memory_order_acquire);
  if ((r.called & active) != 0) Callbacks(t, r, r.called & active, true);
  uint64_t buffered = r.buffered & active;
  if (buffered == 0) {
    RetireRange(r);
    return;
  }
  rocprofiler_buffer_tracing_marker_api_record_t rec{};
  rec.size = sizeof(rec);
  rec.kind = static_cast<rocprofiler_buffer_tracing_kind_t>(kBufferKind);
  rec.operation = r.op;
  rec.correlation_id.internal = r.correlation_id;
  rec.correlation_id.ancestor = r.ancestor;
  rec.start_timestamp = r.start_ns;
  rec.end_timestamp = end;
  rec.thread_id = r.thread_id;
  while (buffered != 0) {
    const int i = __builtin_ctzll(buffered);
    buffered &= buffered - 1;
    rec.correlation_id.external = r.external[i];
    WriteRecord(g_contexts[i].buffer_services[kBufferKind].buffer, &rec,
                sizeof(rec));
  }
  RetireRange(r);
}

// Close, then the range leaves its thread's open ranges (as rocprofiler-sdk
// pops its correlation stack after the EXIT callbacks and records). A push
// no context traced is only forgotten.
void Finish(ThreadState& t, OpenRange& r) noexcept {
  if (r.correlation_id == 0) return;
  Close(t, r);
  Unopened(t, r);
}

}  // namespace

void MarkerRangeEnter(const roctracer::ApiCallInfo& info, ThreadState& t,
                      uint32_t depth) noexcept {
  const int32_t op = OpenedOp(info);
  if (op < 0 || info.api_data == nullptr) return;
  const uint64_t callbacks = Tracing(op, false);
  const uint64_t buffered = Tracing(op, true);
  const bool traced = (callbacks | buffered) != 0;
  if (!traced && op != ROCPROFILER_MARKER_CORE_RANGE_API_ID_roctxThreadRangeA) {
    return;
  }
  MarkerRangeThread* s = State(t);
  if (s == nullptr) return;
  // One in progress further out (a tool's rocTX call from its callback):
  // the inner call is not reported.
  if (s->call_id != 0 && s->frame < depth &&
      t.frames[s->frame].correlation_id == s->call_id) {
    return;
  }
  OpenRange& r = s->current;
  r.op = op;
  r.owner = &t;
  // The rocTX call's ID, which its EXIT is matched by.
  s->call_id = info.correlation_id;
  s->frame = depth;
  if (!traced) {
    // A push no context traces: kept on the thread's stack, unreported, so
    // that each pop closes its own push whatever contexts start or stop in
    // between. A deliberate difference from rocprofiler-sdk 1.0.0, whose
    // push returns without pushing when no context traces the range, so
    // that the pop of that level closes an outer range (sdk/README.md).
    r.correlation_id = 0;
    r.called = 0;
    r.buffered = 0;
    return;
  }
  // As in rocprofiler-sdk 1.0.0, each range (mark, thread ID query) has a
  // correlation ID of its own, drawn before the rocTX call's (the bridge's
  // annotation ID), so the lower of the two; its ancestor is the innermost
  // call or range open on the thread when it began: the enclosing traced
  // call or the thread's innermost open range, whichever began later (this
  // thread's IDs increase).
  r.correlation_id = roctracer::hook::CurrentAnnotationId();
  if (r.correlation_id == 0) r.correlation_id = roctracer::FreshCorrelationId();
  r.ancestor = AncestorAtEnter(t, depth, r.correlation_id);
  r.thread_id = roctracer::platform::ThreadId();
  r.called = 0;
  r.buffered = buffered;
  std::memset(static_cast<void*>(&r.payload), 0, sizeof(r.payload));
  r.payload.size = sizeof(r.payload);
  if (info.domain == roctracer::kRoctxRequestDomain) {
    FillMarkerRequestArgs(info.op, info.api_data, &r.payload.args);
  } else {
    // The message sits first in each call's arguments: one member serves.
    const auto* d = static_cast<const roctx_api_data_t*>(info.api_data);
    r.payload.args.roctxMarkA.message = d->args.message;
  }
  // Open from here: the ancestor of the rocTX call itself and of what the
  // thread calls until it closes.
  Opened(t, *s, r.correlation_id);
  const uint64_t all = callbacks | buffered;
  for (uint64_t b = all; b != 0; b &= b - 1) {
    const int i = __builtin_ctzll(b);
    r.external[i] = t.ExternalTop(i);
  }
  RequestExternalIds(
      t, all, ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_MARKER_CORE_RANGE_API,
      op, r.correlation_id, r.thread_id, r.external);
  if (callbacks != 0) Callbacks(t, r, callbacks, false);
  r.start_ns = roctracer::clock::TimestampNs();
}

void MarkerRangeExit(const roctracer::ApiCallInfo& info,
                     ThreadState& t) noexcept {
  MarkerRangeThread* s = t.marker_ranges;
  if (info.api_data == nullptr) return;
  if (info.domain == ACTIVITY_DOMAIN_ROCTX &&
      info.op == ROCTX_API_ID_roctxRangePop) {
    if (s == nullptr) return;
    // The level the pop returned (the bridge puts it in the ID slot): the
    // level of the range it closed, -1 when none was open. Pairing by level
    // keeps a pop from closing a range its push did not open.
    const auto* d = static_cast<const roctx_api_data_t*>(info.api_data);
    const auto level = static_cast<int32_t>(d->args.id);
    if (level < 0) return;
    // Deeper ranges whose pops the SDK did not follow (past the call depth
    // it tracks) end here.
    while (!s->stack.empty() && s->stack.back().level > level) {
      OpenRange r = s->stack.back();
      s->stack.pop_back();
      Finish(t, r);
    }
    // A range whose push the SDK did not see is not on the stack.
    if (s->stack.empty() || s->stack.back().level != level) return;
    OpenRange r = s->stack.back();
    s->stack.pop_back();
    Finish(t, r);
    return;
  }
  if (info.domain == ACTIVITY_DOMAIN_ROCTX &&
      info.op == ROCTX_API_ID_roctxRangeStop) {
    const auto* d = static_cast<const roctx_api_data_t*>(info.api_data);
    OpenRange r;
    {
      std::lock_guard<std::mutex> lock(g_process_mutex);
      auto& ranges = ProcessRanges();
      auto it = ranges.find(d->args.roctxRangeStop.id);
      if (it == ranges.end()) return;
      r = it->second;
      ranges.erase(it);
    }
    Finish(t, r);
    return;
  }
  if (s == nullptr || s->call_id == 0 || s->call_id != info.correlation_id) {
    return;
  }
  s->call_id = 0;
  OpenRange& r = s->current;
  switch (r.op) {
    case ROCPROFILER_MARKER_CORE_RANGE_API_ID_roctxThreadRangeA: {
      // The level the push returned, which the bridge puts in the ID slot.
      const auto* d = static_cast<const roctx_api_data_t*>(info.api_data);
      r.level = static_cast<int32_t>(d->args.id);
      r.payload.retval.int32_t_retval = r.level;
      s->stack.push_back(r);
      return;
    }
    case ROCPROFILER_MARKER_CORE_RANGE_API_ID_roctxProcessRangeA: {
      const auto* d = static_cast<const roctx_api_data_t*>(info.api_data);
      const uint64_t id = d->args.roctxRangeStartA.id;
      r.payload.retval.roctx_range_id_t_retval = id;
      std::lock_guard<std::mutex> lock(g_process_mutex);
      ProcessRanges()[id] = r;
      return;
    }
    default:
      Finish(t, r);
      return;
  }
}

void ForEachMarkerRangeCall(const Context& ctx,
                            void (*fn)(uint32_t domain, uint32_t id,
                                       void* data),
                            void* data) noexcept {
  const bool callback =
      ctx.services[kKind].configured.load(std::memory_order_acquire);
  const bool buffer = ctx.buffer_services[kBufferKind].configured.load(
      std::memory_order_acquire);
  const auto traces = [&](int32_t op) {
    return (callback && ctx.services[kKind].Traces(op)) ||
           (buffer && ctx.buffer_services[kBufferKind].Traces(op));
  };
  if (traces(ROCPROFILER_MARKER_CORE_RANGE_API_ID_roctxMarkA)) {
    fn(ACTIVITY_DOMAIN_ROCTX, ROCTX_API_ID_roctxMarkA, data);
  }
  // The calls that open and close ranges stay wanted for good once a
  // context tracing their ranges has started (one reference of their
  // interest, never dropped), as rocprofiler-sdk keeps its wrappers: a
  // range then closes at its own pop or stop whatever contexts stop and
  // start in between.
  const auto watch_for_good = [](bool* watched, uint32_t open, uint32_t close) {
    if (*watched) return;
    *watched = true;
    CountInterest(ACTIVITY_DOMAIN_ROCTX, open, +1);
    CountInterest(ACTIVITY_DOMAIN_ROCTX, close, +1);
    g_pairs_watched.store(true, std::memory_order_release);
  };
  if (traces(ROCPROFILER_MARKER_CORE_RANGE_API_ID_roctxThreadRangeA)) {
    fn(ACTIVITY_DOMAIN_ROCTX, ROCTX_API_ID_roctxRangePushA, data);
    fn(ACTIVITY_DOMAIN_ROCTX, ROCTX_API_ID_roctxRangePop, data);
    watch_for_good(&g_thread_pairs_watched, ROCTX_API_ID_roctxRangePushA,
                   ROCTX_API_ID_roctxRangePop);
  }
  if (traces(ROCPROFILER_MARKER_CORE_RANGE_API_ID_roctxProcessRangeA)) {
    fn(ACTIVITY_DOMAIN_ROCTX, ROCTX_API_ID_roctxRangeStartA, data);
    fn(ACTIVITY_DOMAIN_ROCTX, ROCTX_API_ID_roctxRangeStop, data);
    watch_for_good(&g_process_pairs_watched, ROCTX_API_ID_roctxRangeStartA,
                   ROCTX_API_ID_roctxRangeStop);
  }
  // roctxGetThreadId is a request: requests reach the consumer whenever it
  // is installed.
}

void ResetMarkerRanges(ThreadState& t) noexcept {
  MarkerRangeThread* s = t.marker_ranges;
  if (s == nullptr) {
    t.open_range.store(0, std::memory_order_relaxed);
    return;
  }
  s->call_id = 0;
  s->stack.clear();
  // Both under the lock, the list first: a process range of the old thread
  // stopped elsewhere meanwhile (Unopened) sets open_range from the list,
  // and would otherwise leave a closed range as the new thread's ancestor.
  std::lock_guard<std::mutex> lock(s->open_mutex);
  s->open.clear();
  s->closed_elsewhere.clear();
  t.open_range.store(0, std::memory_order_relaxed);
}

void ForgetRangesClosedElsewhere(ThreadState& t) noexcept {
  MarkerRangeThread* s = t.marker_ranges;
  if (s == nullptr) return;
  std::lock_guard<std::mutex> lock(s->open_mutex);
  s->ForgetClosesUnlessRecording();
  t.open_range.store(s->OpenRangeWord(), std::memory_order_relaxed);
}

uint64_t RangeAtRecordCallStart(ThreadState& t, uint64_t range,
                                uint64_t id) noexcept {
  // The interception layer's frames of this thread's calls in progress,
  // innermost first; a call on the record path keeps its start there.
  for (auto* c = static_cast<const roctracer::hook::TracedCall*>(
           roctracer::hook::Thread().top);
       c != nullptr; c = c->enclosing) {
    if (c->info.correlation_id == id) {
      return RecordPathAncestor(t, 0, range, id, c->begin_ns, false);
    }
  }
  return range & ~kRangeClosedElsewhere;
}

uint64_t RecordPathAncestor(ThreadState& t, uint64_t ancestor, uint64_t range,
                            uint64_t id, uint64_t begin_ns,
                            bool outermost) noexcept {
  const uint64_t open = range & ~kRangeClosedElsewhere;
  if (open > ancestor && open < id) ancestor = open;
  MarkerRangeThread* s = t.marker_ranges;
  if (s == nullptr || (t.open_range.load(std::memory_order_relaxed) &
                       kRangeClosedElsewhere) == 0) {
    return ancestor;
  }
  std::lock_guard<std::mutex> lock(s->open_mutex);
  // Open when the call began, and opened before it; this thread's IDs grow
  // with time, so the larger is the inner.
  for (const MarkerRangeThread::Closed& c : s->closed_elsewhere) {
    if (c.closed_ns >= begin_ns && c.id > ancestor && c.id < id) {
      ancestor = c.id;
    }
  }
  if (outermost) {
    s->closed_elsewhere.clear();
    t.open_range.store(s->OpenRangeWord(), std::memory_order_relaxed);
  }
  return ancestor;
}

}  // namespace rocprofiler_sdk
