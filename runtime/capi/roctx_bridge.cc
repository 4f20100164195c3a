// Tracer side of the rocTX link (see roctx_link.h): turns annotations into
// ROCTX-domain callbacks and activity records.
#include <roctracer_ext.h>
#include <roctracer_roctx.h>

#include <atomic>
#include <mutex>

#include "runtime/activity/activity_emit.h"
#include "runtime/activity/correlation.h"
#include "runtime/activity/domain_registry.h"
#include "runtime/activity/op_slots.h"
#include "runtime/intercept/trace_guard.h"
#include "runtime/platform/hot_tls.h"
#include "runtime/platform/readable_memory.h"
#include "runtime/private/roctx_link.h"

namespace roctracer {

// Every rocTX op has a slot in the table of IDs wanted (RoctxIdsWanted).
static_assert(ROCTX_API_ID_NUMBER <= hook::kRoctxOpSlots,
              "a rocTX op without a slot in hook::g_roctx_ids");

using activity::ActivityPools;
using activity::ActivityPoolsFor;
using activity::CallbackEntry;
using activity::CallbackFor;
using activity::EmitInstantActivityTo;
using activity::NextCorrelationId;
using activity::OpTargets;
using activity::RegisterActiveFlags;
using activity::SetToolPaused;
using activity::TargetsFor;
using activity::UnregisterActiveFlags;

// This thread's block of local range IDs (LocalRangeId); external linkage,
// as hot_tls.h requires.
ROCTRACER_HOT_TLS uint64_t t_local_range_next = 0;
ROCTRACER_HOT_TLS uint64_t t_local_range_end = 0;

namespace {

// The text of an unreadable message, as codegen::kUnreadableString shows an
// unreadable API string argument.
constexpr char kUnreadableMessage[] = "<unreadable>";

std::mutex g_link_mutex;
RoctxLink* g_link = nullptr;

// libroctx's per-op active bytes while attached (AttachRoctx), else NULL.
std::atomic<const std::atomic<uint8_t>*> g_active_bytes{nullptr};

// Range IDs drawn while roctracer itself reports no start or stop: apart
// from libroctx's own (kRoctxLocalRangeIdBit alone), and like them never a
// correlation ID. Each thread takes a block of them at a time.
constexpr uint64_t kTracerLocalRangeIdBit = uint64_t{1} << 62;
constexpr uint64_t kLocalRangeIdBlock = 1024;
std::atomic<uint64_t> g_next_local_range_block{0};

uint64_t LocalRangeId() noexcept {
  if (__builtin_expect(t_local_range_next == t_local_range_end, 0)) {
    t_local_range_next = g_next_local_range_block.fetch_add(
                             kLocalRangeIdBlock, std::memory_order_relaxed) +
                         1;
    t_local_range_end = t_local_range_next + kLocalRangeIdBlock;
  }
  return t_local_range_next++ | kRoctxLocalRangeIdBit | kTracerLocalRangeIdBit;
}

// roctxRangeStartA's ID. roctracer's records of a start and its stop carry
// it where its other records carry a correlation ID, so it comes from the
// same counter while roctracer reports them (kActiveOwn in their active
// bytes); otherwise from a space of its own, as rocprofiler-sdk's rocTX
// counts range IDs apart from correlation IDs (a tool tracing other calls
// then sees their IDs consecutive).
uint64_t NextRangeId() {
  const std::atomic<uint8_t>* active =
      g_active_bytes.load(std::memory_order_acquire);
  if (active != nullptr &&
      ((active[ROCTX_API_ID_roctxRangeStartA].load(std::memory_order_relaxed) |
        active[ROCTX_API_ID_roctxRangeStop].load(std::memory_order_relaxed)) &
       activity::kActiveOwn) != 0) {
    return NextCorrelationId();
  }
  return LocalRangeId();
}

// Marks, for its life, that this thread is delivering an annotation to
// `sink`, so an annotation made from inside it skips that sink.
class SinkScope {
 public:
  explicit SinkScope(uint32_t sink) noexcept
      : state_(hook::Thread()), outer_(state_.roctx_sinks) {
    state_.roctx_sinks = outer_ | sink;
  }
  ~SinkScope() { state_.roctx_sinks = outer_; }
  SinkScope(const SinkScope&) = delete;
  SinkScope& operator=(const SinkScope&) = delete;

 private:
  hook::ThreadState& state_;
  const uint32_t outer_;
};

// Sets, for its life, the ID drawn for the annotation being reported
// (hook::CurrentAnnotationId); an annotation reported from inside the
// consumer's delivery of another one has its own.
class AnnotationIdScope {
 public:
  explicit AnnotationIdScope(uint64_t id) noexcept
      : state_(hook::Thread()), outer_(state_.annotation_id) {
    state_.annotation_id = id;
  }
  ~AnnotationIdScope() { state_.annotation_id = outer_; }
  AnnotationIdScope(const AnnotationIdScope&) = delete;
  AnnotationIdScope& operator=(const AnnotationIdScope&) = delete;

