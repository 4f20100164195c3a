// The contract between generated intercept stubs and the tracing runtime.
//
// Every generated stub (HSA table-slot wrapper or C-symbol wrapper) does, in
// this order:
//   1. if (!roctracer::hook::IsActive(domain, op)) return next(args...);
//   2. fill a <domain>_api_data_t on its stack with the arguments (pointers
//      are stored, never dereferenced), leaving correlation_id, phase and
//      phase_data to the runtime;
//   3. roctracer::hook::Enter(domain, op, &data, &frame);
//   4. call next, store the result in data's retval union (not for void);
//   5. roctracer::hook::Exit(domain, op, &data, &frame); return the result.
// `frame` is opaque storage the runtime owns for the duration of one call
// (e.g. a correlation ID and a timestamp), so Enter/Exit need no allocation.
//
// The generated code defines the per-domain `active` arrays (all zero); the
// runtime defines Enter/Exit and flips bytes of the arrays to enable an op.
#ifndef RUNTIME_INTERCEPT_API_HOOK_H_
#define RUNTIME_INTERCEPT_API_HOOK_H_

#include <atomic>
#include <cstdint>
#include <cstring>

#include "api_domain_list.h"
#include "runtime/platform/readable_memory.h"

namespace roctracer::hook {

// kDomain<D>Api (activity_domain_t values) and the per-domain active-byte
// arrays g_<d>_api_active[] (one byte per API ID, non-zero: call Enter/Exit)
// are generated, one per domain of the generator's list: api_domain_list.h.

// Runtime-owned per-call storage, living on the stub's stack (api_hook.cc
// keeps the call's correlation IDs, timestamps, callback and the link to the
// enclosing call here, so tracing a call allocates nothing). Left
// uninitialised (the stubs write `CallFrame frame{}`): Enter writes every
// field it or Exit reads, which costs fewer stores than zeroing 96 bytes.
struct CallFrame {
  CallFrame() noexcept {}
  uint64_t slots[12];
};

// How Exit goes on, decided by Enter: bits of the frame's first 16 bits,
// which every Enter writes (api_hook.cc's TracedCall::flags). Exit tests
// them inline, so that neither path pays for the other's dispatch.
enum FrameRoute : uint16_t {
  kFrameSkip = 1,           // nothing to do at EXIT
  kFrameConsumerOnly = 16,  // only the consumer (api_consumer.h) gets EXIT
};
inline uint16_t FrameRouteOf(const CallFrame* frame) noexcept {
  uint16_t route;
  std::memcpy(&route, frame->slots, sizeof(route));
  return route;
}

// The active byte's value while only the consumer (api_consumer.h) wants
// the op (runtime/activity's kActiveConsumer): Enter then takes the
// consumer's path, with no callback or pool to look up.
constexpr uint8_t kActiveConsumerOnly = 2;

// Uninitialised stack storage for a <domain>_api_data_t. Some argument types
// have C++ constructors (HIP's dim3), which deletes the implicit constructor
// of the C-compatible unions in the data struct; the stub assigns every field
// it uses, so no constructor needs to run.
template <class T>
union DataStorage {
  DataStorage() noexcept {}
  T value;
};

// The wrappers-installed-but-nothing-enabled path: one relaxed byte load.
// `domain` and `op` are compile-time constants in every stub, so the branch
// on the domain folds away.
inline std::atomic<uint8_t>* ActiveFlags(uint32_t domain) noexcept {
#define ROCTRACER_ACTIVE_FLAGS_OF(d, value) \
  if (domain == value) return g_##d##_api_active;
  ROCTRACER_FOR_EACH_API_DOMAIN(ROCTRACER_ACTIVE_FLAGS_OF)
#undef ROCTRACER_ACTIVE_FLAGS_OF
  return nullptr;
}

inline bool IsActive(uint32_t domain, uint32_t op) noexcept {
  return ActiveFlags(domain)[op].load(std::memory_order_relaxed) != 0;
}

// A pointer argument's `__val` copy: the pointee when readable, zeroes
// otherwise (see CopyIfReadable).
template <typename T>
inline void CopyPointee(T* val, const void* arg) noexcept {
  roctracer::platform::CopyIfReadable(val, arg, sizeof(T));
}

// ENTER and EXIT of one API domain (api_hook.cc instantiates them for every
// domain of api_domain_list.h). `data` points to the domain's
// <d>_api_data_t.
template <uint32_t kDomain>
void EnterDomain(uint32_t op, void* data, CallFrame* frame) noexcept;
template <uint32_t kDomain>
void ExitDomain(uint32_t op, void* data, CallFrame* frame) noexcept;
// The same for a call whose active byte was kActiveConsumerOnly at ENTER,
// and for its EXIT (when Enter routed it so).
template <uint32_t kDomain>
void EnterConsumerDomain(uint32_t op, void* data, CallFrame* frame) noexcept;
template <uint32_t kDomain>
void ExitConsumerDomain(uint32_t op, void* data, CallFrame* frame) noexcept;
// ENTER of a value that is no API domain of this build: Exit does nothing.
void EnterUnknownDomain(CallFrame* frame) noexcept;

// `data` points to the <d>_api_data_t of `domain` (hsa_api_data_t for
// kDomainHsaApi, ...). A call Enter traces gets data->correlation_id and
// data->phase_data set there, and data->phase before any callback or the
// consumer reads it (ENTER, EXIT); nothing reads them of a call it skips.
// Both must not throw (they run inside the traced runtime's call). Inline:
// every stub names its domain as a constant, so this is a direct call of that
// domain's EnterDomain, with no dispatch on the domain at run time.
inline void Enter(uint32_t domain, uint32_t op, void* data,
                  CallFrame* frame) noexcept {
#define ROCTRACER_ENTER_DOMAIN(d, value)                           \
  if (domain == value) {                                           \
    if (ActiveFlags(domain)[op].load(std::memory_order_relaxed) == \
        kActiveConsumerOnly) {                                     \
      return EnterConsumerDomain<value>(op, data, frame);          \
    }                                                              \
    return EnterDomain<value>(op, data, frame);                    \
  }
  ROCTRACER_FOR_EACH_API_DOMAIN(ROCTRACER_ENTER_DOMAIN)
#undef ROCTRACER_ENTER_DOMAIN
  EnterUnknownDomain(frame);
}

inline void Exit(uint32_t domain, uint32_t op, void* data,
                 CallFrame* frame) noexcept {
  const uint16_t route = FrameRouteOf(frame);
  if (route & (kFrameSkip | kFrameConsumerOnly)) {
    if (route & kFrameSkip) return;
#define ROCTRACER_EXIT_CONSUMER_DOMAIN(d, value) \
  if (domain == value) return ExitConsumerDomain<value>(op, data, frame);
    ROCTRACER_FOR_EACH_API_DOMAIN(ROCTRACER_EXIT_CONSUMER_DOMAIN)
#undef ROCTRACER_EXIT_CONSUMER_DOMAIN
    return;
  }
#define ROCTRACER_EXIT_DOMAIN(d, value) \
  if (domain == value) return ExitDomain<value>(op, data, frame);
  ROCTRACER_FOR_EACH_API_DOMAIN(ROCTRACER_EXIT_DOMAIN)
#undef ROCTRACER_EXIT_DOMAIN
}

}  // namespace roctracer::hook

#endif  // RUNTIME_INTERCEPT_API_HOOK_H_
