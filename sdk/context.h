// Contexts and their callback-tracing services.
//
// Storage is static (no allocation after start-up): kMaxContexts slots, each
// with one service per kind. A service is written once, inside a tool's
// initialize, before its `configured` flag is published (release); the hot
// path reads the flag (acquire) and then the plain fields. Per-kind operation
// filters are bitsets of relaxed atomics, so a reader never sees a torn word.
// Which contexts are active is one 64-bit mask (bit i = context i), and which
// contexts configured a kind another, so the hot path finds its contexts with
// two loads and no lock.
#ifndef ROCPROFILER_SDK_IMPL_CONTEXT_H_
#define ROCPROFILER_SDK_IMPL_CONTEXT_H_

#include <atomic>
#include <cstdint>

#include "rocprofiler-sdk/buffer_tracing.h"
#include "rocprofiler-sdk/callback_tracing.h"
#include "rocprofiler-sdk/external_correlation.h"
#include "sdk/kinds.h"

namespace rocprofiler_sdk {

constexpr int kMaxContexts = 64;
constexpr int kOpWords = kMaxOps / 64;

struct Service {
  std::atomic<bool> configured{false};
  rocprofiler_callback_tracing_cb_t callback = nullptr;
  void* callback_data = nullptr;
  std::atomic<uint64_t> ops[kOpWords] = {};

  bool Traces(int32_t op) const noexcept {
    return (ops[op >> 6].load(std::memory_order_relaxed) >> (op & 63)) & 1u;
  }
};

// A buffer-tracing service: records of the kind's selected operations go to
// `buffer` (an index into the buffers, sdk/buffers.h).
struct BufferService {
  std::atomic<bool> configured{false};
  int buffer = -1;
  std::atomic<uint64_t> ops[kOpWords] = {};

  bool Traces(int32_t op) const noexcept {
    return (ops[op >> 6].load(std::memory_order_relaxed) >> (op & 63)) & 1u;
  }
};

// Buffer kinds 1..kLastBufferApiKind are the API kinds, numbered as the
// callback kinds of the same name.
constexpr int kBufferKindCount = ROCPROFILER_BUFFER_TRACING_LAST;
constexpr int kLastBufferApiKind = ROCPROFILER_BUFFER_TRACING_MARKER_NAME_API;
static_assert(
    static_cast<int>(ROCPROFILER_BUFFER_TRACING_MARKER_NAME_API) ==
        static_cast<int>(ROCPROFILER_CALLBACK_TRACING_MARKER_NAME_API),
    "the API kinds share their numbers");

// The buffer kind with arguments (*_API_EXT) of an API kind; 0 if none.
constexpr int ExtBufferKindOf(int api_kind) noexcept {
  return api_kind == ROCPROFILER_BUFFER_TRACING_HIP_RUNTIME_API
             ? ROCPROFILER_BUFFER_TRACING_HIP_RUNTIME_API_EXT
         : api_kind == ROCPROFILER_BUFFER_TRACING_HIP_COMPILER_API
             ? ROCPROFILER_BUFFER_TRACING_HIP_COMPILER_API_EXT
             : 0;
}

// The external-correlation request service of a context: bit k of `kinds`
// for request kind k (rocprofiler_external_correlation_id_request_kind_t).
struct ExternalRequestService {
  std::atomic<bool> configured{false};
  uint32_t kinds = 0;
  rocprofiler_external_correlation_id_request_cb_t callback = nullptr;
  void* callback_data = nullptr;
};
constexpr int kRequestKindCount = ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_LAST;

struct Context {
  std::atomic<bool> created{false};
  std::atomic<bool> invalid{false};  // its tool failed init or finalized
  uint32_t client = 0;
  Service services[kKindCount];
  BufferService buffer_services[kBufferKindCount];
  ExternalRequestService request;
};

extern Context g_contexts[kMaxContexts];
// Bit i: context i is active.
extern std::atomic<uint64_t> g_active_mask;
// Per kind, bit i: context i configured this kind.
extern std::atomic<uint64_t> g_kind_mask[kKindCount];
// Per buffer kind, bit i: context i configured buffer tracing of this kind.
extern std::atomic<uint64_t> g_buffer_kind_mask[kBufferKindCount];
// Per API kind, bit i: context i configured buffer tracing of the kind's
// *_API_EXT kind (g_buffer_kind_mask of ExtBufferKindOf(kind); 0 for kinds
// without one), read with the kind's own mask at a traced call's ENTER.
extern std::atomic<uint64_t> g_buffer_ext_mask[kLastBufferApiKind + 1];
// Per request kind, bit i: context i asks for external IDs of that kind.
extern std::atomic<uint64_t> g_request_mask[kRequestKindCount];
// Per API kind, bit i: context i has a service that makes a call of the kind
// more than a buffer record (a callback, an *_API_EXT buffer, external-ID
// requests): g_kind_mask, g_buffer_ext_mask and g_request_mask of the kind
// OR-ed, so that a traced call's ENTER reads one word for the three.
extern std::atomic<uint64_t> g_api_general_mask[kLastBufferApiKind + 1];
// Per API kind and operation, bit i: context i buffer-traces the operation
// (g_buffer_kind_mask of the kind and its service's Traces(op) in one word,
// set when the service is configured): which contexts record a call, in one
// load at ENTER instead of a look at each context's service.
extern std::atomic<uint64_t> g_api_buffer_op_mask[kLastBufferApiKind + 1]
                                                 [kMaxOps];

// When context i was last started (runtime/clock's clock), stored before
// its active bit: a call recorded only at EXIT (RecordBufferedCall,
// dispatch.h) is recorded for the contexts active when it began, as a call
// whose ENTER the SDK saw is.
extern std::atomic<uint64_t> g_started_ns[kMaxContexts];

// The context of a handle, or nullptr for an unknown/never-created one.
Context* FindContext(rocprofiler_context_id_t id) noexcept;

// Stops every context of `client` and marks them invalid.
void InvalidateClientContexts(uint32_t client) noexcept;

// Active contexts whose callback service of `kind` (`buffer` false) or
// buffer service of `buffer_kind` traces `op`: the derived kinds' look-up
// (memory allocations, runtime initialization, rocTX ranges).
uint64_t ContextsTracing(int kind, int buffer_kind, int32_t op,
                         bool buffer) noexcept;

}  // namespace rocprofiler_sdk

#endif  // ROCPROFILER_SDK_IMPL_CONTEXT_H_
