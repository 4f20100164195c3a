// MARKER_CORE_RANGE_API (callback and buffer tracing): the rocTX calls seen
// as rocprofiler-sdk 1.0.0 reports them as ranges. roctxMarkA and
// roctxGetThreadId are reported as calls (ENTER and EXIT, a record from
// start to end). roctxRangePushA opens a roctxThreadRangeA (ENTER at the
// push, with its message and, set when it returns, the level) that the
// thread's next roctxRangePop closes (EXIT and a record from the push's
// start to the pop's end, with the push's thread); roctxRangeStartA opens
// a roctxProcessRangeA that roctxRangeStop of its ID closes, on any thread.
// A pop or stop with no range open is not reported. Each range (or call)
// has a correlation ID of its own, as in rocprofiler-sdk 1.0.0, retired
// when it closes.
#ifndef ROCPROFILER_SDK_IMPL_MARKER_RANGES_H_
#define ROCPROFILER_SDK_IMPL_MARKER_RANGES_H_

#include <atomic>
#include <cstdint>

#include "runtime/intercept/api_consumer.h"
#include "sdk/context.h"
#include "sdk/thread_state.h"

namespace rocprofiler_sdk {

// Whether a context tracing thread or process ranges has ever started: the
// calls opening and closing them then reach the consumer for good, and must
// reach MarkerRangeEnter and MarkerRangeExit (ConsumeAny) whatever the
// contexts trace.
extern std::atomic<bool> g_pairs_watched;

// At the ENTER and the EXIT of a rocTX call (ACTIVITY_DOMAIN_ROCTX, or the
// roctxGetThreadId request), `depth` the index of its frame.
void MarkerRangeEnter(const roctracer::ApiCallInfo& info, ThreadState& t,
                      uint32_t depth) noexcept;
void MarkerRangeExit(const roctracer::ApiCallInfo& info,
                     ThreadState& t) noexcept;

// The rocTX calls whose interest `ctx`'s range services need: fn(domain,
// id, data) for each. The first time, also takes a lasting reference of the
// interest in the calls opening and closing the ranges it traces
// (g_pairs_watched). Under the configuration lock.
void ForEachMarkerRangeCall(const Context& ctx,
                            void (*fn)(uint32_t domain, uint32_t id,
                                       void* data),
                            void* data) noexcept;

// The ancestor of a call on the interception layer's record path (the SDK
// saw no ENTER of it), at its EXIT on thread `t`, as its ENTER would have
// fixed it: the inner of `ancestor` and `range` (an open_range value) and
// of the ranges of `t` that another thread closed after `begin_ns`, the
// call's start, that had opened before the call (IDs below `id`).
// `outermost`: no other record-path call is in progress on `t`, so those
// closes are forgotten (nothing in progress began before them).
[[gnu::cold]] uint64_t RecordPathAncestor(ThreadState& t, uint64_t ancestor,
                                          uint64_t range, uint64_t id,
                                          uint64_t begin_ns,
                                          bool outermost) noexcept;

// Forgets the ranges a thread left open (its block is reused by another).
void ResetMarkerRanges(ThreadState& t) noexcept;

}  // namespace rocprofiler_sdk

#endif  // ROCPROFILER_SDK_IMPL_MARKER_RANGES_H_
