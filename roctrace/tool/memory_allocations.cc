#include "roctrace/tool/memory_allocations.h"

#include <dlfcn.h>
#include <roctracer_hsa.h>

#include <iterator>

#include "runtime/private/tool_activity.h"

namespace roctrace {
namespace {

// The virtual memory calls are known to the library only where its HSA
// headers have them: elsewhere their lookup fails and they are left out.
constexpr const char* kCalls[] = {
    "hsa_amd_memory_pool_allocate", "hsa_amd_memory_pool_free",
    "hsa_memory_allocate",          "hsa_memory_free",
    "hsa_amd_vmem_handle_create",   "hsa_amd_vmem_handle_release"};

// The HSA functions that describe agents, from the runtime the program
// loaded (the tool links none).
template <typename F>
F Find(const char* name) {
  return reinterpret_cast<F>(dlsym(RTLD_DEFAULT, name));
}

}  // namespace

bool MemoryAllocations::IsAllocationCall(const std::string& name) {
  for (const char* call : kCalls) {
    if (name == call) return true;
  }
  return false;
}

bool MemoryAllocations::Start(roctracer_pool_t* pool, ToolCallback also) {
  also_ = also;
  uint32_t* ops[] = {&pool_allocate_, &pool_free_,   &allocate_,
                     &free_,          &vmem_create_, &vmem_release_};
  static_assert(std::size(ops) == std::size(kCalls));
  bool any = false;
  for (size_t i = 0; i < std::size(kCalls); ++i) {
    uint32_t op = 0;
    if (roctracer_op_code(ACTIVITY_DOMAIN_HSA_API, kCalls[i], &op, nullptr) !=
        ROCTRACER_STATUS_SUCCESS) {
      continue;
    }
    *ops[i] = op;
    any = true;
    roctracer_internal_tool_enable_op_callback(ACTIVITY_DOMAIN_HSA_API, op,
                                               Callback, this);
    if (pool != nullptr) {
      roctracer_internal_tool_enable_op_activity(ACTIVITY_DOMAIN_HSA_API, op,
                                                 pool);
    }
  }
  return any;
}

void MemoryAllocations::Callback(uint32_t domain, uint32_t op, const void* data,
                                 void* arg) {
  if (domain != ACTIVITY_DOMAIN_HSA_API || data == nullptr) return;
  auto* self = static_cast<MemoryAllocations*>(arg);
  self->OnCall(op, data);
  if (self->also_ != nullptr) self->also_(domain, op, data, nullptr);
}

void MemoryAllocations::OnCall(uint32_t op, const void* data) {
  const auto* d = static_cast<const hsa_api_data_t*>(data);
  Call call{};
  uint64_t source = 0;
  if (op == pool_allocate_ || op == allocate_) {
    if (d->hsa_status_t_retval != HSA_STATUS_SUCCESS) return;
    void** ptr = op == pool_allocate_ ? d->args.hsa_amd_memory_pool_allocate.ptr
                                      : d->args.hsa_memory_allocate.ptr;
    if (ptr == nullptr) return;
    call.allocation.address = reinterpret_cast<uintptr_t>(*ptr);
    call.allocation.size = op == pool_allocate_
                               ? d->args.hsa_amd_memory_pool_allocate.size
                               : d->args.hsa_memory_allocate.size;
    source = op == pool_allocate_
                 ? d->args.hsa_amd_memory_pool_allocate.memory_pool.handle
                 : d->args.hsa_memory_allocate.region.handle;
  } else if (op == pool_free_ || op == free_) {
    // rocprofv3 records a free's address alone (size 0, no agent).
    call.free = true;
    call.allocation.address = reinterpret_cast<uintptr_t>(
        op == pool_free_ ? d->args.hsa_amd_memory_pool_free.ptr
                         : d->args.hsa_memory_free.ptr);
#if HSA_AMD_INTERFACE_VERSION_MINOR >= 4
  } else if (op == vmem_create_) {
    // As rocprofiler-sdk records it: the handle made (which is its
    // memory's address), the size, the agent of the memory pool.
    if (d->hsa_status_t_retval != HSA_STATUS_SUCCESS) return;
    const auto& args = d->args.hsa_amd_vmem_handle_create;
    if (args.memory_handle == nullptr) return;
    call.vmem = true;
    call.allocation.address = args.memory_handle->handle;
    call.allocation.size = args.size;
    source = args.pool.handle;
  } else if (op == vmem_release_) {
    call.free = true;
    call.vmem = true;
    call.allocation.address =
        d->args.hsa_amd_vmem_handle_release.memory_handle.handle;
#endif
  } else {
    return;
  }
  std::lock_guard<std::mutex> lock(mutex_);
  if (!call.free) {
    call.allocation.has_agent = AgentOf(source, &call.allocation.agent);
  }
  try {
    calls_[d->correlation_id] = call;
  } catch (const std::bad_alloc&) {
    // The call is written without its allocation record.
  }
}

bool MemoryAllocations::Take(uint64_t correlation_id, Call* out) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = calls_.find(correlation_id);
  if (it == calls_.end()) return false;
  *out = it->second;
  calls_.erase(it);
  return true;
}

