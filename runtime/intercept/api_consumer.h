// The seam between the interception layer and a second front end.
//
// roctracer's own callbacks and activity records are driven by the domain
// registry (domain_registry.h). The rocprofiler-sdk callback-tracing services
// observe the same intercepted calls through this one consumer hook, so that
// a call traced by both front ends carries the same correlation ID in each and
// is intercepted only once.
//
// Owned by the interception layer (runtime/intercept/api_hook.cc and the rocTX
// bridge call the consumer); implemented by the rocprofiler-sdk front end.
#ifndef RUNTIME_INTERCEPT_API_CONSUMER_H_
#define RUNTIME_INTERCEPT_API_CONSUMER_H_

#include <atomic>
#include <cstdint>

namespace roctracer {

// ApiCallInfo::domain of a rocprofiler-sdk-roctx request (roctx_link.h): op
// is a RoctxRequest, api_data a const RoctxRequestArgs*. Not an
// activity_domain_t: these calls exist only for the consumer, which receives
// every one while it is installed (no per-op interest).
constexpr uint32_t kRoctxRequestDomain = 0x100;

struct ApiCallInfo {
  uint32_t domain;  // ACTIVITY_DOMAIN_HSA_API, _HIP_API, _ROCTX or
                    // kRoctxRequestDomain
  uint32_t op;      // the op ID of that domain (HSA_API_ID_*, HIP_API_ID_*,
                    // ROCTX_API_ID_*)
  uint32_t phase;   // ACTIVITY_API_PHASE_ENTER or ACTIVITY_API_PHASE_EXIT
  uint64_t correlation_id;         // the same ID roctracer reports
  uint64_t parent_correlation_id;  // 0 for an outermost call
  // hsa_api_data_t*, hip_api_data_t* or roctx_api_data_t*, with the
  // arguments (and at EXIT the return value) of the call.
  void* api_data;
};

// Called on the application thread at ENTER and at EXIT of every call the
// consumer registered interest in. ENTER and EXIT of one call come from the
// same thread and nest properly, so a consumer can keep per-call state on a
// thread-local stack. Must not throw.
using ApiConsumerFn = void (*)(const ApiCallInfo& info) noexcept;

// Installs the consumer (NULL removes it). One consumer per process.
void SetApiConsumer(ApiConsumerFn fn) noexcept;

// A call the consumer wants only as a record of its span: called once, at
// EXIT, on the calling thread, with the call (`info.phase` EXIT), the
// timestamps taken after ENTER's work and before EXIT's (the clock of
// runtime/clock), and the correlation ID of the innermost call enclosing it
// on this thread that took this path too (0 when none).
using ApiRecordFn = void (*)(const ApiCallInfo& info, uint64_t begin_ns,
                             uint64_t end_ns,
                             uint64_t enclosing_record_id) noexcept;

// While a record consumer is installed (NULL removes it), a call that only
// the consumer wants (no roctracer callback, record or tool slot on its op)
// is not handed to the consumer at ENTER and EXIT: the interception layer
// keeps its begin timestamp in its own frame and calls `fn` once at EXIT
// instead. Which path a call takes is decided at its ENTER. Calls that
// roctracer traces too still reach the consumer at both phases.
void SetApiRecordConsumer(ApiRecordFn fn) noexcept;

// Marks (domain, op) as wanted or not by the consumer. The interception
// layer's per-op "active" byte is the OR of this and roctracer's own
// callback/activity enables. Returns false for an unknown domain or op.
bool SetConsumerInterest(uint32_t domain, uint32_t op, bool wanted) noexcept;

// The correlation IDs the consumer's report of a rocTX call (an
// ACTIVITY_DOMAIN_ROCTX op or a kRoctxRequestDomain request) takes from the
// tracer's counter, as rocprofiler-sdk draws one only for what a context
// traces: kRoctxCallId while the call itself is traced, kRoctxRangeId while
// the range it opens is (a mark, a push, a start, a thread ID query). A call
// reported without kRoctxCallId carries its range's ID, or
// kRoctxUntracedCallId when it opens none; neither reaches a record.
enum RoctxIdBits : uint8_t { kRoctxCallId = 1, kRoctxRangeId = 2 };
constexpr uint64_t kRoctxUntracedCallId = ~uint64_t{0};
void SetRoctxIdsWanted(uint32_t domain, uint32_t op, uint8_t ids) noexcept;
namespace hook {
// RoctxIdsWanted of the rocTX ops (ACTIVITY_DOMAIN_ROCTX), then of the
// requests; read inline on the rocTX path.
constexpr uint32_t kRoctxOpSlots = 64;
constexpr uint32_t kRoctxRequestSlots = 16;
extern std::atomic<uint8_t> g_roctx_ids[kRoctxOpSlots + kRoctxRequestSlots];
}  // namespace hook
// Only ACTIVITY_DOMAIN_ROCTX (6) and kRoctxRequestDomain ops: 0 past them.
inline uint8_t RoctxIdsWanted(uint32_t domain, uint32_t op) noexcept {
  const uint32_t slot =
      domain == kRoctxRequestDomain
          ? (op < hook::kRoctxRequestSlots ? hook::kRoctxOpSlots + op
                                           : ~uint32_t{0})
          : (op < hook::kRoctxOpSlots ? op : ~uint32_t{0});
  return slot == ~uint32_t{0}
             ? uint8_t{0}
             : hook::g_roctx_ids[slot].load(std::memory_order_relaxed);
}

// A runtime handed the tracer its API tables (HSA's HsaApiTable through
// OnLoad or rocprofiler_set_api_table, other libraries through the latter),
// after the tracer's own wrappers went in. `library` is
// rocprofiler-register's name ("hsa", "hip", "hip_compiler", "roctx", ...),
// `version` the one the runtime passed it (0 from OnLoad: unknown).
// The observer may change the tables' slots (rocprofiler-sdk's
// intercept-table service).
using TableObserverFn = void (*)(const char* library, uint64_t version,
                                 uint64_t instance, void** tables,
                                 uint64_t count) noexcept;
void SetTableObserver(TableObserverFn fn) noexcept;
void NotifyTablesRegistered(const char* library, uint64_t version,
                            uint64_t instance, void** tables,
                            uint64_t count) noexcept;

}  // namespace roctracer

#endif  // RUNTIME_INTERCEPT_API_CONSUMER_H_
