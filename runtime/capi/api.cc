// The exported C API. Each function validates its arguments, records a message
// for roctracer_error_string() on failure and returns the documented status;
// the behaviour itself lives in the registry, pool and correlation modules.
#include <roctracer.h>
#include <roctracer_ext.h>

#include <mutex>

#include "runtime/activity/builtin_domains.h"
#include "runtime/activity/domain_registry.h"
#include "runtime/activity/error.h"
#include "runtime/activity/external_correlation.h"
#include "runtime/activity/pool_registry.h"
#include "runtime/clock/clock.h"
#include "runtime/pool/pool.h"
#include "runtime/pool/process_exit.h"
#include "runtime/private/tool_activity.h"

using roctracer::activity::ConfigMutex;
using roctracer::activity::Fail;
using roctracer::activity::OpCount;
using roctracer::pool::Pool;

namespace roctracer::capi {
// Where the GPU half is linked (:capi_gpu, hsa_tool.cc): asks the HSA
// runtime to load this library as its tool (runtime/gpu/tool_request.h).
// Weak: the API alone (tests linking :capi) has no GPU half to ask for.
void RequestGpuToolPath() noexcept __attribute__((weak));
}  // namespace roctracer::capi

namespace {

// A domain callers may configure: in range and with operations registered.
roctracer_status_t CheckDomain(uint32_t domain) {
  if (domain >= ACTIVITY_DOMAIN_NUMBER) {
    return Fail(ROCTRACER_STATUS_ERROR_INVALID_DOMAIN_ID,
                "domain %u is not an activity_domain_t", domain);
  }
  if (OpCount(domain) == 0) {
    return Fail(ROCTRACER_STATUS_ERROR_INVALID_DOMAIN_ID,
                "domain %u has no operations in this library", domain);
  }
  return ROCTRACER_STATUS_SUCCESS;
}

roctracer_status_t CheckOp(uint32_t domain, uint32_t op) {
  if (roctracer_status_t s = CheckDomain(domain)) return s;
  if (op >= OpCount(domain)) {
    return Fail(ROCTRACER_STATUS_ERROR_INVALID_ARGUMENT,
                "op %u out of range for domain %u (%u ops)", op, domain,
                OpCount(domain));
  }
  return ROCTRACER_STATUS_SUCCESS;
}

// What a configuration call applies to. The scope is its own field, not a
// reserved domain or op value: every number a caller passes is range-checked
// (UINT32_MAX as an op once meant "every op").
// A program's domain-wide enable covers each domain's DomainWideOpCount
// (HIP_API up to HIP's HIP_API_ID_LAST); disables and the tool slot every op.
struct Target {
  enum Scope { kOneOp, kOneDomain, kEveryDomain } scope;
  uint32_t domain;
  uint32_t op;
  bool numbered_only = false;
};

Target OneOp(uint32_t domain, uint32_t op) {
  return {Target::kOneOp, domain, op};
}
Target OneDomain(uint32_t domain) { return {Target::kOneDomain, domain, 0}; }
Target EveryDomain() { return {Target::kEveryDomain, 0, 0}; }
// What a program's domain-wide enable applies to.
Target Enabling(Target t) {
  t.numbered_only = true;
  return t;
}

roctracer_status_t Check(const Target& t) {
  switch (t.scope) {
    case Target::kOneOp:
      return CheckOp(t.domain, t.op);
    case Target::kOneDomain:
      return CheckDomain(t.domain);
    default:
      return ROCTRACER_STATUS_SUCCESS;
  }
}

// Calls fn(domain, op) for every pair of `t`; ConfigMutex() held.
template <typename Fn>
void ForEachLocked(const Target& t, Fn fn) {
  if (t.scope == Target::kOneOp) {
    fn(t.domain, t.op);
    return;
  }
  const uint32_t first = t.scope == Target::kEveryDomain ? 0 : t.domain;
  const uint32_t last = t.scope == Target::kEveryDomain
                            ? uint32_t{ACTIVITY_DOMAIN_NUMBER}
                            : t.domain + 1;
  for (uint32_t d = first; d < last; ++d) {
    const uint32_t count = t.numbered_only
                               ? roctracer::activity::DomainWideOpCount(d)
                               : OpCount(d);
    for (uint32_t o = 0; o < count; ++o) fn(d, o);
  }
}

template <typename Fn>
roctracer_status_t ForOps(const Target& t, Fn fn) {
  if (roctracer_status_t s = Check(t)) return s;
  std::lock_guard<std::mutex> lock(ConfigMutex());
  ForEachLocked(t, fn);
  return ROCTRACER_STATUS_SUCCESS;
}

// `set` is the slot's setter: the program's (SetCallbackLocked) or the
// tool's (SetToolCallbackLocked).
using CallbackSetter = void (*)(uint32_t, uint32_t, activity_rtapi_callback_t,
                                void*);

roctracer_status_t SetCallbackIn(CallbackSetter set, const Target& t,
                                 activity_rtapi_callback_t callback,
                                 void* arg) {
  if (callback == nullptr) {
    return Fail(ROCTRACER_STATUS_ERROR_INVALID_ARGUMENT, "callback is NULL");
  }
  return ForOps(t, [&](uint32_t d, uint32_t o) { set(d, o, callback, arg); });
}

roctracer_status_t ClearCallbackIn(CallbackSetter set, const Target& t) {
  return ForOps(t,
                [set](uint32_t d, uint32_t o) { set(d, o, nullptr, nullptr); });
}

roctracer_status_t SetCallback(const Target& t,
                               activity_rtapi_callback_t callback, void* arg) {
  return SetCallbackIn(&roctracer::activity::SetCallbackLocked, Enabling(t),
                       callback, arg);
}

roctracer_status_t ClearCallback(const Target& t) {
  return ClearCallbackIn(&roctracer::activity::SetCallbackLocked, t);
}

// `set` is the slot's setter: the program's (SetActivityPoolLocked) or the
// tool's (SetToolPoolLocked).
roctracer_status_t SetActivityIn(void (*set)(uint32_t, uint32_t, Pool*),
                                 const Target& t, roctracer_pool_t* pool_arg) {
  if (roctracer_status_t s = Check(t)) return s;
  // Resolve and enable under one lock so a concurrent close cannot slip in
  // between and leave an activity pointing at a closed pool.
  std::lock_guard<std::mutex> lock(ConfigMutex());
  Pool* pool = nullptr;
  if (roctracer_status_t s = roctracer::activity::ResolvePoolLocked(
          static_cast<Pool*>(pool_arg), &pool)) {
    return s;
  }
  ForEachLocked(t, [set, pool](uint32_t d, uint32_t o) { set(d, o, pool); });
  return ROCTRACER_STATUS_SUCCESS;
}

roctracer_status_t SetActivity(const Target& t, roctracer_pool_t* pool_arg) {
  const roctracer_status_t s = SetActivityIn(
      &roctracer::activity::SetActivityPoolLocked, Enabling(t), pool_arg);
  // HIP_OPS and HSA_OPS records come only from the GPU half, which exists
  // where the HSA runtime hands its table over: before the runtime
  // initialises, this library names itself in HSA_TOOLS_LIB.
  if (s == ROCTRACER_STATUS_SUCCESS &&
      (t.scope == Target::kEveryDomain || t.domain == ACTIVITY_DOMAIN_HIP_OPS ||
       t.domain == ACTIVITY_DOMAIN_HSA_OPS)) {
    if (&roctracer::capi::RequestGpuToolPath != nullptr) {
      roctracer::capi::RequestGpuToolPath();
    }
  }
  return s;
}

// No default-pool fallback: the default pool is the program's.
roctracer_status_t SetToolActivity(const Target& t,
                                   roctracer_pool_t* pool_arg) {
  if (roctracer_status_t s = Check(t)) return s;
  if (pool_arg == nullptr) {
    return Fail(ROCTRACER_STATUS_ERROR_INVALID_ARGUMENT,
                "a tool pool must be given (the default pool is the "
                "program's)");
  }
  return SetActivityIn(&roctracer::activity::SetToolPoolLocked, t, pool_arg);
}

roctracer_status_t ClearActivity(const Target& t) {
  return ForOps(t, [](uint32_t d, uint32_t o) {
    roctracer::activity::SetActivityPoolLocked(d, o, nullptr);
  });
}

}  // namespace

