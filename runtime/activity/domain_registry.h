// Which operations each tracing domain has, their names, and the per-operation
// dispatch slots (callback, activity pool, "active" byte) the interception
// layer reads on every traced call.
//
// Read side (hot path): one acquire load of the domain pointer, a bounds check
// and one load per slot; no locks. Write side (enable/disable, registration):
// under ConfigMutex(). Domain objects are created once and never freed, so a
// reader holding a pointer can never see it dangle.
#ifndef RUNTIME_ACTIVITY_DOMAIN_REGISTRY_H_
#define RUNTIME_ACTIVITY_DOMAIN_REGISTRY_H_

#include <roctracer.h>

#include <atomic>
#include <cstdint>
#include <mutex>

namespace roctracer::pool {
class Pool;
}  // namespace roctracer::pool

namespace roctracer::activity {

using OpNameFn = const char* (*)(uint32_t op);
using OpIdByNameFn = bool (*)(const char* name, uint32_t* op);

// Registers the operation table of `domain` (the generated HSA_API /
// HIP_API / KFD_API tables come through this, api_domains.cc). May be called
// once per domain, or again with the same count (e.g. a second library
// instance); returns false for an invalid domain, zero ops, NULL functions or a
// conflicting count. The built-in domains (HSA_OPS, HIP_OPS, EXT_API, ROCTX,
// HSA_EVT) are registered by the core itself. `domain_wide_count` (0:
// op_count) bounds what enabling the whole domain enables (DomainWideOpCount).
bool RegisterApiDomain(uint32_t domain, uint32_t op_count, OpNameFn name_fn,
                       OpIdByNameFn id_by_name_fn,
                       uint32_t domain_wide_count = 0);

// Registers the bytes the interception code tests before doing any tracing
// work: flags[op] is kept at 1 exactly when tracing is started and op has a
// callback or an activity pool, 0 otherwise. Set from the current state at
// registration. One array per domain (a later call replaces it); `count`
// beyond the domain's op count is ignored. Returns false for an invalid
// domain or NULL flags.
bool RegisterActiveFlags(uint32_t domain, std::atomic<uint8_t>* flags,
                         uint32_t count);

// Forgets `flags` if it is the array registered for `domain` (its owner is
// going away).
void UnregisterActiveFlags(uint32_t domain, std::atomic<uint8_t>* flags);

// Number of operations of `domain` (0: invalid or nothing registered).
uint32_t OpCount(uint32_t domain) noexcept;
// The ops below this are the ones a program's domain-wide enable
// (roctracer_enable_domain_callback / _activity, roctracer_enable_callback /
// _activity) enables: HIP_API's up to HIP_API_ID_LAST, the last ID HIP's own
// hip_prof_str.h numbers, so a client compiled against ROCm's headers never
// receives a larger one; the ops after it are enabled by ID only. Every op of
// the other domains. Disables, the tool slot and the rocprofiler-sdk front end
// cover every op.
uint32_t DomainWideOpCount(uint32_t domain) noexcept;
// NULL when unknown.
const char* OpName(uint32_t domain, uint32_t op) noexcept;
bool OpIdByName(uint32_t domain, const char* name, uint32_t* op) noexcept;

// ---- dispatch slots -------------------------------------------------------

struct CallbackEntry {
  activity_rtapi_callback_t fn;
  void* arg;
};

// The callback of (domain, op), or NULL when none is enabled or tracing is
// stopped. Entries are immutable and live until exit, so fn and arg are a
// consistent pair.
const CallbackEntry* CallbackFor(uint32_t domain, uint32_t op) noexcept;

// The pool activity records of (domain, op) go to, or NULL when none or when
// tracing is stopped. A pool closed concurrently stays a valid object whose
// Write() returns false.
pool::Pool* ActivityPoolFor(uint32_t domain, uint32_t op) noexcept;

// Every pool the records of (domain, op) go to. `program`: roctracer's public
// enables (ActivityPoolFor). `tool`: a private second slot for a tracer that
// wraps the whole program (roctrace's libroctrace_tool.so), so that a program
// which is itself a roctracer client (a profiler such as Kineto enabling,
// disabling and closing its own pools, calling roctracer_stop) and the tool
// both get every record: the public API never changes the tool slot, and
// roctracer_start/stop do not gate it (roctxProfilerPause/Resume, requests
// to any profiling tool, do: SetToolPaused). NULL where none; `tool` is NULL
// when it is the same pool as `program` (written once).
struct ActivityPools {
  pool::Pool* program;
  pool::Pool* tool;
  bool any() const noexcept { return program != nullptr || tool != nullptr; }
};
ActivityPools ActivityPoolsFor(uint32_t domain, uint32_t op) noexcept;
pool::Pool* ToolPoolFor(uint32_t domain, uint32_t op) noexcept;

// The tool's callback of (domain, op): the tool slot's counterpart of
// CallbackFor, called at EXIT only, gated like the tool's pools (not by
// roctracer_start/stop, by SetToolPaused). NULL when none.
const CallbackEntry* ToolCallbackFor(uint32_t domain, uint32_t op) noexcept;

// CallbackFor, ActivityPoolsFor, whether a tool callback is set and whether
// the second front end wants the op (ConsumerWants), in one look-up: what a
// traced call's ENTER needs (TargetsFor, inline in op_slots.h).
struct OpTargets {
  const CallbackEntry* callback;
  ActivityPools pools;
  bool tool_callback;
  bool consumer_wanted;
};

// ---- configuration (API layer only) ---------------------------------------

// Serialises every configuration change.
std::mutex& ConfigMutex() noexcept;

// Both require ConfigMutex() held and a valid (domain, op). `entry` NULL or
// `pool` NULL disables.
void SetCallbackLocked(uint32_t domain, uint32_t op,
                       activity_rtapi_callback_t fn, void* arg);
void SetActivityPoolLocked(uint32_t domain, uint32_t op, pool::Pool* pool);
// The tool slot of ActivityPools; same requirements.
void SetToolPoolLocked(uint32_t domain, uint32_t op, pool::Pool* pool);
// The tool's callback (ToolCallbackFor); fn NULL disables.
void SetToolCallbackLocked(uint32_t domain, uint32_t op,
                           activity_rtapi_callback_t fn, void* arg);

// Clears every slot (public and tool) that points at `pool`. Requires
// ConfigMutex().
void DisableActivitiesOfPoolLocked(pool::Pool* pool);

// The second front end's per-op interest (api_consumer.h). The active byte of
// (domain, op) is the OR of this and roctracer's own enables; roctracer_stop
// does not affect it. False for an unknown (domain, op).
bool SetConsumerWanted(uint32_t domain, uint32_t op, bool wanted);
bool ConsumerWants(uint32_t domain, uint32_t op) noexcept;

// The value of an op's active byte (api_hook.h: non-zero, the stub calls
// Enter/Exit): kActiveOwn while roctracer's own callbacks, pools or the
// tool's slots want the call, kActiveConsumer while the second front end
// does, both OR-ed. A byte of kActiveConsumer alone tells the hook's ENTER
// that it has no slot to look up.
enum ActiveBits : uint8_t { kActiveOwn = 1, kActiveConsumer = 2 };

// roctracer_start / roctracer_stop: the callbacks and the program's pools.
void SetTracingStarted(bool started);
bool TracingStarted() noexcept;

// roctxProfilerPause / Resume, a request to any profiling tool: pauses the
// tool slot of ActivityPools as well (roctracer_stop does not).
void SetToolPaused(bool paused);

}  // namespace roctracer::activity

#endif  // RUNTIME_ACTIVITY_DOMAIN_REGISTRY_H_
