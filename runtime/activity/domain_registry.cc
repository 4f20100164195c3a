#include "runtime/activity/domain_registry.h"

#include <pthread.h>

#include <initializer_list>
#include <memory>
#include <mutex>
#include <new>
#include <vector>

#include "runtime/activity/builtin_domains.h"
#include "runtime/activity/op_slots.h"
#include "runtime/linking/got_patch.h"

namespace roctracer::activity {

using pool::Pool;

namespace registry {

// Constant-initialised, so usable from any static initialiser and on the hot
// path without a guard variable.
std::atomic<Domain*> g_domains[ACTIVITY_DOMAIN_NUMBER] = {};
std::atomic<bool> g_started{true};
std::atomic<bool> g_tool_paused{false};

}  // namespace registry

using registry::Domain;
using registry::g_domains;
using registry::g_started;
using registry::g_tool_paused;
using registry::Get;
using registry::PoolsFor;

namespace {

std::mutex g_config_mutex;

// A forked child has one thread: if another thread of the parent held the
// configuration mutex at fork, the child would block on it forever. Nothing
// else runs in the child at that point, so it starts over with a new one.
void ResetConfigMutexInChild() { new (&g_config_mutex) std::mutex(); }

struct RegisterForkHandler {
  RegisterForkHandler() {
    pthread_atfork(nullptr, nullptr, &ResetConfigMutexInChild);
  }
} g_register_fork_handler;

// Callback entries are interned and never freed: a reader may still hold one
// after it was replaced. The set is bounded by the distinct (fn, arg) pairs a
// program uses.
std::vector<std::unique_ptr<CallbackEntry>>* g_entries = nullptr;

const CallbackEntry* InternLocked(activity_rtapi_callback_t fn, void* arg) {
  if (g_entries == nullptr)
    g_entries = new std::vector<std::unique_ptr<CallbackEntry>>();
  for (const auto& e : *g_entries) {
    if (e->fn == fn && e->arg == arg) return e.get();
  }
  g_entries->push_back(std::make_unique<CallbackEntry>(CallbackEntry{fn, arg}));
  return g_entries->back().get();
}

}  // namespace
}  // namespace roctracer::activity

