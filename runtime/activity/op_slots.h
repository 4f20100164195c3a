// The registry's per-(domain, op) dispatch state, for the readers that must
// not pay a call for it: the hook's ENTER and EXIT (intercept/api_hook.cc),
// which inline TargetsFor and PoolsFor. Everything else reads it through
// domain_registry.h's functions, and only domain_registry.cc writes it (under
// ConfigMutex()).
#ifndef RUNTIME_ACTIVITY_OP_SLOTS_H_
#define RUNTIME_ACTIVITY_OP_SLOTS_H_

#include <atomic>
#include <cstdint>
#include <memory>

#include "runtime/activity/domain_registry.h"

namespace roctracer::activity {
namespace registry {

struct Domain {
  uint32_t op_count = 0;
  uint32_t domain_wide_count = 0;  // <= op_count (DomainWideOpCount)
  OpNameFn name_fn = nullptr;
  OpIdByNameFn id_by_name_fn = nullptr;
  // Everything a traced call's ENTER reads of its op, on one cache line of
  // its own: one line fetched per call, and no other op's (or other data's)
  // writes invalidating it while other threads make that call.
  struct alignas(64) OpSlots {
    std::atomic<const CallbackEntry*> callback;  // the program's
    std::atomic<pool::Pool*> program;
    std::atomic<pool::Pool*> tool;
    std::atomic<const CallbackEntry*> tool_callback;
    // The second front end's interest (api_consumer.h), OR-ed into `active`.
    std::atomic<uint8_t> consumer;
  };
  std::unique_ptr<OpSlots[]> slots;
  std::atomic<uint8_t>* active = nullptr;
  uint32_t active_count = 0;
};

extern std::atomic<Domain*> g_domains[ACTIVITY_DOMAIN_NUMBER];
// roctracer_start/stop: the program's callbacks and pools are skipped while
// stopped.
extern std::atomic<bool> g_started;
// The tool slot's counterpart (SetToolPaused).
extern std::atomic<bool> g_tool_paused;

inline Domain* Get(uint32_t domain) noexcept {
  if (domain >= ACTIVITY_DOMAIN_NUMBER) return nullptr;
  return g_domains[domain].load(std::memory_order_acquire);
}

// The op's line, its address taken once: the slot array's pointer is
// written before the domain is published and never after, but the compiler
// would load it again after each acquire load below.
[[gnu::always_inline]] inline const Domain::OpSlots& SlotsOf(
    const Domain* d, uint32_t op) noexcept {
  return d->slots.get()[op];
}

[[gnu::always_inline]] inline ActivityPools PoolsOf(
    const Domain::OpSlots& slots, bool started, bool tool_paused) noexcept {
  pool::Pool* program =
      started ? slots.program.load(std::memory_order_acquire) : nullptr;
  pool::Pool* tool =
      tool_paused ? nullptr : slots.tool.load(std::memory_order_acquire);
  return {program, tool != program ? tool : nullptr};
}

// ActivityPoolsFor (domain_registry.h), inline.
[[gnu::always_inline]] inline ActivityPools PoolsFor(uint32_t domain,
                                                     uint32_t op) noexcept {
  const Domain* d = Get(domain);
  if (d == nullptr || op >= d->op_count) return {nullptr, nullptr};
  return PoolsOf(SlotsOf(d, op), g_started.load(std::memory_order_relaxed),
                 g_tool_paused.load(std::memory_order_relaxed));
}

// ToolCallbackFor (domain_registry.h), inline: EXIT looks it up again.
[[gnu::always_inline]] inline const CallbackEntry* ToolCallbackFor(
    uint32_t domain, uint32_t op) noexcept {
  const Domain* d = Get(domain);
  if (d == nullptr || op >= d->op_count) return nullptr;
  if (g_tool_paused.load(std::memory_order_relaxed)) return nullptr;
  return SlotsOf(d, op).tool_callback.load(std::memory_order_acquire);
}

}  // namespace registry

// Everything a traced call's ENTER needs of its op, in one read of its line.
[[gnu::always_inline]] inline OpTargets TargetsFor(uint32_t domain,
                                                   uint32_t op) noexcept {
  const registry::Domain* d = registry::Get(domain);
  if (d == nullptr || op >= d->op_count) {
    return {nullptr, {nullptr, nullptr}, false, false};
  }
  const registry::Domain::OpSlots& slots = registry::SlotsOf(d, op);
  // Each flag read once (atomic loads are not merged by the compiler).
  const bool started = registry::g_started.load(std::memory_order_relaxed);
  const bool tool_paused =
      registry::g_tool_paused.load(std::memory_order_relaxed);
  return {started ? slots.callback.load(std::memory_order_acquire) : nullptr,
          registry::PoolsOf(slots, started, tool_paused),
          !tool_paused &&
              slots.tool_callback.load(std::memory_order_relaxed) != nullptr,
          slots.consumer.load(std::memory_order_relaxed) != 0};
}

}  // namespace roctracer::activity

#endif  // RUNTIME_ACTIVITY_OP_SLOTS_H_