// Walks the agents once, in the runtime's order (GPU n is the n-th kernel
// agent, HIP's device n; CPU n the n-th CPU agent), and their memory pools
// and regions. Runs inside a traced call's callback, where this thread's
// calls are not traced.
bool MemoryAllocations::AgentOf(uint64_t handle, AgentRef* out) {
  if (!agents_read_) {
    agents_read_ = true;
    using IterateAgents =
        hsa_status_t (*)(hsa_status_t(*)(hsa_agent_t, void*), void*);
    using AgentInfo = hsa_status_t (*)(hsa_agent_t, hsa_agent_info_t, void*);
    using IteratePools = hsa_status_t (*)(
        hsa_agent_t, hsa_status_t(*)(hsa_amd_memory_pool_t, void*), void*);
    using IterateRegions = hsa_status_t (*)(
        hsa_agent_t, hsa_status_t(*)(hsa_region_t, void*), void*);
    struct Walk {
      AgentInfo info;
      IteratePools pools;
      IterateRegions regions;
      std::unordered_map<uint64_t, AgentRef>* agent_of;
      int32_t gpus = 0, cpus = 0;
      AgentRef current{};
    } walk{Find<AgentInfo>("hsa_agent_get_info"),
           Find<IteratePools>("hsa_amd_agent_iterate_memory_pools"),
           Find<IterateRegions>("hsa_agent_iterate_regions"), &agent_of_};
    auto iterate = Find<IterateAgents>("hsa_iterate_agents");
    if (iterate == nullptr || walk.info == nullptr) return false;
    iterate(
        [](hsa_agent_t agent, void* arg) {
          auto* w = static_cast<Walk*>(arg);
          hsa_device_type_t type = HSA_DEVICE_TYPE_CPU;
          w->info(agent, HSA_AGENT_INFO_DEVICE, &type);
          const bool gpu = type == HSA_DEVICE_TYPE_GPU;
          w->current = AgentRef{gpu, gpu ? w->gpus++ : w->cpus++};
          if (w->pools != nullptr) {
            w->pools(
                agent,
                [](hsa_amd_memory_pool_t pool, void* arg) {
                  auto* w = static_cast<Walk*>(arg);
                  w->agent_of->emplace(pool.handle, w->current);
                  return HSA_STATUS_SUCCESS;
                },
                w);
          }
          if (w->regions != nullptr) {
            w->regions(
                agent,
                [](hsa_region_t region, void* arg) {
                  auto* w = static_cast<Walk*>(arg);
                  w->agent_of->emplace(region.handle, w->current);
                  return HSA_STATUS_SUCCESS;
                },
                w);
          }
          return HSA_STATUS_SUCCESS;
        },
        &walk);
  }
  auto it = agent_of_.find(handle);
  if (it == agent_of_.end()) return false;
  *out = it->second;
  return true;
}

}  // namespace roctrace
