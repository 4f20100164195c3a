// rocprofv3's --memory-allocation-trace: the HSA calls that allocate and free
// memory pool memory (hsa_amd_memory_pool_allocate/_free,
// hsa_memory_allocate/_free) and, where the HSA headers have them (AMD
// extension interface 1.4 on), virtual memory handles
// (hsa_amd_vmem_handle_create/_release), as rocprofiler-sdk records them. A
// tool callback at each call's EXIT (tracing suspended on the thread) keeps
// what the call's activity record lacks: the address, the size and the agent
// whose memory pool or region it came from (found once by walking the
// agents' pools and regions). The tool pairs it by correlation ID with the
// call's activity record, which gives the times.
#ifndef ROCTRACE_TOOL_MEMORY_ALLOCATIONS_H_
#define ROCTRACE_TOOL_MEMORY_ALLOCATIONS_H_

#include <roctracer.h>

#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_map>

#include "roctrace/writers/event.h"

namespace roctrace {

class MemoryAllocations {
 public:
  struct Call {
    bool free;
    // A virtual memory handle's (rocprofv3's MEMORY_ALLOCATION_VMEM_*): its
    // address is the handle.
    bool vmem;
    MemoryAllocation allocation;
  };

  using ToolCallback = void (*)(uint32_t domain, uint32_t op, const void* data,
                                void* arg);
  // Registers the callbacks (the tool slot's) and, when `pool` is not null,
  // the calls' activity records into it (when the HSA domain is not traced
  // as a whole). An op has one tool callback: `also`, when not null, is
  // called after ours with a null argument (the arguments' capture, which
  // these calls' callback would otherwise replace). False when the library
  // knows none of the calls.
  bool Start(roctracer_pool_t* pool, ToolCallback also = nullptr);
  // Whether an HSA API name is one of the calls.
  static bool IsAllocationCall(const std::string& name);
  // The call with this correlation ID, once (false: none, or it failed).
  bool Take(uint64_t correlation_id, Call* out);

  // What the tool callback keeps of HSA call `op` (its hsa_api_data_t at
  // EXIT), for Take. Public for tests.
  void OnCall(uint32_t op, const void* data);

 private:
  static void Callback(uint32_t domain, uint32_t op, const void* data,
                       void* arg);
  // The agent of a memory pool or region handle; false when not found.
  bool AgentOf(uint64_t handle, AgentRef* out);

  ToolCallback also_ = nullptr;
  uint32_t pool_allocate_ = UINT32_MAX, pool_free_ = UINT32_MAX;
  uint32_t allocate_ = UINT32_MAX, free_ = UINT32_MAX;
  uint32_t vmem_create_ = UINT32_MAX, vmem_release_ = UINT32_MAX;
  std::mutex mutex_;
  std::unordered_map<uint64_t, Call> calls_;  // by correlation ID
  bool agents_read_ = false;
  std::unordered_map<uint64_t, AgentRef> agent_of_;  // pool/region handle
};

}  // namespace roctrace

#endif  // ROCTRACE_TOOL_MEMORY_ALLOCATIONS_H_
