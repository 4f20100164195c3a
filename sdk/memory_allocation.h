// MEMORY_ALLOCATION (callback and buffer tracing): the HSA runtime's
// allocation and free calls, seen on the consumer seam as the calls
// themselves (runtime/intercept/api_consumer.h), as rocprofiler-sdk 1.0.0
// reports them: hsa_memory_allocate and hsa_amd_memory_pool_allocate are
// ALLOCATE, hsa_amd_vmem_handle_create VMEM_ALLOCATE, hsa_memory_free and
// hsa_amd_memory_pool_free FREE, hsa_amd_vmem_handle_release VMEM_FREE
// (the vmem calls where the runtime's headers have them: HSA >= 6.1).
#ifndef ROCPROFILER_SDK_IMPL_MEMORY_ALLOCATION_H_
#define ROCPROFILER_SDK_IMPL_MEMORY_ALLOCATION_H_

#include <cstdint>

#include "hsa_api_id.h"
#include "runtime/intercept/api_consumer.h"
#include "sdk/context.h"
#include "sdk/thread_state.h"

namespace rocprofiler_sdk {

// HSA API ID -> its MEMORY_ALLOCATION operation, 0 for none: filled by a
// load-time constructor (zero, so "none", before it runs), read on every
// traced HSA call without a guard.
extern int8_t g_memory_op[HSA_API_ID_NUMBER];

// The MEMORY_ALLOCATION operation of HSA API ID `id`; 0 when it is none.
inline int32_t MemoryOpOf(uint32_t id) noexcept {
  return id < HSA_API_ID_NUMBER ? g_memory_op[id] : 0;
}

// Calls fn(id, data) for each HSA API ID reported as operation `op`.
void ForEachMemoryApi(int32_t op, void (*fn)(uint32_t id, void* data),
                      void* data) noexcept;

// Whether an active context traces MEMORY_ALLOCATION (callback or buffer).
inline bool MemoryTraced() noexcept {
  constexpr int kKind = ROCPROFILER_CALLBACK_TRACING_MEMORY_ALLOCATION;
  static_assert(
      static_cast<int>(kKind) ==
          static_cast<int>(ROCPROFILER_BUFFER_TRACING_MEMORY_ALLOCATION),
      "MEMORY_ALLOCATION shares its number");
  return (g_active_mask.load(std::memory_order_acquire) &
          (g_kind_mask[kKind].load(std::memory_order_acquire) |
           g_buffer_kind_mask[kKind].load(std::memory_order_acquire))) != 0;
}

// At the ENTER of allocation call `info` (operation `op`), after its own API
// callbacks, with its frame at index `frame`: asks the request services,
// calls the ENTER callbacks and notes what EXIT needs.
void MemoryEnter(const roctracer::ApiCallInfo& info, int32_t op, ThreadState& t,
                 uint32_t frame) noexcept;

// At the EXIT of that call, before its own API callbacks: the EXIT
// callbacks (with the times and the address) and the buffer records.
void MemoryExit(const roctracer::ApiCallInfo& info, ThreadState& t) noexcept;

}  // namespace rocprofiler_sdk

#endif  // ROCPROFILER_SDK_IMPL_MEMORY_ALLOCATION_H_
