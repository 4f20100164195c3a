#include "sdk/runtime_initialization.h"

#include <dlfcn.h>
#include <hip/hip_version.h>
#include <hsa/hsa.h>
#include <pthread.h>

#include <atomic>
#include <mutex>
#include <new>

#include "ext/prof_protocol.h"
#include "hip_api_id.h"
#include "hsa_api_data.h"
#include "hsa_api_id.h"
#include "rocprofiler-sdk/buffer_tracing.h"
#include "rocprofiler-sdk/callback_tracing.h"
#include "rocprofiler-sdk/version.h"
#include "roctracer_roctx.h"
#include "runtime/clock/clock.h"
#include "runtime/gpu/runtime_table.h"
#include "runtime/intercept/trace_guard.h"
#include "runtime/platform/thread_id.h"
#include "runtime/private/roctx_link.h"
#include "sdk/buffers.h"
#include "sdk/config_lock.h"
#include "sdk/derived_kinds.h"
#include "sdk/dispatch.h"
#include "sdk/interest.h"

namespace rocprofiler_sdk {
namespace {

constexpr int kKind = ROCPROFILER_CALLBACK_TRACING_RUNTIME_INITIALIZATION;
static_assert(
    static_cast<int>(kKind) ==
        static_cast<int>(ROCPROFILER_BUFFER_TRACING_RUNTIME_INITIALIZATION),
    "RUNTIME_INITIALIZATION shares its number");

// The runtimes this library sees initialize.
constexpr int32_t kRuntimes[] = {ROCPROFILER_RUNTIME_INITIALIZATION_HSA,
                                 ROCPROFILER_RUNTIME_INITIALIZATION_HIP,
                                 ROCPROFILER_RUNTIME_INITIALIZATION_MARKER};
constexpr uint32_t Bit(int32_t op) noexcept { return uint32_t{1} << op; }

constexpr uint64_t kHipVersion = 10000ull * HIP_VERSION_MAJOR +
                                 100ull * HIP_VERSION_MINOR + HIP_VERSION_PATCH;
constexpr uint64_t kRoctxVersion = ROCPROFILER_SDK_VERSION;

// Bit op: runtime op has initialized (reported or deferred).
std::atomic<uint32_t> g_initialized{0};
// Bit op: runtime op watched for (its calls' interest added); guarded by
// ConfigMutex(), read without it on the traced-call path.
std::atomic<uint32_t> g_watched{0};
// Active contexts tracing the kind; guarded by ConfigMutex().
int g_watchers = 0;

// Reports due before the tools were registered.
std::mutex g_deferred_mutex;
// Taken on the API path: a thread holding it when another forks would hold
// it forever in the child, so the child starts with a fresh one (as the
// SDK's other API-path locks).
void FreshDeferredMutexInChild() noexcept {
  new (&g_deferred_mutex) std::mutex();
}
__attribute__((constructor)) void
RegisterFreshDeferredMutexInChildForkHandler() {
  pthread_atfork(nullptr, nullptr, &FreshDeferredMutexInChild);
}
struct Deferred {
  uint64_t version, instance, timestamp, thread_id;
};
Deferred g_deferred[ROCPROFILER_RUNTIME_INITIALIZATION_LAST];
uint32_t g_deferred_bits = 0;
bool g_tools_registered = false;

// Calls fn(domain, id) for each call whose first occurrence says runtime
// `op` has initialized.
template <typename Fn>
void ForEachWatchedCall(int32_t op, Fn&& fn) {
  switch (op) {
    case ROCPROFILER_RUNTIME_INITIALIZATION_HSA:
      fn(ACTIVITY_DOMAIN_HSA_API, HSA_API_ID_hsa_init);
      break;
    case ROCPROFILER_RUNTIME_INITIALIZATION_HIP:
      for (uint32_t id = 0; id < HIP_API_ID_NUMBER; ++id) {
        fn(ACTIVITY_DOMAIN_HIP_API, id);
      }
      break;
    case ROCPROFILER_RUNTIME_INITIALIZATION_MARKER:
      // rocTX requests reach the consumer whenever it is installed.
      for (uint32_t id = 0; id < ROCTX_API_ID_NUMBER; ++id) {
        fn(ACTIVITY_DOMAIN_ROCTX, id);
      }
      break;
    default:
      break;
  }
}

// Adds or drops the interest of each runtime whose watch changes. Under
// ConfigMutex().
void RefreshWatchLocked() noexcept {
  const uint32_t initialized = g_initialized.load(std::memory_order_acquire);
  uint32_t watched = g_watched.load(std::memory_order_relaxed);
  for (int32_t op : kRuntimes) {
    const bool want = g_watchers > 0 && (initialized & Bit(op)) == 0;
    const bool have = (watched & Bit(op)) != 0;
    if (want == have) continue;
    ForEachWatchedCall(op, [want](uint32_t domain, uint32_t id) {
      CountInterest(domain, id, want ? +1 : -1);
    });
    watched = want ? watched | Bit(op) : watched & ~Bit(op);
  }
  g_watched.store(watched, std::memory_order_release);
  if (watched != 0) {
    g_derived_kinds.fetch_or(kDerivedRuntimeInit, std::memory_order_release);
  }
}

// Active contexts whose callback (`buffer` false) or buffer service traces
// `op`.
uint64_t Tracing(int32_t op, bool buffer) noexcept {
  return ContextsTracing(kKind, kKind, op, buffer);
}

// The callbacks (phase NONE; no correlation ID, as in 1.0.0) and records.
void Emit(int32_t op, Deferred d) noexcept {
  ThreadState* t = Tls();
  if (t == nullptr) return;
  const uint64_t callbacks = Tracing(op, false);
  if (callbacks == 0 && Tracing(op, true) == 0) return;
  // HSA handed over no version (OnLoad, the first hsa_init): asked of the
  // runtime once a tool is to see it.
  if (op == ROCPROFILER_RUNTIME_INITIALIZATION_HSA && d.version == 0) {
    d.version = HsaRuntimeVersion();
  }
  if (callbacks != 0) {
    rocprofiler_callback_tracing_runtime_initialization_data_t p{};
    p.size = sizeof(p);
    p.version = d.version;
    p.instance = d.instance;
    rocprofiler_callback_tracing_record_t r{};
    r.thread_id = d.thread_id;
    r.kind = static_cast<rocprofiler_callback_tracing_kind_t>(kKind);
    r.operation = op;
    r.phase = ROCPROFILER_CALLBACK_PHASE_NONE;
    r.payload = &p;
    DeliverCallbacks(*t, callbacks, r, nullptr, nullptr, nullptr);
  }
  uint64_t buffered = Tracing(op, true);
  if (buffered == 0) return;
  rocprofiler_buffer_tracing_runtime_initialization_record_t rec{};
  rec.size = sizeof(rec);
  rec.kind = static_cast<rocprofiler_buffer_tracing_kind_t>(kKind);
  rec.operation =
      static_cast<rocprofiler_runtime_initialization_operation_t>(op);
  rec.thread_id = d.thread_id;
  rec.timestamp = d.timestamp;
  rec.version = d.version;
  rec.instance = d.instance;
  while (buffered != 0) {
    const int i = __builtin_ctzll(buffered);
    buffered &= buffered - 1;
    rec.correlation_id.external = t->ExternalTop(i);
    WriteRecord(g_contexts[i].buffer_services[kKind].buffer, &rec, sizeof(rec));
  }
}

}  // namespace

uint64_t HsaRuntimeVersion() noexcept {
  auto* get_info = roctracer::gpu::Core().hsa_system_get_info_fn;
  if (get_info == nullptr) {
    get_info = reinterpret_cast<decltype(&hsa_system_get_info)>(
        dlsym(RTLD_DEFAULT, "hsa_system_get_info"));
  }
  if (get_info == nullptr) return 0;
  roctracer::hook::UntracedScope untraced;
  uint16_t major = 0;
  uint16_t minor = 0;
  if (get_info(HSA_SYSTEM_INFO_VERSION_MAJOR, &major) != HSA_STATUS_SUCCESS ||
      get_info(HSA_SYSTEM_INFO_VERSION_MINOR, &minor) != HSA_STATUS_SUCCESS) {
    return 0;
  }
  return 10000ull * major + 100ull * minor;
}

void RuntimeInitialized(int32_t op, uint64_t version,
                        uint64_t instance) noexcept {
  if (op <= ROCPROFILER_RUNTIME_INITIALIZATION_NONE ||
      op >= ROCPROFILER_RUNTIME_INITIALIZATION_LAST) {
    return;
  }
  if (g_initialized.fetch_or(Bit(op), std::memory_order_acq_rel) & Bit(op)) {
    return;
  }
  const Deferred d{version, instance, roctracer::clock::TimestampNs(),
                   roctracer::platform::ThreadId()};
  bool now = true;
  {
    std::lock_guard<std::mutex> lock(g_deferred_mutex);
    if (!g_tools_registered) {
      g_deferred[op] = d;
      g_deferred_bits |= Bit(op);
      now = false;
    }
  }
  if (now) Emit(op, d);
  // The runtime's calls need not reach the consumer for this any longer.
  if (g_watched.load(std::memory_order_acquire) & Bit(op)) {
    std::lock_guard<std::mutex> lock(ConfigMutex());
    RefreshWatchLocked();
  }
}

void ReportDeferredRuntimeInits() noexcept {
  uint32_t bits;
  Deferred deferred[ROCPROFILER_RUNTIME_INITIALIZATION_LAST];
  {
    std::lock_guard<std::mutex> lock(g_deferred_mutex);
    if (g_tools_registered) return;
    g_tools_registered = true;
    bits = g_deferred_bits;
    g_deferred_bits = 0;
    for (int op = 0; op < ROCPROFILER_RUNTIME_INITIALIZATION_LAST; ++op) {
      deferred[op] = g_deferred[op];
    }
  }
  for (int32_t op : kRuntimes) {
    if (bits & Bit(op)) Emit(op, deferred[op]);
  }
}

bool RuntimeInitWatched() noexcept {
  return g_watched.load(std::memory_order_acquire) != 0;
}

void RuntimeInitEnter(const roctracer::ApiCallInfo& info) noexcept {
  const uint32_t watched = g_watched.load(std::memory_order_acquire);
  if (info.domain == ACTIVITY_DOMAIN_HIP_API &&
      (watched & Bit(ROCPROFILER_RUNTIME_INITIALIZATION_HIP))) {
    RuntimeInitialized(ROCPROFILER_RUNTIME_INITIALIZATION_HIP, kHipVersion, 0);
  } else if ((info.domain == ACTIVITY_DOMAIN_ROCTX ||
              info.domain == roctracer::kRoctxRequestDomain) &&
             (watched & Bit(ROCPROFILER_RUNTIME_INITIALIZATION_MARKER))) {
    RuntimeInitialized(ROCPROFILER_RUNTIME_INITIALIZATION_MARKER, kRoctxVersion,
                       0);
  }
}

void RuntimeInitExit(const roctracer::ApiCallInfo& info) noexcept {
  if (info.domain != ACTIVITY_DOMAIN_HSA_API ||
      info.op != HSA_API_ID_hsa_init ||
      !(g_watched.load(std::memory_order_acquire) &
        Bit(ROCPROFILER_RUNTIME_INITIALIZATION_HSA))) {
    return;
  }
  const auto* d = static_cast<const hsa_api_data_t*>(info.api_data);
  if (d == nullptr || d->hsa_status_t_retval != HSA_STATUS_SUCCESS) return;
  RuntimeInitialized(ROCPROFILER_RUNTIME_INITIALIZATION_HSA, 0, 0);
}

bool TracesRuntimeInit(const Context& ctx) noexcept {
  return ctx.services[kKind].configured.load(std::memory_order_acquire) ||
         ctx.buffer_services[kKind].configured.load(std::memory_order_acquire);
}

void UpdateRuntimeInitWatch(const Context& ctx, int delta) noexcept {
  if (!TracesRuntimeInit(ctx)) return;
  g_watchers += delta;
  if (g_watchers < 0) g_watchers = 0;
  RefreshWatchLocked();
}

}  // namespace rocprofiler_sdk
