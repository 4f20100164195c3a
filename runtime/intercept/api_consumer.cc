// The consumer seam of api_consumer.h: one process-wide function pointer and
// per-op interest bytes kept by the domain registry (which ORs them into the
// interception layer's active bytes).
#include "runtime/intercept/api_consumer.h"

#include <atomic>

#include "ext/prof_protocol.h"
#include "runtime/activity/domain_registry.h"
#include "runtime/intercept/trace_guard.h"

namespace roctracer {

using activity::ConsumerWants;
using activity::SetConsumerWanted;

namespace {

std::atomic<TableObserverFn> g_table_observer{nullptr};

}  // namespace

namespace hook {
std::atomic<ApiConsumerFn> g_api_consumer{nullptr};
std::atomic<ApiRecordFn> g_api_record_consumer{nullptr};
}  // namespace hook
using hook::g_api_consumer;

void SetApiConsumer(ApiConsumerFn fn) noexcept {
  g_api_consumer.store(fn, std::memory_order_release);
}

void SetApiRecordConsumer(ApiRecordFn fn) noexcept {
  hook::g_api_record_consumer.store(fn, std::memory_order_release);
}

bool SetConsumerInterest(uint32_t domain, uint32_t op, bool wanted) noexcept {
  return SetConsumerWanted(domain, op, wanted);
}

namespace hook {
std::atomic<uint8_t> g_roctx_ids[kRoctxOpSlots + kRoctxRequestSlots];
}  // namespace hook

void SetRoctxIdsWanted(uint32_t domain, uint32_t op, uint8_t ids) noexcept {
  const bool roctx =
      domain == ACTIVITY_DOMAIN_ROCTX && op < hook::kRoctxOpSlots;
  const bool request =
      domain == kRoctxRequestDomain && op < hook::kRoctxRequestSlots;
  if (!roctx && !request) return;
  hook::g_roctx_ids[request ? hook::kRoctxOpSlots + op : op].store(
      ids, std::memory_order_relaxed);
}

ApiConsumerFn ConsumerFor(uint32_t domain, uint32_t op) noexcept {
  ApiConsumerFn fn = g_api_consumer.load(std::memory_order_acquire);
  if (fn == nullptr || !ConsumerWants(domain, op)) return nullptr;
  return fn;
}

void SetTableObserver(TableObserverFn fn) noexcept {
  g_table_observer.store(fn, std::memory_order_release);
}

void NotifyTablesRegistered(const char* library, uint64_t version,
                            uint64_t instance, void** tables,
                            uint64_t count) noexcept {
  if (TableObserverFn fn = g_table_observer.load(std::memory_order_acquire)) {
    fn(library, version, instance, tables, count);
  }
}

}  // namespace roctracer
