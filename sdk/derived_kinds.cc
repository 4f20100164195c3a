#include "sdk/derived_kinds.h"

#include "ext/prof_protocol.h"
#include "runtime/private/roctx_link.h"
#include "sdk/hip_streams.h"
#include "sdk/marker_ranges.h"
#include "sdk/runtime_initialization.h"

namespace rocprofiler_sdk {

std::atomic<uint32_t> g_derived_kinds{0};

void DerivedEnter(const roctracer::ApiCallInfo& info, ThreadState& t,
                  uint32_t depth) noexcept {
  const uint32_t kinds = g_derived_kinds.load(std::memory_order_acquire);
  // The runtime's initialization comes before anything of its first call.
  if ((kinds & kDerivedRuntimeInit) && RuntimeInitWatched()) {
    RuntimeInitEnter(info);
  }
  if (info.domain == ACTIVITY_DOMAIN_HIP_API) {
    if (kinds & kDerivedStreams) HipStreamEnter(info, t, depth);
  } else if (info.domain == ACTIVITY_DOMAIN_ROCTX ||
             info.domain == roctracer::kRoctxRequestDomain) {
    // Whatever the active contexts trace: a push none traces is still kept,
    // so that pops pair with pushes.
    if (kinds & kDerivedRanges) MarkerRangeEnter(info, t, depth);
  }
}

void DerivedExit(const roctracer::ApiCallInfo& info, ThreadState& t,
                 uint32_t depth) noexcept {
  const uint32_t kinds = g_derived_kinds.load(std::memory_order_acquire);
  if (info.domain == ACTIVITY_DOMAIN_HIP_API) {
    if (kinds & kDerivedStreams) HipStreamExit(info, t, depth);
  } else if (info.domain == ACTIVITY_DOMAIN_ROCTX ||
             info.domain == roctracer::kRoctxRequestDomain) {
    // Whatever the active contexts trace: a range opened while a context was
    // active closes with the EXIT callbacks of those still active.
    if (kinds & kDerivedRanges) MarkerRangeExit(info, t);
  }
  if ((kinds & kDerivedRuntimeInit) && RuntimeInitWatched()) {
    RuntimeInitExit(info);
  }
}

bool HasDerivedServices(const Context& ctx) noexcept {
  constexpr int kRange = ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_RANGE_API;
  constexpr int kRangeBuffer = ROCPROFILER_BUFFER_TRACING_MARKER_CORE_RANGE_API;
  return TracesRuntimeInit(ctx) || TracesHipStreams(ctx) ||
         ctx.services[kRange].configured.load(std::memory_order_acquire) ||
         ctx.buffer_services[kRangeBuffer].configured.load(
             std::memory_order_acquire);
}

void ForEachDerivedCall(const Context& ctx,
                        void (*fn)(uint32_t domain, uint32_t id, void* data),
                        void* data) noexcept {
  constexpr int kRange = ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_RANGE_API;
  constexpr int kRangeBuffer = ROCPROFILER_BUFFER_TRACING_MARKER_CORE_RANGE_API;
  if (ctx.services[kRange].configured.load(std::memory_order_acquire) ||
      ctx.buffer_services[kRangeBuffer].configured.load(
          std::memory_order_acquire)) {
    g_derived_kinds.fetch_or(kDerivedRanges, std::memory_order_release);
  }
  if (TracesHipStreams(ctx)) {
    g_derived_kinds.fetch_or(kDerivedStreams, std::memory_order_release);
  }
  ForEachMarkerRangeCall(ctx, fn, data);
  ForEachHipStreamCall(ctx, fn, data);
}

void ResetDerivedKinds(ThreadState& t) noexcept {
  ResetMarkerRanges(t);
  ResetHipStreams(t);
}

}  // namespace rocprofiler_sdk
