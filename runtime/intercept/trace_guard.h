// Per-thread state of the interception layer, shared by the API hooks
// (api_hook.cc) and the rocTX bridge: the innermost traced call, the
// "untraced" depth that keeps the tracer's own work (user callbacks, the
// consumer, the tracer's calls into a runtime) from being traced, and the
// string arena of the calls in progress.
//
// A few dozen bytes of initial-exec TLS (hot_tls.h): one %fs-relative access,
// no __tls_get_addr call and no lazy initialisation on the hot path.
#ifndef RUNTIME_INTERCEPT_TRACE_GUARD_H_
#define RUNTIME_INTERCEPT_TRACE_GUARD_H_

#include <atomic>
#include <cstdint>

#include "runtime/intercept/api_consumer.h"
#include "runtime/platform/hot_tls.h"

namespace roctracer {

class StringArena;

namespace hook {

struct ThreadState {
  void* top;        // innermost traced call (api_hook.cc's frame), or NULL
  uint64_t top_id;  // its correlation ID, 0 when none
  uint32_t untraced;
  uint32_t arena_released;  // the thread is exiting: copy no more strings
  StringArena* arena;       // created on the first string copy
  // rocTX sinks this thread is delivering an annotation to (RoctxSink bits):
  // an annotation made from inside one of them skips that one.
  uint32_t roctx_sinks;
  // The innermost call in progress on this thread that takes the record
  // consumer's path (api_consumer.h's SetApiRecordConsumer), 0 when none:
  // the consumer sees no ENTER of such a call, so this is how a call it
  // does see learns that one encloses it.
  uint64_t record_top_id;
  // While the rocTX bridge reports an annotation that opens something (a
  // mark, a push, a start, roctxGetThreadId) to the consumer: an ID drawn
  // just before the call's own, for a consumer that reports the annotation
  // as an operation of its own (an SDK range, numbered below its opening
  // call as rocprofiler-sdk numbers it); 0 otherwise.
  uint64_t annotation_id;
};

// Who receives a rocTX annotation synchronously on the annotating thread.
enum RoctxSink : uint32_t {
  kRoctxCallbackSink = 1,  // roctracer's ROCTX-domain callback
  kRoctxConsumerSink = 2,  // the rocprofiler-sdk front end (api_consumer.h)
};

ROCTRACER_HOT_TLS_EXTERN ThreadState t_thread_state;

inline ThreadState& Thread() noexcept { return t_thread_state; }

// True while this thread runs tracer code (a user callback, the consumer,
// the tracer's own calls into a runtime): intercepted calls forward untraced.
inline bool InUntracedScope() noexcept { return t_thread_state.untraced != 0; }

// Correlation ID of the innermost traced call on this thread, 0 when none.
inline uint64_t CurrentCallId() noexcept { return t_thread_state.top_id; }

// Correlation ID of the innermost call on this thread that takes the record
// consumer's path, 0 when none (api_consumer.h).
inline uint64_t CurrentRecordCallId() noexcept {
  return t_thread_state.record_top_id;
}

// The ID drawn for the annotation being reported to the consumer on this
// thread (ThreadState::annotation_id), 0 when none.
inline uint64_t CurrentAnnotationId() noexcept {
  return t_thread_state.annotation_id;
}

// Marks a region of tracer code: API calls made inside it (by a user
// callback, by the consumer, by the tracer itself) are not traced. Nests.
class UntracedScope {
 public:
  UntracedScope() noexcept { ++t_thread_state.untraced; }
  ~UntracedScope() { --t_thread_state.untraced; }
  UntracedScope(const UntracedScope&) = delete;
  UntracedScope& operator=(const UntracedScope&) = delete;
};

}  // namespace hook

// The innermost traced call of `domain` in progress on this thread: its op
// and correlation ID; false when there is none. The GPU half asks it for the
// HIP call that submitted a packet or copy (HIP_OPS), which is not the
// innermost call when HSA calls inside it are traced too. A walk of the
// thread's traced calls (traced_call.h); without the hooks (unit tests of the
// GPU half) there are none and the answer is false.
bool InnermostCallOf(uint32_t domain, uint32_t* op, uint64_t* id) noexcept;

// The stream (the runtime's work queue: HIP's hipStream_t, as an integer)
// named by the innermost traced call in progress on this thread that takes
// one (the generated StreamArg of its domain); 0, HIP's null stream, when
// no call in progress does. A walk of the thread's traced calls: the GPU
// half calls it only for an observer that asks (gpu_events.h,
// EnqueueInfo::stream).
uint64_t InnermostStream() noexcept;

// A fresh correlation ID from the tracer's counter (never 0, unique in the
// process): for what a consumer reports as an operation of its own rather
// than a call's, such as an SDK range spanning two rocTX calls.
uint64_t FreshCorrelationId() noexcept;

// The consumer to call for (domain, op): the installed one if it registered
// interest in the op, else NULL. Two relaxed loads.
ApiConsumerFn ConsumerFor(uint32_t domain, uint32_t op) noexcept;

// The installed consumer whatever its interest (NULL when none): inline, a
// load of the pointer SetApiConsumer stores, on every traced call's ENTER.
namespace hook {
extern std::atomic<ApiConsumerFn> g_api_consumer;
}  // namespace hook
inline ApiConsumerFn InstalledConsumer() noexcept {
  return hook::g_api_consumer.load(std::memory_order_acquire);
}

// The installed record consumer (SetApiRecordConsumer), NULL when none.
namespace hook {
extern std::atomic<ApiRecordFn> g_api_record_consumer;
}  // namespace hook
inline ApiRecordFn InstalledRecordConsumer() noexcept {
  return hook::g_api_record_consumer.load(std::memory_order_acquire);
}

}  // namespace roctracer

#endif  // RUNTIME_INTERCEPT_TRACE_GUARD_H_
