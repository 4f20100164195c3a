// The kinds made of calls of other kinds, seen on the traced-call path
// (ConsumeAny): MARKER_CORE_RANGE_API (marker_ranges.h), HIP_STREAM
// (hip_streams.h) and RUNTIME_INITIALIZATION from the runtimes' first calls
// (runtime_initialization.h).
#ifndef ROCPROFILER_SDK_IMPL_DERIVED_KINDS_H_
#define ROCPROFILER_SDK_IMPL_DERIVED_KINDS_H_

#include <atomic>
#include <cstdint>

#include "runtime/intercept/api_consumer.h"
#include "sdk/context.h"
#include "sdk/thread_state.h"

namespace rocprofiler_sdk {

// Non-zero once a context configured one of these kinds (or while a runtime's
// first call is watched for): the one load the traced-call path pays for
// them otherwise.
extern std::atomic<uint32_t> g_derived_kinds;
constexpr uint32_t kDerivedRanges = 1;
constexpr uint32_t kDerivedStreams = 2;
constexpr uint32_t kDerivedRuntimeInit = 4;

// At a traced call's ENTER (after its frame is pushed, `depth` its index,
// before its own callbacks) and EXIT (after them).
void DerivedEnter(const roctracer::ApiCallInfo& info, ThreadState& t,
                  uint32_t depth) noexcept;
void DerivedExit(const roctracer::ApiCallInfo& info, ThreadState& t,
                 uint32_t depth) noexcept;

// Whether `ctx` configured one of these kinds.
bool HasDerivedServices(const Context& ctx) noexcept;

// The calls `ctx`'s services of these kinds need to see: fn(domain, id,
// data) for each (a call may come more than once).
void ForEachDerivedCall(const Context& ctx,
                        void (*fn)(uint32_t domain, uint32_t id, void* data),
                        void* data) noexcept;

// A thread block handed to another thread forgets what its last one left.
void ResetDerivedKinds(ThreadState& t) noexcept;

}  // namespace rocprofiler_sdk

#endif  // ROCPROFILER_SDK_IMPL_DERIVED_KINDS_H_
