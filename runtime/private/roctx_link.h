// The handshake between libroctx64.so (annotations) and the tracer, which may
// be loaded in either order, or not at all.
//
// libroctx owns a RoctxLink: one "active" byte per rocTX operation and the
// tracer's report function. An annotation costs one relaxed load of its byte
// when nobody listens. The tracer attaches by storing its report function and
// registering the bytes as the ROCTX domain's active flags, so enabling a rocTX
// callback or activity flips them.
//
// Whoever loads second completes the link at load time:
//  - libroctx's constructor looks up roctracer_internal_roctx_attach (global
//    scope, else an already-loaded libroctracer64.so.4 via RTLD_NOLOAD) and
//    calls it with its link;
//  - the tracer's constructor looks up roctx_internal_link the same way.
// Both symbols are exported under a private symbol version. Attaching twice is
// harmless.
#ifndef RUNTIME_PRIVATE_ROCTX_LINK_H_
#define RUNTIME_PRIVATE_ROCTX_LINK_H_

#include <dlfcn.h>
#include <roctracer_roctx.h>

#include <atomic>
#include <cstdint>

namespace roctracer {

// op: roctx_api_id_t; message: the caller's string (may be NULL);
// value: start/stop: the range ID; push/pop: the nesting level the call
// returns, sign-extended (-1 for a pop with no open range; what
// rocprofiler-sdk reports as the call's retval); else 0.
using RoctxReportFn = void (*)(uint32_t op, const char* message,
                               uint64_t value);
// Draws an ID from the tracer's process-wide correlation counter.
using RoctxNextIdFn = uint64_t (*)();

// The requests of rocprofiler-sdk-roctx/roctx.h. They are rare, so libroctx
// hands every one to an attached tracer, without per-op active bytes; the
// tracer acts on pause/resume and reports all of them to the rocprofiler-sdk
// front end (MARKER_CORE / MARKER_CONTROL / MARKER_NAME kinds). They are not
// operations of roctracer's ROCTX domain (whose ops are fixed by
// roctracer_roctx.h).
enum RoctxRequest : uint32_t {
  kRoctxGetThreadId = 0,
  kRoctxProfilerPause,
  kRoctxProfilerResume,
  kRoctxNameOsThread,
  kRoctxNameHsaAgent,
  kRoctxNameHipDevice,
  kRoctxNameHipStream,
  kRoctxRequestCount
};

struct RoctxRequestArgs {
  const char* name;    // naming requests
  const void* object;  // hsa_agent_s*, ihipStream_t*, or (GetThreadId) the
                       // caller's roctx_thread_id_t*
  uint64_t value;      // pause/resume: tid; NameHipDevice: device ordinal
};

// Returns what the rocTX function returns (0: done).
using RoctxRequestFn = int (*)(uint32_t request, const RoctxRequestArgs* args);

constexpr uint32_t kRoctxLinkVersion = 4;

// Range IDs libroctx hands out while no tracer is attached have this bit set:
// they can never equal a correlation ID, which the tracer's records of range
// start/stop carry in the same field.
constexpr uint64_t kRoctxLocalRangeIdBit = uint64_t{1} << 63;

struct RoctxLink {
  uint32_t version;
  uint32_t op_count;
  std::atomic<uint8_t> active[ROCTX_API_ID_NUMBER];
  std::atomic<RoctxReportFn> report;
  // Set while a tracer is attached: range IDs then come from its correlation
  // counter, so a range's start/stop records pair up through correlation_id
  // without colliding with any API call's ID.
  std::atomic<RoctxNextIdFn> next_range_id;
  std::atomic<RoctxRequestFn> request;
};

// Tracer side (runtime/capi/roctx_bridge.cc): connect / disconnect a libroctx
// link. Detach `link`, or whichever link is attached when NULL.
void AttachRoctx(RoctxLink* link);
void DetachRoctx(RoctxLink* link);

// The SONAMEs RTLD_NOLOAD matches a library loaded RTLD_LOCAL by: ROCm's,
// which programs record in DT_NEEDED (see runtime/capi/roctracer.map).
constexpr char kTracerSoname[] = "libroctracer64.so.4";
constexpr char kRoctxSoname[] = "libroctx64.so.4";

// Finds `symbol` of the other library: in global scope, or, if that library
// was loaded RTLD_LOCAL, through its already-loaded handle (RTLD_NOLOAD never
// loads it). NULL when the other library is not loaded.
template <typename Fn>
Fn LookupPeerSymbol(const char* soname, const char* symbol) {
  void* sym = dlsym(RTLD_DEFAULT, symbol);
  if (sym == nullptr) {
    if (void* handle = dlopen(soname, RTLD_NOW | RTLD_NOLOAD)) {
      sym = dlsym(handle, symbol);
      dlclose(handle);
    }
  }
  return reinterpret_cast<Fn>(sym);
}

}  // namespace roctracer

extern "C" {
// Exported by libroctx64.so.
__attribute__((visibility("default"))) roctracer::RoctxLink*
roctx_internal_link(void);
// Exported by libroctracer64.so.
__attribute__((visibility("default"))) void roctracer_internal_roctx_attach(
    roctracer::RoctxLink* link);
__attribute__((visibility("default"))) void roctracer_internal_roctx_detach(
    roctracer::RoctxLink* link);
}

#endif  // RUNTIME_PRIVATE_ROCTX_LINK_H_
