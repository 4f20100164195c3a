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

// RoctxIdsWanted of the rocTX ops (ACTIVITY_DOMAIN_ROCTX), then of the
// requests; an op past them wants none.
constexpr uint32_t kRoctxOpSlots = 64;
constexpr uint32_t kRoctxRequestSlots = 16;
std::atomic<uint8_t> g_roctx_ids[kRoctxOpSlots + kRoctxRequestSlots];

std::atomic<uint8_t>* RoctxIdsSlot(uint32_t domain, uint32_t op) noexcept {
  if (domain == ACTIVITY_DOMAIN_ROCTX && op < kRoctxOpSlots) {
    return &g_roctx_ids[op];
  }
  if (domain == kRoctxRequestDomain && op < kRoctxRequestSlots) {
    return &g_roctx_ids[kRoctxOpSlots + op];
  }
  return nullptr;
}

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

void SetRoctxIdsWanted(uint32_t domain, uint32_t op, uint8_t ids) noexcept {
  if (std::atomic<uint8_t>* slot = RoctxIdsSlot(domain, op)) {
    slot->store(ids, std::memory_order_relaxed);
  }
}

uint8_t RoctxIdsWanted(uint32_t domain, uint32_t op) noexcept {
  const std::atomic<uint8_t>* slot = RoctxIdsSlot(domain, op);
  return slot != nullptr ? slot->load(std::memory_order_relaxed) : 0;
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
