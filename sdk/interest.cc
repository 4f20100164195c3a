#include "sdk/interest.h"

#include <cstdint>

#include "ext/prof_protocol.h"
#include "hip_api_id.h"
#include "hsa_api_id.h"
#include "roctracer_roctx.h"
#include "runtime/intercept/api_consumer.h"
#include "sdk/config_lock.h"
#include "sdk/dispatch.h"

namespace rocprofiler_sdk {
namespace {

// Number of active contexts tracing each (domain, API ID); guarded by
// ConfigMutex().
uint32_t g_hsa_refs[HSA_API_ID_NUMBER];
uint32_t g_hip_refs[HIP_API_ID_NUMBER];
uint32_t g_roctx_refs[ROCTX_API_ID_NUMBER];
bool g_consumer_installed = false;

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

void Update(const Context& ctx, int delta) noexcept {
  if (!g_consumer_installed) {
    roctracer::SetApiConsumer(&Consume);
    g_consumer_installed = true;
  }
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
      uint32_t* ref = Ref(domain, id);
      if (ref == nullptr) continue;  // e.g. roctxGetThreadId: never called
      if (delta > 0 && (*ref)++ == 0) {
        roctracer::SetConsumerInterest(domain, id, true);
      } else if (delta < 0 && *ref > 0 && --*ref == 0) {
        roctracer::SetConsumerInterest(domain, id, false);
      }
    }
  }
}

}  // namespace

void AddContextInterest(const Context& ctx) noexcept { Update(ctx, +1); }
void RemoveContextInterest(const Context& ctx) noexcept { Update(ctx, -1); }

}  // namespace rocprofiler_sdk
