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

#include "rocprofiler-sdk/callback_tracing.h"
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

struct Context {
  std::atomic<bool> created{false};
  std::atomic<bool> invalid{false};  // its tool failed init or finalized
  uint32_t client = 0;
  Service services[kKindCount];
};

extern Context g_contexts[kMaxContexts];
// Bit i: context i is active.
extern std::atomic<uint64_t> g_active_mask;
// Per kind, bit i: context i configured this kind.
extern std::atomic<uint64_t> g_kind_mask[kKindCount];

// The context of a handle, or nullptr for an unknown/never-created one.
Context* FindContext(rocprofiler_context_id_t id) noexcept;

// Stops every context of `client` and marks them invalid.
void InvalidateClientContexts(uint32_t client) noexcept;

}  // namespace rocprofiler_sdk

#endif  // ROCPROFILER_SDK_IMPL_CONTEXT_H_
