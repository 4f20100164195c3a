#include "sdk/interest.h"

#include <cstdint>

#include "ext/prof_protocol.h"
#include "hip_api_id.h"
#include "hsa_api_id.h"
#include "rocprofiler-sdk/marker/api_id.h"
#include "roctracer_roctx.h"
#include "runtime/intercept/api_consumer.h"
#include "runtime/private/roctx_link.h"
#include "sdk/config_lock.h"
#include "sdk/derived_kinds.h"
#include "sdk/dispatch.h"
#include "sdk/kinds.h"
#include "sdk/marker_ranges.h"
#include "sdk/memory_allocation.h"
#include "sdk/runtime_initialization.h"

namespace rocprofiler_sdk {
namespace {

// Number of active contexts tracing each (domain, API ID); guarded by
// ConfigMutex().
uint32_t g_hsa_refs[HSA_API_ID_NUMBER];
uint32_t g_hip_refs[HIP_API_ID_NUMBER];
uint32_t g_roctx_refs[ROCTX_API_ID_NUMBER];
bool g_consumer_installed = false;
// Whether every traced call of the runtimes is wanted until the first one
// comes (ArmFirstUse).
bool g_first_use_armed = false;
// Bit i: active context i has a service that ConsumeBufferedFirst would hand
// to ConsumeAny on the traced-call path (a callback of an API kind or of
// MEMORY_ALLOCATION, an *_API_EXT or MEMORY_ALLOCATION buffer, external-ID
// requests). While none has, the consumer is ConsumeBufferedFirst (or its
// variant keeping rocTX ranges, ContextsConsumer), else
// ConsumeAny, so that a callback does not pay for the buffer-only check.
uint64_t g_general_contexts = 0;

bool HasGeneralServices(const Context& ctx) noexcept {
  constexpr int kMemory = ROCPROFILER_CALLBACK_TRACING_MEMORY_ALLOCATION;
  if (ctx.request.configured.load(std::memory_order_acquire) ||
      HasDerivedServices(ctx) ||
      ctx.services[kMemory].configured.load(std::memory_order_acquire) ||
      ctx.buffer_services[kMemory].configured.load(std::memory_order_acquire)) {
    return true;
  }
  for (int kind = 1; kind <= kLastBufferApiKind; ++kind) {
    const int ext = ExtBufferKindOf(kind);
    if (ctx.services[kind].configured.load(std::memory_order_acquire) ||
        (ext != 0 &&
         ctx.buffer_services[ext].configured.load(std::memory_order_acquire))) {
      return true;
    }
  }
  return false;
}

// Bit i: active context i has a service other than buffer tracing of the
// API kinds and of CORRELATION_ID_RETIREMENT (a callback of any kind, GPU
// work, code objects, ...): services that look up the API call in progress
// on the SDK's frame stack (the GPU work a call submitted holds its
// correlation ID's retirement there).
uint64_t g_framed_contexts = 0;

bool OnlyRecordsApiCalls(const Context& ctx) noexcept {
  if (HasGeneralServices(ctx)) return false;
  for (int kind = 1; kind < kKindCount; ++kind) {
    if (ctx.services[kind].configured.load(std::memory_order_acquire)) {
      return false;
    }
  }
  for (int kind = kLastBufferApiKind + 1; kind < kBufferKindCount; ++kind) {
    if (kind != ROCPROFILER_BUFFER_TRACING_CORRELATION_ID_RETIREMENT &&
        ctx.buffer_services[kind].configured.load(std::memory_order_acquire)) {
      return false;
    }
  }
  return true;
}

roctracer::ApiConsumerFn ContextsConsumer() noexcept {
  if (g_general_contexts != 0) return &ConsumeAny;
  // Once rocTX pushes and pops (starts and stops) are watched for good,
  // they must reach the range bookkeeping (ConsumeAny's derived kinds);
  // the other calls need not.
  return g_pairs_watched.load(std::memory_order_acquire)
             ? &ConsumeBufferedFirstKeepingRanges
             : &ConsumeBufferedFirst;
}

// While every started context only buffer-traces API calls, the calls only
// the SDK wants take the interception layer's record path: no ENTER, one
// record at EXIT (RecordBufferedCall). Not while the first-use consumer
// must see ENTER (ArmFirstUse).
roctracer::ApiRecordFn ContextsRecordConsumer() noexcept {
  return g_consumer_installed && !g_first_use_armed &&
                 (g_general_contexts | g_framed_contexts) == 0
             ? &RecordBufferedCall
             : nullptr;
}

template <typename Fn>
void ForEachApiId(Fn&& fn) noexcept {
  for (uint32_t id = 0; id < HSA_API_ID_NUMBER; ++id)
    fn(ACTIVITY_DOMAIN_HSA_API, id);
  for (uint32_t id = 0; id < HIP_API_ID_NUMBER; ++id)
    fn(ACTIVITY_DOMAIN_HIP_API, id);
  for (uint32_t id = 0; id < ROCTX_API_ID_NUMBER; ++id)
    fn(ACTIVITY_DOMAIN_ROCTX, id);
}

uint32_t* Ref(uint32_t domain, uint32_t id) noexcept {
  switch (domain) {
    case ACTIVITY_DOMAIN_HSA_API:
      return id < HSA_API_ID_NUMBER ? &g_hsa_refs[id] : nullptr;
    case ACTIVITY_DOMAIN_HIP_API:
      return id < HIP_API_ID_NUMBER ? &g_hip_refs[id] : nullptr;
    case ACTIVITY_DOMAIN_ROCTX:
      return id < ROCTX_API_ID_NUMBER ? &g_roctx_refs[id] : nullptr;
    default:
      return nullptr;
  }
}

void Count(uint32_t domain, uint32_t id, int delta) noexcept {
  uint32_t* ref = Ref(domain, id);
  if (ref == nullptr) return;
  if (delta > 0 && (*ref)++ == 0) {
    roctracer::SetConsumerInterest(domain, id, true);
  } else if (delta < 0 && *ref > 0 && --*ref == 0) {
    roctracer::SetConsumerInterest(domain, id, false);
  }
}

// Number of active contexts tracing each rocTX call (`range` false) or the
// range it opens (`range` true): which IDs the bridge draws for the call
// (RoctxIdsWanted). rocTX ops first, then the requests; guarded by
// ConfigMutex().
constexpr uint32_t kRoctxSlots =
    ROCTX_API_ID_NUMBER + roctracer::kRoctxRequestCount;
uint32_t g_roctx_id_refs[2][kRoctxSlots];

// MARKER_CORE_API numbers roctxGetThreadId past the rocTX ops (DomainIdOf):
// it is the request.
void CountRoctxIds(uint32_t domain, uint32_t id, bool range,
                   int delta) noexcept {
  if (domain == ACTIVITY_DOMAIN_ROCTX && id >= ROCTX_API_ID_NUMBER) {
    domain = roctracer::kRoctxRequestDomain;
    id = roctracer::kRoctxGetThreadId;
  }
  uint32_t slot = 0;
  if (domain == ACTIVITY_DOMAIN_ROCTX) {
    slot = id;
  } else if (domain == roctracer::kRoctxRequestDomain &&
             id < roctracer::kRoctxRequestCount) {
    slot = ROCTX_API_ID_NUMBER + id;
  } else {
    return;
  }
  uint32_t& ref = g_roctx_id_refs[range ? 1 : 0][slot];
  if (delta > 0) {
    ++ref;
  } else if (ref > 0) {
    --ref;
  }
  roctracer::SetRoctxIdsWanted(
      domain, id,
      static_cast<uint8_t>(
          (g_roctx_id_refs[0][slot] != 0 ? roctracer::kRoctxCallId : 0) |
          (g_roctx_id_refs[1][slot] != 0 ? roctracer::kRoctxRangeId : 0)));
}

// The ranges `ctx` traces, by the rocTX call that opens them.
void CountRoctxRangeIds(const Context& ctx, int delta) noexcept {
  constexpr int kRange = ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_RANGE_API;
  const bool callback =
      ctx.services[kRange].configured.load(std::memory_order_acquire);
  const bool buffer =
      ctx.buffer_services[kRange].configured.load(std::memory_order_acquire);
  if (!callback && !buffer) return;
  const struct {
    int32_t op;
    uint32_t domain;
    uint32_t id;
  } kOpeners[] = {
      {ROCPROFILER_MARKER_CORE_RANGE_API_ID_roctxMarkA, ACTIVITY_DOMAIN_ROCTX,
       ROCTX_API_ID_roctxMarkA},
      {ROCPROFILER_MARKER_CORE_RANGE_API_ID_roctxThreadRangeA,
       ACTIVITY_DOMAIN_ROCTX, ROCTX_API_ID_roctxRangePushA},
      {ROCPROFILER_MARKER_CORE_RANGE_API_ID_roctxProcessRangeA,
       ACTIVITY_DOMAIN_ROCTX, ROCTX_API_ID_roctxRangeStartA},
      {ROCPROFILER_MARKER_CORE_RANGE_API_ID_roctxGetThreadId,
       roctracer::kRoctxRequestDomain, roctracer::kRoctxGetThreadId},
  };
  for (const auto& o : kOpeners) {
    if ((callback && ctx.services[kRange].Traces(o.op)) ||
        (buffer && ctx.buffer_services[kRange].Traces(o.op))) {
      CountRoctxIds(o.domain, o.id, true, delta);
    }
  }
}

// MEMORY_ALLOCATION: the HSA calls of each operation the context's callback
// or buffer service traces.
void UpdateMemory(const Context& ctx, int delta) noexcept {
  constexpr int kKind = ROCPROFILER_CALLBACK_TRACING_MEMORY_ALLOCATION;
  const bool callback =
      ctx.services[kKind].configured.load(std::memory_order_acquire);
  const bool buffer =
      ctx.buffer_services[kKind].configured.load(std::memory_order_acquire);
  if (!callback && !buffer) return;
  const KindInfo* info = FindKind(kKind);
  for (int32_t op = info->first_op; op < info->last_op; ++op) {
    if (callback && ctx.services[kKind].Traces(op)) {
      ForEachMemoryApi(
          op,
          [](uint32_t id, void* d) {
            Count(ACTIVITY_DOMAIN_HSA_API, id, *static_cast<int*>(d));
          },
          &delta);
    }
    if (buffer && ctx.buffer_services[kKind].Traces(op)) {
      ForEachMemoryApi(
          op,
          [](uint32_t id, void* d) {
            Count(ACTIVITY_DOMAIN_HSA_API, id, *static_cast<int*>(d));
          },
          &delta);
    }
  }
}

void Update(const Context& ctx, int delta) noexcept {
  const uint64_t bit = uint64_t{1} << (&ctx - g_contexts);
  if (delta > 0 && HasGeneralServices(ctx)) {
    g_general_contexts |= bit;
  } else if (delta < 0) {
    g_general_contexts &= ~bit;
  }
  if (delta > 0 && !OnlyRecordsApiCalls(ctx)) {
    g_framed_contexts |= bit;
  } else if (delta < 0) {
    g_framed_contexts &= ~bit;
  }
  // The call tables exist before ConsumeBufferedFirst or RecordBufferedCall
  // can run (MapCallBuilt).
  (void)MapCall(ACTIVITY_DOMAIN_HIP_API, 0);
  roctracer::SetApiConsumer(ContextsConsumer());
  g_consumer_installed = true;
  roctracer::SetApiRecordConsumer(ContextsRecordConsumer());
  // Callback services of every kind, then buffer services of the API kinds
  // (numbered as the callback kinds).
  for (int n = 1; n < kKindCount + kLastBufferApiKind; ++n) {
    const bool buffered = n >= kKindCount;
    const int kind = buffered ? n - kKindCount + 1 : n;
    const bool configured =
        buffered
            ? ctx.buffer_services[kind].configured.load(
                  std::memory_order_acquire)
            : ctx.services[kind].configured.load(std::memory_order_acquire);
    if (!configured) continue;
    const KindInfo* info = FindKind(kind);
    for (int32_t op = info->first_op; op < info->last_op; ++op) {
      uint32_t domain = 0, id = 0;
      const bool traces = buffered ? ctx.buffer_services[kind].Traces(op)
                                   : ctx.services[kind].Traces(op);
      if (!traces || !DomainIdOf(kind, op, &domain, &id)) continue;
      // No reference for e.g. roctxGetThreadId: never called.
      Count(domain, id, delta);
      CountRoctxIds(domain, id, false, delta);
    }
  }
  // The API kinds with arguments (*_API_EXT): the calls of their API kind.
  for (int kind = 1; kind <= kLastBufferApiKind; ++kind) {
    const int ext = ExtBufferKindOf(kind);
    if (ext == 0 ||
        !ctx.buffer_services[ext].configured.load(std::memory_order_acquire)) {
      continue;
    }
    const KindInfo* info = FindKind(kind);
    for (int32_t op = info->first_op; op < info->last_op; ++op) {
      uint32_t domain = 0, id = 0;
      if (!ctx.buffer_services[ext].Traces(op) ||
          !DomainIdOf(kind, op, &domain, &id)) {
        continue;
      }
      Count(domain, id, delta);
    }
  }
  UpdateMemory(ctx, delta);
  CountRoctxRangeIds(ctx, delta);
  ForEachDerivedCall(
      ctx,
      [](uint32_t domain, uint32_t id, void* d) {
        Count(domain, id, *static_cast<int*>(d));
      },
      &delta);
  UpdateRuntimeInitWatch(ctx, delta);
}

}  // namespace

void AddContextInterest(const Context& ctx) noexcept { Update(ctx, +1); }

void CountInterest(uint32_t domain, uint32_t id, int delta) noexcept {
  Count(domain, id, delta);
}

bool ArmFirstUse(roctracer::ApiConsumerFn first) noexcept {
  std::lock_guard<std::mutex> lock(ConfigMutex());
  if (g_consumer_installed) return false;
  bool all = true;
  ForEachApiId([&](uint32_t domain, uint32_t id) {
    // HIP's compiler entry points (__hipRegisterFatBinary, ...) run from the
    // program's static constructors, before its other globals may exist:
    // they are no runtime initialization and start no tool.
    if (MapCall(domain, id).kind ==
        ROCPROFILER_CALLBACK_TRACING_HIP_COMPILER_API)
      return;
    if (!roctracer::SetConsumerInterest(domain, id, true)) all = false;
  });
  if (!all) {
    ForEachApiId([](uint32_t domain, uint32_t id) {
      roctracer::SetConsumerInterest(domain, id, false);
    });
    return false;
  }
  g_first_use_armed = true;
  roctracer::SetApiRecordConsumer(nullptr);
  roctracer::SetApiConsumer(first);
  return true;
}

bool ContextsWant(uint32_t domain, uint32_t id) noexcept {
  std::lock_guard<std::mutex> lock(ConfigMutex());
  if (domain == roctracer::kRoctxRequestDomain) return g_consumer_installed;
  const uint32_t* ref = Ref(domain, id);
  return ref != nullptr && *ref > 0;
}

void DisarmFirstUse() noexcept {
  std::lock_guard<std::mutex> lock(ConfigMutex());
  if (!g_first_use_armed) return;
  g_first_use_armed = false;
  ForEachApiId([](uint32_t domain, uint32_t id) {
    const uint32_t* ref = Ref(domain, id);
    if (ref == nullptr || *ref == 0)
      roctracer::SetConsumerInterest(domain, id, false);
  });
  // From now on only the contexts' interest reaches the consumer.
  roctracer::SetApiConsumer(g_consumer_installed ? ContextsConsumer()
                                                 : nullptr);
  roctracer::SetApiRecordConsumer(ContextsRecordConsumer());
}
void RemoveContextInterest(const Context& ctx) noexcept { Update(ctx, -1); }

}  // namespace rocprofiler_sdk
