// libroctx64: application annotations. Nesting levels and range IDs are kept
// here whether or not a tracer listens; a tracer, when attached (see
// runtime/private/roctx_link.h), is told about each annotation whose "active"
// byte it has set.
#include "rocprofiler-sdk-roctx/roctx.h"

#include <roctracer_roctx.h>
#include <roctx.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>

#include "roctx/direct_consumers.h"
#include "runtime/platform/hot_tls.h"
#include "runtime/private/roctx_link.h"

namespace {

using roctracer::RoctxLink;

// Constant-initialised: usable from any static initialiser, and the hot path
// has no guard.
RoctxLink g_link = {
    roctracer::kRoctxLinkVersion, ROCTX_API_ID_NUMBER, {}, {}, {}, {}};

std::atomic<uint64_t> g_next_local_range_id{1};

// `level`: the nesting level a push opened or a pop closed (-1 for a pop with
// no open range), else 0. `id`: a range's ID, else 0. The tracer gets whichever
// the op has (RoctxReportFn).
inline void Notify(uint32_t op, const char* message, uint64_t id,
                   int level = 0) {
  const bool traced = g_link.active[op].load(std::memory_order_relaxed) != 0;
  const bool direct =
      roctx_direct::g_registered.load(std::memory_order_relaxed) != 0;
  if (__builtin_expect(!traced && !direct, 1)) return;
  if (traced) {
    if (auto report = g_link.report.load(std::memory_order_acquire)) {
      report(op, message, id != 0 ? id : static_cast<uint64_t>(level));
    }
  }
  if (direct) roctx_direct::Deliver(op, message, id, level);
}

// Without a tracer a request is done (nothing to pause, nobody to tell).
int Request(roctracer::RoctxRequest request, const char* name,
            const void* object, uint64_t value) {
  if (auto fn = g_link.request.load(std::memory_order_acquire)) {
    const roctracer::RoctxRequestArgs args{name, object, value};
    return fn(request, &args);
  }
  return 0;
}

// Tracer loaded first: offer it our link now. On unload, withdraw it so the
// tracer never writes into unmapped flags.
struct AutoLink {
  AutoLink() {
    if (auto attach = roctracer::LookupPeerSymbol<void (*)(RoctxLink*)>(
            roctracer::kTracerSoname, "roctracer_internal_roctx_attach")) {
      attach(&g_link);
    }
  }
  ~AutoLink() {
    if (g_link.report.load(std::memory_order_acquire) == nullptr) return;
    if (auto detach = roctracer::LookupPeerSymbol<void (*)(RoctxLink*)>(
            roctracer::kTracerSoname, "roctracer_internal_roctx_detach")) {
      detach(&g_link);
    }
  }
} g_auto_link;

}  // namespace

// Nesting level of push/pop on this thread (hot_tls.h: one %fs-relative
// access, no __tls_get_addr call).
ROCTRACER_HOT_TLS int t_depth = 0;

extern "C" {

roctracer::RoctxLink* roctx_internal_link(void) { return &g_link; }

ROCTX_API uint32_t roctx_version_major(void) { return ROCTX_VERSION_MAJOR; }
ROCTX_API uint32_t roctx_version_minor(void) { return ROCTX_VERSION_MINOR; }

ROCTX_API void roctxMarkA(const char* message) {
  Notify(ROCTX_API_ID_roctxMarkA, message, 0);
}

ROCTX_API int roctxRangePushA(const char* message) {
  const int level = t_depth++;
  Notify(ROCTX_API_ID_roctxRangePushA, message, 0, level);
  return level;
}

ROCTX_API int roctxRangePop(void) {
  // A pop with no open range closes nothing and returns -1, but it is still
  // a call the application made: reported like any other, with -1 as its
  // result (as ROCm's libroctx and rocprofiler-sdk's do).
  if (__builtin_expect(t_depth == 0, 0)) {
    Notify(ROCTX_API_ID_roctxRangePop, nullptr, 0, -1);
    return -1;
  }
  const int level = --t_depth;
  Notify(ROCTX_API_ID_roctxRangePop, nullptr, 0, level);
  return level;
}

ROCTX_API roctx_range_id_t roctxRangeStartA(const char* message) {
  const roctracer::RoctxNextIdFn next_id =
      g_link.next_range_id.load(std::memory_order_acquire);
  const roctx_range_id_t id =
      next_id != nullptr
          ? next_id()
          : g_next_local_range_id.fetch_add(1, std::memory_order_relaxed) |
                roctracer::kRoctxLocalRangeIdBit;
  Notify(ROCTX_API_ID_roctxRangeStartA, message, id);
  return id;
}

ROCTX_API void roctxRangeStop(roctx_range_id_t id) {
  Notify(ROCTX_API_ID_roctxRangeStop, nullptr, id);
}

// rocprofiler-sdk-roctx additions. A NULL pointer the header marks nonnull is
// refused (-1) before anything is reported.

ROCTX_API int roctxProfilerPause(roctx_thread_id_t tid) {
  return Request(roctracer::kRoctxProfilerPause, nullptr, nullptr, tid);
}

ROCTX_API int roctxProfilerResume(roctx_thread_id_t tid) {
  return Request(roctracer::kRoctxProfilerResume, nullptr, nullptr, tid);
}

ROCTX_API int roctxNameOsThread(const char* name) {
  if (name == nullptr) return -1;
  return Request(roctracer::kRoctxNameOsThread, name, nullptr, 0);
}

ROCTX_API int roctxNameHsaAgent(const char* name,
                                const struct hsa_agent_s* agent) {
  if (name == nullptr || agent == nullptr) return -1;
  return Request(roctracer::kRoctxNameHsaAgent, name, agent, 0);
}

ROCTX_API int roctxNameHipDevice(const char* name, int device_id) {
  if (name == nullptr) return -1;
  return Request(roctracer::kRoctxNameHipDevice, name, nullptr,
                 static_cast<uint64_t>(static_cast<int64_t>(device_id)));
}

ROCTX_API int roctxNameHipStream(const char* name,
                                 const struct ihipStream_t* stream) {
  if (name == nullptr) return -1;
  return Request(roctracer::kRoctxNameHipStream, name, stream, 0);
}

// The kernel's thread ID, which is what rocprofiler_get_thread_id reports.
ROCTX_API int roctxGetThreadId(roctx_thread_id_t* tid) {
  if (tid == nullptr) return -1;
  *tid = static_cast<roctx_thread_id_t>(syscall(SYS_gettid));
  return Request(roctracer::kRoctxGetThreadId, nullptr, tid, 0);
}

}  // extern "C"
