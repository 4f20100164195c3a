// The callback-tracing kinds: names, operations, and the mapping between an
// SDK (kind, operation) and the roctracer (domain, API ID) the interception
// layer reports. HSA and HIP operations come from the generated tables
// (codegen/sdk_kinds.py), marker operations from roctx.h.
#ifndef ROCPROFILER_SDK_IMPL_KINDS_H_
#define ROCPROFILER_SDK_IMPL_KINDS_H_

#include <atomic>
#include <cstdint>
#include <cstring>

#include "rocprofiler-sdk/fwd.h"
#include "runtime/intercept/api_consumer.h"

namespace rocprofiler_sdk {

// Where a kind's calls come from. kRoctxRequest: the rocprofiler-sdk-roctx
// requests (runtime/private/roctx_link.h), reported under kRoctxRequestDomain.
// kGpu: GPU work and code objects, from the GPU half's observer seam
// (gpu_kinds.h), not from API calls. kMemory: MEMORY_ALLOCATION, from the
// HSA allocation and free calls (memory_allocation.h). kRuntimeInit: the
// runtimes' initialization (runtime_initialization.h). kHipStream: the HIP
// calls that create, destroy or use a stream (hip_streams.h). kRoctxRange:
// rocTX calls seen as ranges (marker_ranges.h).
enum class Source : uint8_t {
  kNone,
  kHsa,
  kHip,
  kRoctx,
  kRoctxRequest,
  kGpu,
  kMemory,
  kRuntimeInit,
  kHipStream,
  kRoctxRange
};

struct KindInfo {
  const char* name;  // "HSA_CORE_API"
  Source source;     // kNone: not traced by this library
  int32_t first_op;  // 0 for API kinds, 1 when the enum's 0 is NONE
  int32_t last_op;   // the enum's LAST
  // API kinds: ids[op] is the domain's API ID (gen::kUntraced: none);
  // NULL for the others
  const uint32_t* ids;
  const char* const* op_names;  // op_names[op - first_op]
};

constexpr int kKindCount = ROCPROFILER_CALLBACK_TRACING_LAST;

// The integer an enum argument holds. Callers can pass any value, and
// reading an enum object that holds none of its enumerators is undefined
// (UBSan's enum check aborts on it): every enum the API receives is read
// through this and validated as an integer.
template <class E>
int32_t RawValue(const E& e) noexcept {
  static_assert(sizeof(E) == sizeof(int32_t), "an int-sized enum");
  int32_t v;
  std::memcpy(&v, &e, sizeof(v));
  return v;
}

// nullptr for NONE, LAST and values outside the enum.
const KindInfo* FindKind(int32_t kind) noexcept;

inline bool ValidOp(const KindInfo& k, int32_t op) noexcept {
  return op >= k.first_op && op < k.last_op;
}

// nullptr when `op` is not an operation of `k`.
const char* OperationName(const KindInfo& k, int32_t op) noexcept;

// The largest operation count of any kind: the size of per-kind op bitsets.
constexpr int32_t kMaxOps = 1024;

// (domain, API ID) -> (kind, operation); kind 0 when not traced.
struct KindOp {
  uint16_t kind;
  // HSA and HIP calls: the size of the op's member of the runtime's argument
  // union (what a callback's payload copies), kept in the padding so that a
  // delivery makes no call for it; 0 otherwise.
  uint16_t args_size;
  int32_t op;
};
static_assert(sizeof(KindOp) == 8, "MapCall reads one word per call");

// The tables MapCall reads, by domain: roctracer's domains 0..7, then the
// rocTX request domain. Filled when the tables are built (the first
// MapCallSlow), then read without a call on every traced call's ENTER and
// EXIT.
struct CallMap {
  const KindOp* ops;
  uint32_t count;
};
constexpr int kCallMapDomains = 9;
extern CallMap g_call_maps[kCallMapDomains];
extern std::atomic<bool> g_call_maps_ready;
KindOp MapCallSlow(uint32_t domain, uint32_t id) noexcept;

inline KindOp MapCall(uint32_t domain, uint32_t id) noexcept {
  if (__builtin_expect(g_call_maps_ready.load(std::memory_order_acquire), 1)) {
    const uint32_t d =
        domain == roctracer::kRoctxRequestDomain ? kCallMapDomains - 1 : domain;
    if (d < kCallMapDomains && id < g_call_maps[d].count) {
      return g_call_maps[d].ops[id];
    }
    return KindOp{0, 0, 0};
  }
  return MapCallSlow(domain, id);
}

// MapCall where the tables are known to be built: in ConsumeBufferedFirst,
// which interest.cc installs only after building them (its ENTER then skips
// the flag).
inline KindOp MapCallBuilt(uint32_t domain, uint32_t id) noexcept {
  const uint32_t d =
      domain == roctracer::kRoctxRequestDomain ? kCallMapDomains - 1 : domain;
  if (d < kCallMapDomains && id < g_call_maps[d].count) {
    return g_call_maps[d].ops[id];
  }
  return KindOp{0, 0, 0};
}

// The roctracer (domain, API ID) of an API kind's operation; false for
// non-API kinds, invalid operations and operations this library does not
// trace.
bool DomainIdOf(int32_t kind, int32_t op, uint32_t* domain,
                uint32_t* id) noexcept;

}  // namespace rocprofiler_sdk

#endif  // ROCPROFILER_SDK_IMPL_KINDS_H_
