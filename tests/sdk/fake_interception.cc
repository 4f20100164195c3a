// Test-only stand-in for the interception layer (issue 4 owns the real one,
// runtime/api_hook.cc): the generated symbol stubs (//codegen:symbol_wrappers)
// linked into a test binary call these Enter/Exit hooks, which number calls
// and hand them to the installed consumer; SetConsumerInterest flips the
// stubs' per-op active bytes. Enough to run the SDK against the real
// libhsa-runtime64 / libamdhip64 before the interception branch is merged.
#include <atomic>
#include <cstdint>

#include "hip_api_data.h"
#include "hsa_api_data.h"
#include "runtime/api_consumer.h"
#include "runtime/api_hook.h"

namespace {

std::atomic<roctracer::ApiConsumerFn> g_consumer{nullptr};
std::atomic<uint64_t> g_next_correlation{1};

void Report(uint32_t domain, uint32_t op, uint32_t phase, void* data,
            uint64_t correlation) {
  roctracer::ApiConsumerFn fn = g_consumer.load(std::memory_order_acquire);
  if (fn == nullptr) return;
  fn(roctracer::ApiCallInfo{domain, op, phase, correlation, 0, data});
}

}  // namespace

namespace roctracer {

void SetApiConsumer(ApiConsumerFn fn) noexcept {
  g_consumer.store(fn, std::memory_order_release);
}

bool SetConsumerInterest(uint32_t domain, uint32_t op, bool wanted) noexcept {
  std::atomic<uint8_t>* active = nullptr;
  if (domain == hook::kDomainHsaApi && op < HSA_API_ID_NUMBER) {
    active = &hook::g_hsa_api_active[op];
  } else if (domain == hook::kDomainHipApi && op < HIP_API_ID_NUMBER) {
    active = &hook::g_hip_api_active[op];
  } else {
    return false;  // rocTX is not intercepted by this stand-in
  }
  active->store(wanted ? 1 : 0, std::memory_order_relaxed);
  return true;
}

namespace hook {

void Enter(uint32_t domain, uint32_t op, void* data,
           CallFrame* frame) noexcept {
  const uint64_t id = g_next_correlation.fetch_add(1);
  frame->slots[0] = id;
  if (domain == kDomainHsaApi) {
    static_cast<hsa_api_data_t*>(data)->correlation_id = id;
  } else {
    static_cast<hip_api_data_t*>(data)->correlation_id = id;
  }
  Report(domain, op, 0, data, id);
}

void Exit(uint32_t domain, uint32_t op, void* data, CallFrame* frame) noexcept {
  Report(domain, op, 1, data, frame->slots[0]);
}

}  // namespace hook
}  // namespace roctracer