 private:
  hook::ThreadState& state_;
  const uint64_t outer_;
};

// An annotation is the application's, wherever it is made: one made from a
// callback (a HIP or HSA API callback, a buffer callback, a rocprofiler-sdk
// tool's callback) is reported like any other. Only the sink whose delivery
// made it is skipped (a rocTX callback annotating would otherwise call itself
// without end); the records and the other sink still get it.
// `value`: RoctxReportFn's (a range ID, or push/pop's nesting level).
void Report(uint32_t op, const char* message, uint64_t value) {
  const uint32_t busy = hook::Thread().roctx_sinks;
  hook::UntracedScope untraced;
  const bool nesting =
      op == ROCTX_API_ID_roctxRangePushA || op == ROCTX_API_ID_roctxRangePop;
  const uint64_t range_id = nesting ? 0 : value;
  roctx_api_data_t data{};
  data.args.message = message;
  data.args.id = range_id;
  // The op's callback, pools and the consumer's interest in one read of its
  // line (op_slots.h), as a traced API call's ENTER reads them; looked up
  // again after a callback ran (it may have changed them).
  OpTargets targets = TargetsFor(ACTIVITY_DOMAIN_ROCTX, op);
  if ((busy & hook::kRoctxCallbackSink) == 0 && targets.callback != nullptr) {
    {
      SinkScope sink(hook::kRoctxCallbackSink);
      targets.callback->fn(ACTIVITY_DOMAIN_ROCTX, op, &data,
                           targets.callback->arg);
    }
    targets = TargetsFor(ACTIVITY_DOMAIN_ROCTX, op);
  }
  // An annotation is instantaneous: the consumer sees its ENTER and EXIT back
  // to back, under a correlation ID of its own whose parent is the traced API
  // call in progress on this thread (if any).
  ApiConsumerFn consumer =
      (busy & hook::kRoctxConsumerSink) == 0 && targets.consumer_wanted
          ? InstalledConsumer()
          : nullptr;
  const ActivityPools pools = targets.pools;
  // As rocprofiler-sdk draws one, the consumer gets an ID for the call while
  // a context traces it (each rocTX call its own, start and stop included),
  // and one for the range an annotation opens (a mark, a push, a start)
  // while a context traces that, drawn first (CurrentAnnotationId) so that
  // it is the lower; an untraced call takes none (RoctxIdsWanted). The
  // records (and an EXT_API record written before one) carry the call's
  // ID, except a range's start and stop: both carry the range ID, how
  // roctracer's records pair them. The range ID comes from the same counter
  // while we are attached (or from libroctx's disjoint space before), so it
  // never names another call.
  uint64_t annotation_id = 0;
  uint64_t traced_id = 0;
  uint64_t call_id = kRoctxUntracedCallId;
  if (consumer != nullptr) {
    // Untraced (no bit): nothing drawn, the common case one test.
    if (const uint8_t ids = RoctxIdsWanted(ACTIVITY_DOMAIN_ROCTX, op)) {
      const bool opens = op == ROCTX_API_ID_roctxMarkA ||
                         op == ROCTX_API_ID_roctxRangePushA ||
                         op == ROCTX_API_ID_roctxRangeStartA;
      if (opens && (ids & kRoctxRangeId) != 0) {
        annotation_id = NextCorrelationId();
        call_id = annotation_id;
      }
      if ((ids & kRoctxCallId) != 0) {
        traced_id = NextCorrelationId();
        call_id = traced_id;
      }
    }
  }
  const uint64_t id = range_id != 0    ? range_id
                      : traced_id != 0 ? traced_id
                      : pools.any()    ? NextCorrelationId()
                                       : 0;
  if (consumer != nullptr) {
    // Push/pop's level travels in the unused ID slot to the consumer only
    // (the rocprofiler-sdk front end's retval); roctracer's callback above
    // saw 0 there, as roctracer reports it.
    if (nesting) data.args.id = value;
    SinkScope sink(hook::kRoctxConsumerSink);
    AnnotationIdScope annotation(annotation_id);
    ApiCallInfo info{ACTIVITY_DOMAIN_ROCTX,    op,
                     ACTIVITY_API_PHASE_ENTER, call_id,
                     hook::CurrentCallId(),    &data};
    consumer(info);
    info.phase = ACTIVITY_API_PHASE_EXIT;
    consumer(info);
  }
  if (pools.any()) {
    // The record carries a copy of the text: an invalid pointer, which
    // libroctx alone never reads, must not crash the tracer. The check
    // finds the length the copy needs.
    const char* text = message;
    size_t length = 0;
    if (message != nullptr) {
      length = platform::ReadableStringLength(message);
      if (length == platform::kUnreadableLength) {
        text = kUnreadableMessage;
        length = sizeof(kUnreadableMessage) - 1;
      }
    }
    EmitInstantActivityTo(pools, ACTIVITY_DOMAIN_ROCTX, op, id, text, length);
  }
}

// A rocprofiler-sdk-roctx request. Pause and resume act as roctracer_stop and
// roctracer_start and pause the tool slot too (process-wide whatever the tid:
// roctracer has no per-thread stop), between the consumer's ENTER and EXIT.
// Made from a callback, it is reported as an annotation is (Report), except
// to the consumer when the consumer's own rocTX delivery made it: it acts
// then, unreported.
int Request(uint32_t request, const RoctxRequestArgs* args) {
  const bool report =
      (hook::Thread().roctx_sinks & hook::kRoctxConsumerSink) == 0;
  hook::UntracedScope untraced;
  ApiConsumerFn consumer = report ? InstalledConsumer() : nullptr;
  ApiCallInfo info{
      kRoctxRequestDomain,      request,
      ACTIVITY_API_PHASE_ENTER, 0,
      hook::CurrentCallId(),    const_cast<RoctxRequestArgs*>(args)};
  if (consumer != nullptr) {
    // roctxGetThreadId is also reported as an operation of its own (an SDK
    // range), numbered below the call as an opening annotation is; IDs only
    // for what a context traces (Report).
    const uint8_t ids = RoctxIdsWanted(kRoctxRequestDomain, request);
    const uint64_t annotation_id =
        request == kRoctxGetThreadId && (ids & kRoctxRangeId) != 0
            ? NextCorrelationId()
            : 0;
    info.correlation_id = (ids & kRoctxCallId) != 0 ? NextCorrelationId()
                          : annotation_id != 0      ? annotation_id
                                                    : kRoctxUntracedCallId;
    SinkScope sink(hook::kRoctxConsumerSink);
    AnnotationIdScope annotation(annotation_id);
    consumer(info);
  }
  if (request == kRoctxProfilerPause) {
    roctracer_stop();
    SetToolPaused(true);
  }
  if (request == kRoctxProfilerResume) {
    SetToolPaused(false);
    roctracer_start();
  }
  if (consumer != nullptr) {
    info.phase = ACTIVITY_API_PHASE_EXIT;
    SinkScope sink(hook::kRoctxConsumerSink);
    consumer(info);
  }
  return 0;
}

// libroctx loaded first: connect at our load. Detach at unload so libroctx
// never calls into an unmapped tracer.
struct AutoLink {
  AutoLink() {
    if (auto link_fn = LookupPeerSymbol<RoctxLink* (*)()>(
            kRoctxSoname, "roctx_internal_link")) {
      AttachRoctx(link_fn());
    }
  }
  ~AutoLink() { DetachRoctx(nullptr); }
} g_auto_link;

}  // namespace

void AttachRoctx(RoctxLink* link) {
  if (link == nullptr || link->version != kRoctxLinkVersion ||
      link->op_count != ROCTX_API_ID_NUMBER) {
    return;
  }
  std::lock_guard<std::mutex> lock(g_link_mutex);
  link->next_range_id.store(&NextRangeId, std::memory_order_release);
  link->report.store(&Report, std::memory_order_release);
  link->request.store(&Request, std::memory_order_release);
  RegisterActiveFlags(ACTIVITY_DOMAIN_ROCTX, link->active, link->op_count);
  g_active_bytes.store(link->active, std::memory_order_release);
  g_link = link;
}

void DetachRoctx(RoctxLink* link) {
  std::lock_guard<std::mutex> lock(g_link_mutex);
  if (g_link == nullptr || (link != nullptr && link != g_link)) return;
  for (auto& flag : g_link->active) flag.store(0, std::memory_order_relaxed);
  g_link->report.store(nullptr, std::memory_order_release);
  g_link->request.store(nullptr, std::memory_order_release);
  g_link->next_range_id.store(nullptr, std::memory_order_release);
  UnregisterActiveFlags(ACTIVITY_DOMAIN_ROCTX, g_link->active);
  g_active_bytes.store(nullptr, std::memory_order_release);
  g_link = nullptr;
}

}  // namespace roctracer

extern "C" void roctracer_internal_roctx_attach(roctracer::RoctxLink* link) {
  roctracer::AttachRoctx(link);
}

// Called by libroctx when it is unloaded before the tracer.
extern "C" void roctracer_internal_roctx_detach(roctracer::RoctxLink* link) {
  roctracer::DetachRoctx(link);
}