extern "C" {

ROCTRACER_API uint32_t roctracer_version_major(void) {
  return ROCTRACER_VERSION_MAJOR;
}

ROCTRACER_API uint32_t roctracer_version_minor(void) {
  return ROCTRACER_VERSION_MINOR;
}

ROCTRACER_API const char* roctracer_error_string(void) {
  return roctracer::activity::LastError();
}

ROCTRACER_API const char* roctracer_op_string(uint32_t domain, uint32_t op,
                                              uint32_t kind) {
  if (CheckOp(domain, op) != ROCTRACER_STATUS_SUCCESS) return nullptr;
  // ROCm names a HIP_OPS record by what HIP did (its command kind), not by
  // the coarse op.
  if (domain == ACTIVITY_DOMAIN_HIP_OPS)
    return roctracer::activity::HipCommandName(kind);
  const char* name = roctracer::activity::OpName(domain, op);
  if (name == nullptr) {
    Fail(ROCTRACER_STATUS_ERROR_INVALID_ARGUMENT,
         "op %u of domain %u has no name", op, domain);
  }
  return name;
}

ROCTRACER_API roctracer_status_t roctracer_op_code(uint32_t domain,
                                                   const char* str,
                                                   uint32_t* op,
                                                   uint32_t* kind) {
  if (roctracer_status_t s = CheckDomain(domain)) return s;
  if (str == nullptr || op == nullptr) {
    return Fail(ROCTRACER_STATUS_ERROR_INVALID_ARGUMENT, "str or op is NULL");
  }
  if (!roctracer::activity::OpIdByName(domain, str, op)) {
    return Fail(ROCTRACER_STATUS_ERROR_INVALID_ARGUMENT,
                "no op named \"%.64s\" in domain %u", str, domain);
  }
  if (kind != nullptr) *kind = 0;
  return ROCTRACER_STATUS_SUCCESS;
}

ROCTRACER_API roctracer_status_t
roctracer_set_properties(roctracer_domain_t domain, void* /*properties*/) {
  if (static_cast<uint32_t>(domain) >= ACTIVITY_DOMAIN_NUMBER) {
    return Fail(ROCTRACER_STATUS_ERROR_INVALID_DOMAIN_ID,
                "domain %u is not an activity_domain_t",
                static_cast<uint32_t>(domain));
  }
  return ROCTRACER_STATUS_SUCCESS;
}

ROCTRACER_API roctracer_status_t
roctracer_enable_op_callback(activity_domain_t domain, uint32_t op,
                             activity_rtapi_callback_t callback, void* arg) {
  return SetCallback(OneOp(domain, op), callback, arg);
}

ROCTRACER_API roctracer_status_t roctracer_enable_domain_callback(
    activity_domain_t domain, activity_rtapi_callback_t callback, void* arg) {
  return SetCallback(OneDomain(domain), callback, arg);
}

ROCTRACER_API roctracer_status_t
roctracer_enable_callback(activity_rtapi_callback_t callback, void* arg) {
  return SetCallback(EveryDomain(), callback, arg);
}

ROCTRACER_API roctracer_status_t
roctracer_disable_op_callback(activity_domain_t domain, uint32_t op) {
  return ClearCallback(OneOp(domain, op));
}

ROCTRACER_API roctracer_status_t
roctracer_disable_domain_callback(activity_domain_t domain) {
  return ClearCallback(OneDomain(domain));
}

ROCTRACER_API roctracer_status_t roctracer_disable_callback(void) {
  return ClearCallback(EveryDomain());
}

ROCTRACER_API roctracer_status_t roctracer_next_record(
    const activity_record_t* record, const activity_record_t** next) {
  if (record == nullptr || next == nullptr) {
    return Fail(ROCTRACER_STATUS_ERROR_INVALID_ARGUMENT,
                "record or next is NULL");
  }
  *next = record + 1;
  return ROCTRACER_STATUS_SUCCESS;
}

ROCTRACER_API roctracer_status_t roctracer_open_pool_expl(
    const roctracer_properties_t* properties, roctracer_pool_t** pool) {
  Pool* created = nullptr;
  roctracer_status_t s = roctracer::activity::OpenPool(
      properties, pool == nullptr ? nullptr : &created);
  if (s == ROCTRACER_STATUS_SUCCESS && pool != nullptr) *pool = created;
  return s;
}

ROCTRACER_API roctracer_status_t
roctracer_open_pool(const roctracer_properties_t* properties) {
  return roctracer::activity::OpenPool(properties, nullptr);
}

ROCTRACER_API roctracer_status_t
roctracer_close_pool_expl(roctracer_pool_t* pool) {
  return roctracer::activity::ClosePool(static_cast<Pool*>(pool));
}

ROCTRACER_API roctracer_status_t roctracer_close_pool(void) {
  return roctracer::activity::ClosePool(nullptr);
}

ROCTRACER_API roctracer_pool_t* roctracer_default_pool_expl(
    roctracer_pool_t* pool) {
  roctracer_status_t ignored;
  return roctracer::activity::ExchangeDefaultPool(static_cast<Pool*>(pool),
                                                  &ignored);
}

ROCTRACER_API roctracer_pool_t* roctracer_default_pool(void) {
  roctracer_status_t ignored;
  return roctracer::activity::ExchangeDefaultPool(nullptr, &ignored);
}

ROCTRACER_API roctracer_status_t roctracer_enable_op_activity_expl(
    activity_domain_t domain, uint32_t op, roctracer_pool_t* pool) {
  return SetActivity(OneOp(domain, op), pool);
}

ROCTRACER_API roctracer_status_t
roctracer_enable_op_activity(activity_domain_t domain, uint32_t op) {
  return SetActivity(OneOp(domain, op), nullptr);
}

ROCTRACER_API roctracer_status_t roctracer_enable_domain_activity_expl(
    activity_domain_t domain, roctracer_pool_t* pool) {
  return SetActivity(OneDomain(domain), pool);
}

ROCTRACER_API roctracer_status_t
roctracer_enable_domain_activity(activity_domain_t domain) {
  return SetActivity(OneDomain(domain), nullptr);
}

ROCTRACER_API roctracer_status_t
roctracer_enable_activity_expl(roctracer_pool_t* pool) {
  return SetActivity(EveryDomain(), pool);
}

ROCTRACER_API roctracer_status_t roctracer_enable_activity(void) {
  return SetActivity(EveryDomain(), nullptr);
}

roctracer_status_t roctracer_internal_tool_enable_op_activity(
    activity_domain_t domain, uint32_t op, roctracer_pool_t* pool) {
  return SetToolActivity(OneOp(domain, op), pool);
}

roctracer_status_t roctracer_internal_tool_enable_domain_activity(
    activity_domain_t domain, roctracer_pool_t* pool) {
  return SetToolActivity(OneDomain(domain), pool);
}

roctracer_status_t roctracer_internal_tool_enable_op_callback(
    activity_domain_t domain, uint32_t op, activity_rtapi_callback_t callback,
    void* arg) {
  return SetCallbackIn(&roctracer::activity::SetToolCallbackLocked,
                       OneOp(domain, op), callback, arg);
}

bool roctracer_internal_tool_finalize_at_exit(void (*finalize)(void* arg),
                                              void* arg) {
  return roctracer::process_exit::AddToolFinalizer(finalize, arg);
}

void roctracer_internal_tool_set_paused(bool paused) {
  roctracer::activity::SetToolPaused(paused);
}

roctracer_status_t roctracer_internal_tool_disable_op_callback(
    activity_domain_t domain, uint32_t op) {
  return ClearCallbackIn(&roctracer::activity::SetToolCallbackLocked,
                         OneOp(domain, op));
}

ROCTRACER_API roctracer_status_t
roctracer_disable_op_activity(activity_domain_t domain, uint32_t op) {
  return ClearActivity(OneOp(domain, op));
}

ROCTRACER_API roctracer_status_t
roctracer_disable_domain_activity(activity_domain_t domain) {
  return ClearActivity(OneDomain(domain));
}

ROCTRACER_API roctracer_status_t roctracer_disable_activity(void) {
  return ClearActivity(EveryDomain());
}

ROCTRACER_API roctracer_status_t
roctracer_flush_activity_expl(roctracer_pool_t* pool) {
  return roctracer::activity::FlushPool(static_cast<Pool*>(pool));
}

ROCTRACER_API roctracer_status_t roctracer_flush_activity(void) {
  return roctracer::activity::FlushPool(nullptr);
}

ROCTRACER_API roctracer_status_t
roctracer_get_dropped_records_expl(roctracer_pool_t* pool, uint64_t* dropped) {
  return roctracer::activity::DroppedRecords(static_cast<Pool*>(pool), dropped);
}

ROCTRACER_API roctracer_status_t
roctracer_get_timestamp(roctracer_timestamp_t* timestamp) {
  if (timestamp == nullptr) {
    return Fail(ROCTRACER_STATUS_ERROR_INVALID_ARGUMENT, "timestamp is NULL");
  }
  *timestamp = roctracer::clock::TimestampNs();
  return ROCTRACER_STATUS_SUCCESS;
}

ROCTRACER_API void roctracer_start(void) {
  roctracer::activity::SetTracingStarted(true);
}

ROCTRACER_API void roctracer_stop(void) {
  roctracer::activity::SetTracingStarted(false);
}

ROCTRACER_API roctracer_status_t
roctracer_activity_push_external_correlation_id(activity_correlation_id_t id) {
  if (!roctracer::activity::PushExternalId(id)) {
    return Fail(ROCTRACER_STATUS_ERROR_MEMORY_ALLOCATION,
                "cannot grow the external correlation ID stack");
  }
  return ROCTRACER_STATUS_SUCCESS;
}

ROCTRACER_API roctracer_status_t roctracer_activity_pop_external_correlation_id(
    activity_correlation_id_t* last_id) {
  uint64_t id = 0;
  const bool popped = roctracer::activity::PopExternalId(&id);
  if (last_id != nullptr) *last_id = popped ? id : 0;
  if (!popped) {
    return Fail(ROCTRACER_STATUS_ERROR_MISMATCHED_EXTERNAL_CORRELATION_ID,
                "external correlation ID stack of this thread is empty");
  }
  return ROCTRACER_STATUS_SUCCESS;
}

}  // extern "C"
