// The consumer seam of api_consumer.h: one process-wide function pointer and
// per-op interest bytes kept by the domain registry (which ORs them into the
// interception layer's active bytes).
#include "runtime/intercept/api_consumer.h"

#include <atomic>

#include "runtime/activity/domain_registry.h"
#include "runtime/intercept/trace_guard.h"

namespace roctracer {
namespace {

std::atomic<ApiConsumerFn> g_consumer{nullptr};

}  // namespace

void SetApiConsumer(ApiConsumerFn fn) noexcept {
  g_consumer.store(fn, std::memory_order_release);
}

bool SetConsumerInterest(uint32_t domain, uint32_t op, bool wanted) noexcept {
  return SetConsumerWanted(domain, op, wanted);
}

ApiConsumerFn InstalledConsumer() noexcept {
  return g_consumer.load(std::memory_order_acquire);
}

ApiConsumerFn ConsumerFor(uint32_t domain, uint32_t op) noexcept {
  ApiConsumerFn fn = g_consumer.load(std::memory_order_acquire);
  if (fn == nullptr || !ConsumerWants(domain, op)) return nullptr;
  return fn;
}

}  // namespace roctracer