namespace roctracer::activity {
namespace {

void UpdateActiveLocked(Domain* d, uint32_t op) {
  if (d->active == nullptr || op >= d->active_count) return;
  const bool own =
      (g_started.load(std::memory_order_relaxed) &&
       (d->slots[op].callback.load(std::memory_order_relaxed) != nullptr ||
        d->slots[op].program.load(std::memory_order_relaxed) != nullptr)) ||
      (!g_tool_paused.load(std::memory_order_relaxed) &&
       (d->slots[op].tool.load(std::memory_order_relaxed) != nullptr ||
        d->slots[op].tool_callback.load(std::memory_order_relaxed) != nullptr));
  const bool consumer =
      d->slots[op].consumer.load(std::memory_order_relaxed) != 0;
  const uint8_t value = static_cast<uint8_t>((own ? kActiveOwn : 0) |
                                             (consumer ? kActiveConsumer : 0));
  // Objects loaded since the last scan (by a dlopen we did not see) get
  // their calls redirected before the first call that should be traced.
  if (value != 0 && d->active[op].load(std::memory_order_relaxed) == 0)
    got::RescanIfChanged();
  d->active[op].store(value, std::memory_order_release);
}

void UpdateAllActiveLocked() {
  for (auto& slot : g_domains) {
    Domain* d = slot.load(std::memory_order_relaxed);
    if (d == nullptr) continue;
    for (uint32_t op = 0; op < d->op_count; ++op) UpdateActiveLocked(d, op);
  }
}

bool RegisterLocked(uint32_t domain, uint32_t op_count, OpNameFn name_fn,
                    OpIdByNameFn id_by_name_fn, uint32_t domain_wide_count) {
  if (domain >= ACTIVITY_DOMAIN_NUMBER || op_count == 0 || name_fn == nullptr ||
      id_by_name_fn == nullptr) {
    return false;
  }
  if (domain_wide_count == 0 || domain_wide_count > op_count) {
    domain_wide_count = op_count;
  }
  Domain* existing = g_domains[domain].load(std::memory_order_relaxed);
  if (existing != nullptr) {
    if (existing->op_count != op_count) return false;
    existing->domain_wide_count = domain_wide_count;
    existing->name_fn = name_fn;
    existing->id_by_name_fn = id_by_name_fn;
    return true;
  }
  auto* d = new (std::nothrow) Domain();
  if (d == nullptr) return false;
  d->op_count = op_count;
  d->domain_wide_count = domain_wide_count;
  d->name_fn = name_fn;
  d->id_by_name_fn = id_by_name_fn;
  d->slots.reset(new (std::nothrow) Domain::OpSlots[op_count]);
  if (!d->slots) {
    delete d;
    return false;
  }
  for (uint32_t op = 0; op < op_count; ++op) {
    d->slots[op].callback.store(nullptr, std::memory_order_relaxed);
    d->slots[op].program.store(nullptr, std::memory_order_relaxed);
    d->slots[op].tool.store(nullptr, std::memory_order_relaxed);
    d->slots[op].tool_callback.store(nullptr, std::memory_order_relaxed);
    d->slots[op].consumer.store(0, std::memory_order_relaxed);
  }
  g_domains[domain].store(d, std::memory_order_release);
  return true;
}

void EnsureBuiltins() {
  static std::once_flag once;
  std::call_once(once, [] { RegisterBuiltinDomains(); });
}

}  // namespace

// Registering the built-in domains takes the mutex, so it must happen before
// the caller takes it: every locker goes through here first.
std::mutex& ConfigMutex() noexcept {
  EnsureBuiltins();
  return g_config_mutex;
}

bool RegisterApiDomain(uint32_t domain, uint32_t op_count, OpNameFn name_fn,
                       OpIdByNameFn id_by_name_fn, uint32_t domain_wide_count) {
  std::lock_guard<std::mutex> lock(g_config_mutex);
  return RegisterLocked(domain, op_count, name_fn, id_by_name_fn,
                        domain_wide_count);
}

bool RegisterActiveFlags(uint32_t domain, std::atomic<uint8_t>* flags,
                         uint32_t count) {
  EnsureBuiltins();
  if (domain >= ACTIVITY_DOMAIN_NUMBER || flags == nullptr) return false;
  std::lock_guard<std::mutex> lock(g_config_mutex);
  Domain* d = g_domains[domain].load(std::memory_order_relaxed);
  if (d == nullptr) return false;
  d->active = flags;
  d->active_count = count < d->op_count ? count : d->op_count;
  for (uint32_t op = 0; op < d->active_count; ++op) UpdateActiveLocked(d, op);
  return true;
}

void UnregisterActiveFlags(uint32_t domain, std::atomic<uint8_t>* flags) {
  if (domain >= ACTIVITY_DOMAIN_NUMBER) return;
  std::lock_guard<std::mutex> lock(ConfigMutex());
  Domain* d = g_domains[domain].load(std::memory_order_relaxed);
  if (d == nullptr || d->active != flags) return;
  d->active = nullptr;
  d->active_count = 0;
}

uint32_t OpCount(uint32_t domain) noexcept {
  EnsureBuiltins();
  Domain* d = Get(domain);
  return d == nullptr ? 0 : d->op_count;
}

uint32_t DomainWideOpCount(uint32_t domain) noexcept {
  EnsureBuiltins();
  Domain* d = Get(domain);
  return d == nullptr ? 0 : d->domain_wide_count;
}

const char* OpName(uint32_t domain, uint32_t op) noexcept {
  EnsureBuiltins();
  Domain* d = Get(domain);
  if (d == nullptr || op >= d->op_count) return nullptr;
  return d->name_fn(op);
}

bool OpIdByName(uint32_t domain, const char* name, uint32_t* op) noexcept {
  EnsureBuiltins();
  Domain* d = Get(domain);
  if (d == nullptr || name == nullptr || op == nullptr) return false;
  uint32_t found = 0;
  if (!d->id_by_name_fn(name, &found) || found >= d->op_count) return false;
  *op = found;
  return true;
}

const CallbackEntry* CallbackFor(uint32_t domain, uint32_t op) noexcept {
  Domain* d = Get(domain);
  if (d == nullptr || op >= d->op_count) return nullptr;
  if (!g_started.load(std::memory_order_relaxed)) return nullptr;
  return d->slots[op].callback.load(std::memory_order_acquire);
}

Pool* ActivityPoolFor(uint32_t domain, uint32_t op) noexcept {
  Domain* d = Get(domain);
  if (d == nullptr || op >= d->op_count) return nullptr;
  if (!g_started.load(std::memory_order_relaxed)) return nullptr;
  return d->slots[op].program.load(std::memory_order_acquire);
}

ActivityPools ActivityPoolsFor(uint32_t domain, uint32_t op) noexcept {
  return PoolsFor(domain, op);
}

const CallbackEntry* ToolCallbackFor(uint32_t domain, uint32_t op) noexcept {
  return registry::ToolCallbackFor(domain, op);
}

Pool* ToolPoolFor(uint32_t domain, uint32_t op) noexcept {
  Domain* d = Get(domain);
  if (d == nullptr || op >= d->op_count) return nullptr;
  return d->slots[op].tool.load(std::memory_order_acquire);
}

void SetCallbackLocked(uint32_t domain, uint32_t op,
                       activity_rtapi_callback_t fn, void* arg) {
  Domain* d = Get(domain);
  if (d == nullptr || op >= d->op_count) return;
  d->slots[op].callback.store(fn == nullptr ? nullptr : InternLocked(fn, arg),
                              std::memory_order_release);
  UpdateActiveLocked(d, op);
}

void SetActivityPoolLocked(uint32_t domain, uint32_t op, Pool* pool) {
  Domain* d = Get(domain);
  if (d == nullptr || op >= d->op_count) return;
  d->slots[op].program.store(pool, std::memory_order_release);
  UpdateActiveLocked(d, op);
}

void SetToolPoolLocked(uint32_t domain, uint32_t op, Pool* pool) {
  Domain* d = Get(domain);
  if (d == nullptr || op >= d->op_count) return;
  d->slots[op].tool.store(pool, std::memory_order_release);
  UpdateActiveLocked(d, op);
}

void SetToolCallbackLocked(uint32_t domain, uint32_t op,
                           activity_rtapi_callback_t fn, void* arg) {
  Domain* d = Get(domain);
  if (d == nullptr || op >= d->op_count) return;
  d->slots[op].tool_callback.store(
      fn == nullptr ? nullptr : InternLocked(fn, arg),
      std::memory_order_release);
  UpdateActiveLocked(d, op);
}

void DisableActivitiesOfPoolLocked(Pool* pool) {
  for (auto& slot : g_domains) {
    Domain* d = slot.load(std::memory_order_relaxed);
    if (d == nullptr) continue;
    for (uint32_t op = 0; op < d->op_count; ++op) {
      bool changed = false;
      for (std::atomic<Pool*>* p :
           {&d->slots[op].program, &d->slots[op].tool}) {
        if (p->load(std::memory_order_relaxed) == pool) {
          p->store(nullptr, std::memory_order_release);
          changed = true;
        }
      }
      if (changed) UpdateActiveLocked(d, op);
    }
  }
}

bool SetConsumerWanted(uint32_t domain, uint32_t op, bool wanted) {
  std::lock_guard<std::mutex> lock(ConfigMutex());
  Domain* d = Get(domain);
  if (d == nullptr || op >= d->op_count) return false;
  d->slots[op].consumer.store(wanted ? 1 : 0, std::memory_order_release);
  UpdateActiveLocked(d, op);
  return true;
}

bool ConsumerWants(uint32_t domain, uint32_t op) noexcept {
  Domain* d = Get(domain);
  if (d == nullptr || op >= d->op_count) return false;
  return d->slots[op].consumer.load(std::memory_order_relaxed) != 0;
}

void SetTracingStarted(bool started) {
  std::lock_guard<std::mutex> lock(ConfigMutex());
  g_started.store(started, std::memory_order_release);
  UpdateAllActiveLocked();
}

void SetToolPaused(bool paused) {
  std::lock_guard<std::mutex> lock(ConfigMutex());
  g_tool_paused.store(paused, std::memory_order_release);
  UpdateAllActiveLocked();
}

bool TracingStarted() noexcept {
  return g_started.load(std::memory_order_relaxed);
}

}  // namespace roctracer::activity
