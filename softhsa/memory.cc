// Memory pools and regions. Each CPU agent pool and each kernel agent pool is
// host memory (there is no device memory); what differs is what ROCR reports
// for it: the CPU agent's fine-grained pool (kernarg) and coarse-grained
// pool, a kernel agent's coarse-grained "device" pool. Regions are the same
// objects seen through the core API. Allocations are recorded for
// hsa_amd_pointer_info and for checking frees.
#include "softhsa/memory.h"

#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <vector>

#include "softhsa/api.h"
#include "softhsa/runtime.h"

namespace softhsa {
namespace {

constexpr size_t kGranule = 4096;

struct Allocation {
  size_t size;
  Pool* pool;  // nullptr: a locked host range
  void* user_data;
  std::vector<hsa_agent_t> access;
};

std::mutex& g_mutex = *new std::mutex;
std::map<uintptr_t, Allocation>& g_allocations =
    *new std::map<uintptr_t, Allocation>;

template <typename T>
hsa_status_t Put(void* value, const T& v) {
  memcpy(value, &v, sizeof(T));
  return HSA_STATUS_SUCCESS;
}

bool IsGlobal(const Pool* p) { return p->segment == HSA_AMD_SEGMENT_GLOBAL; }

// 0 for a non-global pool, as ROCR answers.
uint32_t GlobalFlags(const Pool* p) {
  if (!IsGlobal(p)) return 0;
  uint32_t f = p->fine_grained ? HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED
                               : HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED;
  if (p->kernarg) f |= HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT;
  return f;
}

// The allocation containing `ptr`, or end().
std::map<uintptr_t, Allocation>::iterator Find(const void* ptr) {
  auto key = reinterpret_cast<uintptr_t>(ptr);
  auto it = g_allocations.upper_bound(key);
  if (it == g_allocations.begin()) return g_allocations.end();
  --it;
  return key < it->first + it->second.size ? it : g_allocations.end();
}

}  // namespace

bool IsAllocated(const void* ptr, size_t size) {
  std::lock_guard<std::mutex> lock(g_mutex);
  auto it = Find(ptr);
  return it != g_allocations.end() &&
         reinterpret_cast<uintptr_t>(ptr) + size <= it->first + it->second.size;
}

size_t AllocatedFrom(const Pool* pool) {
  std::lock_guard<std::mutex> lock(g_mutex);
  size_t bytes = 0;
  for (const auto& [base, a] : g_allocations) {
    if (a.pool == pool) bytes += a.size;
  }
  return bytes;
}

void ResetMemory() {
  std::lock_guard<std::mutex> lock(g_mutex);
  for (auto& [base, a] : g_allocations) {
    if (a.pool != nullptr) free(reinterpret_cast<void*>(base));
  }
  g_allocations.clear();
}

namespace api {

hsa_status_t hsa_amd_agent_iterate_memory_pools(
    hsa_agent_t agent,
    hsa_status_t (*callback)(hsa_amd_memory_pool_t memory_pool, void* data),
    void* data) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  Agent* a = ToAgent(agent);
  if (a == nullptr) return HSA_STATUS_ERROR_INVALID_AGENT;
  if (callback == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  for (Pool* p : a->pools) {
    hsa_status_t s =
        callback(hsa_amd_memory_pool_t{reinterpret_cast<uint64_t>(p)}, data);
    if (s != HSA_STATUS_SUCCESS) return s;
  }
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_memory_pool_get_info(hsa_amd_memory_pool_t memory_pool,
                                          hsa_amd_memory_pool_info_t attribute,
                                          void* value) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  Pool* p = ToPool(memory_pool.handle);
  if (p == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (value == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  switch (attribute) {
    case HSA_AMD_MEMORY_POOL_INFO_SEGMENT:
      return Put<hsa_amd_segment_t>(value, p->segment);
    case HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS:
      return Put<uint32_t>(value, GlobalFlags(p));
    case HSA_AMD_MEMORY_POOL_INFO_SIZE:
      return Put<size_t>(value, p->size);
    case HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED:
      return Put<bool>(value, IsGlobal(p));
    case HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_GRANULE:
    case HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALIGNMENT:
      return Put<size_t>(value, IsGlobal(p) ? kGranule : 0);
    case HSA_AMD_MEMORY_POOL_INFO_ACCESSIBLE_BY_ALL:
      return Put<bool>(value, p->owner->type == HSA_DEVICE_TYPE_CPU);
    case HSA_AMD_MEMORY_POOL_INFO_ALLOC_MAX_SIZE:
      return Put<size_t>(value, IsGlobal(p) ? p->size : 0);
    default:
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
}

hsa_status_t hsa_amd_agent_memory_pool_get_info(
    hsa_agent_t agent, hsa_amd_memory_pool_t memory_pool,
    hsa_amd_agent_memory_pool_info_t attribute, void* value) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  Agent* a = ToAgent(agent);
  if (a == nullptr) return HSA_STATUS_ERROR_INVALID_AGENT;
  Pool* p = ToPool(memory_pool.handle);
  if (p == nullptr || value == nullptr)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  // As on a discrete GPU: an agent reaches its own pools, every agent the
  // CPU's, the CPU a GPU's only once allowed, GPUs each other's never.
  hsa_amd_memory_pool_access_t access;
  if (p->owner == a || p->owner->type == HSA_DEVICE_TYPE_CPU) {
    access = HSA_AMD_MEMORY_POOL_ACCESS_ALLOWED_BY_DEFAULT;
  } else if (a->type == HSA_DEVICE_TYPE_CPU) {
    access = HSA_AMD_MEMORY_POOL_ACCESS_DISALLOWED_BY_DEFAULT;
  } else {
    access = HSA_AMD_MEMORY_POOL_ACCESS_DISALLOWED_BY_DEFAULT;
  }
  switch (attribute) {
    case HSA_AMD_AGENT_MEMORY_POOL_INFO_ACCESS:
      return Put(value, access);
    case HSA_AMD_AGENT_MEMORY_POOL_INFO_NUM_LINK_HOPS:
      return Put<uint32_t>(value, p->owner == a ? 0 : 1);
    case HSA_AMD_AGENT_MEMORY_POOL_INFO_LINK_INFO: {
      if (p->owner == a) return HSA_STATUS_SUCCESS;
      hsa_amd_memory_pool_link_info_t link{};
      link.link_type = HSA_AMD_LINK_INFO_TYPE_PCIE;
      link.numa_distance = 20;
      return Put(value, link);
    }
    default:
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
}

hsa_status_t hsa_amd_memory_pool_allocate(hsa_amd_memory_pool_t memory_pool,
                                          size_t size, uint32_t, void** ptr) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  Pool* p = ToPool(memory_pool.handle);
  if (p == nullptr || ptr == nullptr || size == 0) {
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  if (!IsGlobal(p) || size > p->size) {
    return HSA_STATUS_ERROR_INVALID_ALLOCATION;
  }
  size_t rounded = (size + kGranule - 1) / kGranule * kGranule;
  void* mem = aligned_alloc(kGranule, rounded);
  if (mem == nullptr) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  std::lock_guard<std::mutex> lock(g_mutex);
  g_allocations[reinterpret_cast<uintptr_t>(mem)] =
      Allocation{size, p, nullptr, {ToHandle(p->owner)}};
  *ptr = mem;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_memory_pool_free(void* ptr) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (ptr == nullptr) return HSA_STATUS_SUCCESS;
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    auto it = g_allocations.find(reinterpret_cast<uintptr_t>(ptr));
    if (it == g_allocations.end() || it->second.pool == nullptr) {
      return HSA_STATUS_ERROR_INVALID_ALLOCATION;
    }
    g_allocations.erase(it);
  }
  free(ptr);
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_agents_allow_access(uint32_t num_agents,
                                         const hsa_agent_t* agents,
                                         const uint32_t*, const void* ptr) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (num_agents == 0 || agents == nullptr || ptr == nullptr) {
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  for (uint32_t i = 0; i < num_agents; ++i) {
    if (ToAgent(agents[i]) == nullptr) return HSA_STATUS_ERROR_INVALID_AGENT;
  }
  std::lock_guard<std::mutex> lock(g_mutex);
  auto it = Find(ptr);
  if (it == g_allocations.end()) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  for (uint32_t i = 0; i < num_agents; ++i) {
    bool known = false;
    for (auto a : it->second.access) known |= a.handle == agents[i].handle;
    if (!known) it->second.access.push_back(agents[i]);
  }
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_pointer_info(const void* ptr, hsa_amd_pointer_info_t* info,
                                  void* (*alloc)(size_t),
                                  uint32_t* num_agents_accessible,
                                  hsa_agent_t** accessible) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (info == nullptr || info->size < sizeof(info->size) + sizeof(info->type)) {
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  if ((num_agents_accessible == nullptr) != (accessible == nullptr) ||
      (accessible != nullptr && alloc == nullptr)) {
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  hsa_amd_pointer_info_t out{};
  out.size = std::min<uint32_t>(info->size, sizeof(hsa_amd_pointer_info_t));
  out.type = HSA_EXT_POINTER_TYPE_UNKNOWN;
  std::vector<hsa_agent_t> access;
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    auto it = Find(ptr);
    if (it != g_allocations.end()) {
      const Allocation& a = it->second;
      out.type =
          a.pool ? HSA_EXT_POINTER_TYPE_HSA : HSA_EXT_POINTER_TYPE_LOCKED;
      out.agentBaseAddress = reinterpret_cast<void*>(it->first);
      out.hostBaseAddress = reinterpret_cast<void*>(it->first);
      out.sizeInBytes = a.size;
      out.userData = a.user_data;
      out.agentOwner = a.pool ? ToHandle(a.pool->owner) : ToHandle(Agents()[0]);
      out.global_flags =
          a.pool ? GlobalFlags(a.pool)
                 : uint32_t{HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED};
      access = a.access;
    }
  }
  memcpy(info, &out, out.size);
  if (accessible != nullptr) {
    *num_agents_accessible = static_cast<uint32_t>(access.size());
    *accessible = static_cast<hsa_agent_t*>(
        alloc(sizeof(hsa_agent_t) * std::max<size_t>(1, access.size())));
    if (*accessible == nullptr) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
    for (size_t i = 0; i < access.size(); ++i) (*accessible)[i] = access[i];
  }
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_pointer_info_set_userdata(const void* ptr,
                                               void* userdata) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  std::lock_guard<std::mutex> lock(g_mutex);
  auto it = g_allocations.find(reinterpret_cast<uintptr_t>(ptr));
  if (it == g_allocations.end()) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  it->second.user_data = userdata;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_memory_lock(void* host_ptr, size_t size, hsa_agent_t*, int,
                                 void** agent_ptr) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (host_ptr == nullptr || size == 0 || agent_ptr == nullptr) {
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  std::lock_guard<std::mutex> lock(g_mutex);
  g_allocations[reinterpret_cast<uintptr_t>(host_ptr)] =
      Allocation{size, nullptr, nullptr, {}};
  for (Agent* a : Agents()) {
    g_allocations[reinterpret_cast<uintptr_t>(host_ptr)].access.push_back(
        ToHandle(a));
  }
  *agent_ptr = host_ptr;  // one address space: the agent sees the same one
  return HSA_STATUS_SUCCESS;
}

// The pool only says which of the CPU's pools the locked range counts as;
// here every host range is reachable by every agent either way.
hsa_status_t hsa_amd_memory_lock_to_pool(void* host_ptr, size_t size,
                                         hsa_agent_t* agents, int num_agent,
                                         hsa_amd_memory_pool_t pool,
                                         uint32_t flags, void** agent_ptr) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  Pool* p = ToPool(pool.handle);
  if (p == nullptr || p->owner->type != HSA_DEVICE_TYPE_CPU || !IsGlobal(p) ||
      flags != 0 || num_agent < 0 || (num_agent > 0 && agents == nullptr)) {
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  for (int i = 0; i < num_agent; ++i) {
    if (ToAgent(agents[i]) == nullptr) return HSA_STATUS_ERROR_INVALID_AGENT;
  }
  return api::hsa_amd_memory_lock(host_ptr, size, agents, num_agent, agent_ptr);
}

hsa_status_t hsa_amd_memory_unlock(void* host_ptr) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  std::lock_guard<std::mutex> lock(g_mutex);
  auto it = g_allocations.find(reinterpret_cast<uintptr_t>(host_ptr));
  if (it != g_allocations.end() && it->second.pool == nullptr) {
    g_allocations.erase(it);
  }
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_memory_fill(void* ptr, uint32_t value, size_t count) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (ptr == nullptr || reinterpret_cast<uintptr_t>(ptr) % 4 != 0) {
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  auto* p = static_cast<uint32_t*>(ptr);
  for (size_t i = 0; i < count; ++i) p[i] = value;
  return HSA_STATUS_SUCCESS;
}

// Regions: the pools, through the core API.
hsa_status_t hsa_agent_iterate_regions(hsa_agent_t agent,
                                       hsa_status_t (*callback)(hsa_region_t,
                                                                void*),
                                       void* data) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  Agent* a = ToAgent(agent);
  if (a == nullptr) return HSA_STATUS_ERROR_INVALID_AGENT;
  if (callback == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  for (Pool* p : a->pools) {
    hsa_status_t s =
        callback(hsa_region_t{reinterpret_cast<uint64_t>(p)}, data);
    if (s != HSA_STATUS_SUCCESS) return s;
  }
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_region_get_info(hsa_region_t region,
                                 hsa_region_info_t attribute, void* value) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  Pool* p = ToPool(region.handle);
  if (p == nullptr) return HSA_STATUS_ERROR_INVALID_REGION;
  if (value == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  switch (static_cast<int>(attribute)) {
    case HSA_REGION_INFO_SEGMENT:
      return Put<hsa_region_segment_t>(value, IsGlobal(p)
                                                  ? HSA_REGION_SEGMENT_GLOBAL
                                                  : HSA_REGION_SEGMENT_GROUP);
    case HSA_REGION_INFO_GLOBAL_FLAGS: {
      if (!IsGlobal(p)) return Put<uint32_t>(value, 0);
      uint32_t f = p->fine_grained ? HSA_REGION_GLOBAL_FLAG_FINE_GRAINED
                                   : HSA_REGION_GLOBAL_FLAG_COARSE_GRAINED;
      if (p->kernarg) f |= HSA_REGION_GLOBAL_FLAG_KERNARG;
      return Put<uint32_t>(value, f);
    }
    case HSA_REGION_INFO_SIZE:
    case HSA_REGION_INFO_ALLOC_MAX_SIZE:
      return Put<size_t>(value, p->size);
    case HSA_REGION_INFO_ALLOC_MAX_PRIVATE_WORKGROUP_SIZE:
      return Put<uint32_t>(value, 0);
    case HSA_REGION_INFO_RUNTIME_ALLOC_ALLOWED:
      return Put<bool>(value, IsGlobal(p));
    case HSA_REGION_INFO_RUNTIME_ALLOC_GRANULE:
    case HSA_REGION_INFO_RUNTIME_ALLOC_ALIGNMENT:
      return Put<size_t>(value, IsGlobal(p) ? kGranule : 0);
    case HSA_AMD_REGION_INFO_HOST_ACCESSIBLE:
      return Put<bool>(value, p->owner->type == HSA_DEVICE_TYPE_CPU);
    case HSA_AMD_REGION_INFO_BASE:
      return Put<void*>(value, nullptr);
    case HSA_AMD_REGION_INFO_BUS_WIDTH:
      return Put<uint32_t>(value, 0);
    case HSA_AMD_REGION_INFO_MAX_CLOCK_FREQUENCY:
      return Put<uint32_t>(value, 0);
    default:
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
}

hsa_status_t hsa_memory_allocate(hsa_region_t region, size_t size, void** ptr) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (ToPool(region.handle) == nullptr) return HSA_STATUS_ERROR_INVALID_REGION;
  return api::hsa_amd_memory_pool_allocate(hsa_amd_memory_pool_t{region.handle},
                                           size, 0, ptr);
}

hsa_status_t hsa_memory_free(void* ptr) {
  return api::hsa_amd_memory_pool_free(ptr);
}

hsa_status_t hsa_memory_copy(void* dst, const void* src, size_t size) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (dst == nullptr || src == nullptr)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  memmove(dst, src, size);
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_memory_register(void* ptr, size_t size) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (ptr == nullptr && size != 0) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  return HSA_STATUS_SUCCESS;  // every host address is reachable already
}

hsa_status_t hsa_memory_deregister(void*, size_t) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_memory_assign_agent(void* ptr, hsa_agent_t agent,
                                     hsa_access_permission_t) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (ToAgent(agent) == nullptr) return HSA_STATUS_ERROR_INVALID_AGENT;
  if (ptr == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  return HSA_STATUS_SUCCESS;
}

}  // namespace api
}  // namespace softhsa
