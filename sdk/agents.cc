// Agents are read from the HSA runtime once it is initialized: through the
// runtime's own table when the tracer holds it (its calls are then neither
// intercepted nor traced), otherwise through the runtime's exported
// functions inside an untraced scope. A query before the program
// initialized HSA initializes it (hsa_init, never undone by this library,
// with this library named as the runtime's tool: tool_request.h):
// rocprofiler-sdk reads agents from the kernel driver's topology, which
// exists before hsa_init; the HSA runtime is this library's only source.
#include "sdk/agents.h"

#include <dlfcn.h>
#include <hsa/hsa_ext_amd.h>

#include <atomic>
#include <cstring>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "runtime/gpu/agents.h"
#include "runtime/gpu/runtime_table.h"
#include "runtime/gpu/tool_request.h"
#include "runtime/intercept/trace_guard.h"
#include "sdk/kinds.h"

namespace rocprofiler_sdk {
namespace {

namespace gpu = roctracer::gpu;

// The runtime functions the agent list needs.
struct Hsa {
  decltype(&hsa_init) init = nullptr;
  decltype(&hsa_iterate_agents) iterate_agents = nullptr;
  decltype(&hsa_agent_get_info) agent_get_info = nullptr;
  decltype(&hsa_amd_agent_iterate_memory_pools) iterate_pools = nullptr;
  decltype(&hsa_amd_memory_pool_get_info) pool_get_info = nullptr;
  decltype(&hsa_agent_iterate_regions) iterate_regions = nullptr;
};

Hsa Functions() noexcept {
  Hsa h;
  const CoreApiTable& core = gpu::Core();
  if (core.hsa_iterate_agents_fn != nullptr) {
    h.iterate_agents = core.hsa_iterate_agents_fn;
    h.agent_get_info = core.hsa_agent_get_info_fn;
    h.iterate_pools = gpu::Amd().hsa_amd_agent_iterate_memory_pools_fn;
    h.pool_get_info = gpu::Amd().hsa_amd_memory_pool_get_info_fn;
    h.iterate_regions = core.hsa_agent_iterate_regions_fn;
    return h;
  }
  h.init = reinterpret_cast<decltype(h.init)>(dlsym(RTLD_DEFAULT, "hsa_init"));
  h.iterate_agents = reinterpret_cast<decltype(h.iterate_agents)>(
      dlsym(RTLD_DEFAULT, "hsa_iterate_agents"));
  h.agent_get_info = reinterpret_cast<decltype(h.agent_get_info)>(
      dlsym(RTLD_DEFAULT, "hsa_agent_get_info"));
  h.iterate_pools = reinterpret_cast<decltype(h.iterate_pools)>(
      dlsym(RTLD_DEFAULT, "hsa_amd_agent_iterate_memory_pools"));
  h.pool_get_info = reinterpret_cast<decltype(h.pool_get_info)>(
      dlsym(RTLD_DEFAULT, "hsa_amd_memory_pool_get_info"));
  h.iterate_regions = reinterpret_cast<decltype(h.iterate_regions)>(
      dlsym(RTLD_DEFAULT, "hsa_agent_iterate_regions"));
  return h;
}

struct AgentList {
  uint64_t generation;  // gpu::AgentsGeneration() when read
  std::vector<rocprofiler_agent_v0_t> agents;
  std::vector<uint64_t> handles;  // hsa_agent_t of agents[i]
  std::vector<const void*> pointers;
  // Storage the agents point into (never resized once filled).
  std::vector<std::vector<rocprofiler_agent_mem_bank_t>> banks;
  std::vector<std::string> strings;
  // (pool or region handle, agent ID): whose memory an allocation is.
  std::vector<std::pair<uint64_t, uint64_t>> pools;
  std::vector<std::pair<uint64_t, uint64_t>> regions;
};

// Published once read; a list replaced after the runtime made new agents is
// kept (a reader may hold it).
std::atomic<const AgentList*> g_list{nullptr};
std::mutex& ListMutex() {
  static std::mutex* m = new std::mutex;
  return *m;
}

// "gfx90a" -> 90010: major * 10000 + minor * 100 + stepping, the last two
// hexadecimal digits of the name.
uint32_t GfxTargetVersion(const char* name) noexcept {
  if (std::strncmp(name, "gfx", 3) != 0) return 0;
  const size_t n = std::strlen(name + 3);
  if (n < 3) return 0;
  auto hex = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
  };
  const int minor = hex(name[3 + n - 2]), step = hex(name[3 + n - 1]);
  if (minor < 0 || step < 0) return 0;
  uint32_t major = 0;
  for (size_t i = 0; i + 2 < n; ++i) {
    if (name[3 + i] < '0' || name[3 + i] > '9') return 0;
    major = major * 10 + static_cast<uint32_t>(name[3 + i] - '0');
  }
  return major * 10000 + static_cast<uint32_t>(minor) * 100 +
         static_cast<uint32_t>(step);
}

// The KFD heap type a memory pool stands for: the HSA runtime answers the
// pool's segment, the KFD's topology has the heap (system memory on CPU
// nodes, frame buffer on GPU nodes).
HSA_HEAPTYPE HeapTypeOf(uint32_t segment, bool gpu) noexcept {
  switch (segment) {
    case HSA_AMD_SEGMENT_GROUP:
      return HSA_HEAPTYPE_GPU_LDS;
    case HSA_AMD_SEGMENT_PRIVATE:
      return HSA_HEAPTYPE_GPU_SCRATCH;
    default:
      return gpu ? HSA_HEAPTYPE_FRAME_BUFFER_PUBLIC : HSA_HEAPTYPE_SYSTEM;
  }
}

template <class T>
T Info(const Hsa& h, hsa_agent_t a, int attribute) noexcept {
  T v{};
  if (h.agent_get_info(a, static_cast<hsa_agent_info_t>(attribute), &v) !=
      HSA_STATUS_SUCCESS) {
    return T{};
  }
  return v;
}

// Pointers to the strings are taken once every string is stored.
void Keep(AgentList& list, const char* s) { list.strings.emplace_back(s); }

AgentList* Read() noexcept {
  const uint64_t generation = gpu::AgentsGeneration();
  const Hsa h = Functions();
  if (h.iterate_agents == nullptr || h.agent_get_info == nullptr) {
    return nullptr;
  }
  roctracer::hook::UntracedScope untraced;
  std::vector<hsa_agent_t> found;
  auto collect = [](hsa_agent_t a, void* data) {
    static_cast<std::vector<hsa_agent_t>*>(data)->push_back(a);
    return HSA_STATUS_SUCCESS;
  };
  hsa_status_t st = h.iterate_agents(collect, &found);
  // This library initializes the runtime for its tool: as the runtime's
  // tool (runtime/gpu/tool_request.h), so that GPU kinds the tool configures
  // next (Kineto queries agents first) are delivered, as on ROCm, where the
  // runtime hands its table to rocprofiler-sdk whenever a tool is present.
  if (st == HSA_STATUS_ERROR_NOT_INITIALIZED && h.init != nullptr) {
    gpu::RequestToolPath();
  }
  if (st == HSA_STATUS_ERROR_NOT_INITIALIZED && h.init != nullptr &&
      h.init() == HSA_STATUS_SUCCESS) {
    found.clear();
    st = h.iterate_agents(collect, &found);
  }
  if (st != HSA_STATUS_SUCCESS) return nullptr;

  auto* list = new AgentList;
  list->generation = generation;
  list->agents.resize(found.size());
  list->banks.resize(found.size());
  list->strings.reserve(found.size() * 3);
  int32_t per_type[ROCPROFILER_AGENT_TYPE_LAST] = {};
  for (size_t i = 0; i < found.size(); ++i) {
    const hsa_agent_t a = found[i];
    rocprofiler_agent_v0_t& r = list->agents[i];
    r.size = sizeof(r);
    r.id.handle = i + 1;
    const auto device = Info<hsa_device_type_t>(h, a, HSA_AGENT_INFO_DEVICE);
    r.type = device == HSA_DEVICE_TYPE_CPU   ? ROCPROFILER_AGENT_TYPE_CPU
             : device == HSA_DEVICE_TYPE_GPU ? ROCPROFILER_AGENT_TYPE_GPU
                                             : ROCPROFILER_AGENT_TYPE_NONE;
    const uint32_t cus =
        Info<uint32_t>(h, a, HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT);
    if (r.type == ROCPROFILER_AGENT_TYPE_CPU) {
      r.cpu_cores_count = cus;
    } else {
      r.cu_count = cus;
      r.simd_per_cu = Info<uint32_t>(h, a, HSA_AMD_AGENT_INFO_NUM_SIMDS_PER_CU);
      r.simd_count = r.cu_count * r.simd_per_cu;
      r.max_waves_per_cu =
          Info<uint32_t>(h, a, HSA_AMD_AGENT_INFO_MAX_WAVES_PER_CU);
      if (r.simd_per_cu != 0) {
        r.max_waves_per_simd = r.max_waves_per_cu / r.simd_per_cu;
      }
      r.wave_front_size = Info<uint32_t>(h, a, HSA_AGENT_INFO_WAVEFRONT_SIZE);
      r.workgroup_max_size =
          Info<uint32_t>(h, a, HSA_AGENT_INFO_WORKGROUP_MAX_SIZE);
      r.grid_max_size = Info<uint32_t>(h, a, HSA_AGENT_INFO_GRID_MAX_SIZE);
      uint16_t wg[3] = {0, 0, 0};
      if (h.agent_get_info(a, HSA_AGENT_INFO_WORKGROUP_MAX_DIM, wg) ==
          HSA_STATUS_SUCCESS) {
        r.workgroup_max_dim = {wg[0], wg[1], wg[2]};
      }
      const auto grid = Info<hsa_dim3_t>(h, a, HSA_AGENT_INFO_GRID_MAX_DIM);
      r.grid_max_dim = {grid.x, grid.y, grid.z};
      r.num_shader_banks =
          Info<uint32_t>(h, a, HSA_AMD_AGENT_INFO_NUM_SHADER_ENGINES);
      r.simd_arrays_per_engine =
          Info<uint32_t>(h, a, HSA_AMD_AGENT_INFO_NUM_SHADER_ARRAYS_PER_SE);
    }
    r.max_engine_clk_fcompute =
        Info<uint32_t>(h, a, HSA_AMD_AGENT_INFO_MAX_CLOCK_FREQUENCY);
    r.device_id =
        static_cast<uint16_t>(Info<uint32_t>(h, a, HSA_AMD_AGENT_INFO_CHIP_ID));
    r.location_id = Info<uint32_t>(h, a, HSA_AMD_AGENT_INFO_BDFID);
    r.domain = Info<uint32_t>(h, a, HSA_AMD_AGENT_INFO_DOMAIN);
    r.node_id = Info<uint32_t>(h, a, HSA_AGENT_INFO_NODE);
    r.logical_node_id = static_cast<int32_t>(i);
    r.logical_node_type_id = per_type[r.type]++;
    r.runtime_visibility.hsa = 1;
    r.runtime_visibility.hip = r.type == ROCPROFILER_AGENT_TYPE_GPU;

    char name[64] = {}, vendor[64] = {}, product[64] = {};
    h.agent_get_info(a, HSA_AGENT_INFO_NAME, name);
    h.agent_get_info(a, HSA_AGENT_INFO_VENDOR_NAME, vendor);
    h.agent_get_info(
        a, static_cast<hsa_agent_info_t>(HSA_AMD_AGENT_INFO_PRODUCT_NAME),
        product);
    name[63] = vendor[63] = product[63] = '\0';
    if (r.type == ROCPROFILER_AGENT_TYPE_GPU) {
      r.gfx_target_version = GfxTargetVersion(name);
    }
    Keep(*list, name);
    Keep(*list, vendor);
    Keep(*list, product);

    // Memory pools as memory banks, the KFD heap type from the pool's
    // segment and the agent's type (agent.h).
    if (h.iterate_pools != nullptr && h.pool_get_info != nullptr) {
      struct Ctx {
        const Hsa* h;
        std::vector<rocprofiler_agent_mem_bank_t>* banks;
        std::vector<std::pair<uint64_t, uint64_t>>* pools;
        uint64_t id;
        bool gpu;
      } ctx{&h, &list->banks[i], &list->pools, r.id.handle,
            r.type == ROCPROFILER_AGENT_TYPE_GPU};
      h.iterate_pools(
          a,
          [](hsa_amd_memory_pool_t pool, void* data) {
            auto* c = static_cast<Ctx*>(data);
            rocprofiler_agent_mem_bank_t b{};
            uint32_t segment = 0;
            size_t size = 0;
            c->h->pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_SEGMENT,
                                &segment);
            c->h->pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_SIZE, &size);
            b.heap_type = HeapTypeOf(segment, c->gpu);
            b.size_in_bytes = size;
            c->banks->push_back(b);
            c->pools->emplace_back(pool.handle, c->id);
            return HSA_STATUS_SUCCESS;
          },
          &ctx);
    }
    if (h.iterate_regions != nullptr) {
      struct Ctx {
        std::vector<std::pair<uint64_t, uint64_t>>* regions;
        uint64_t id;
      } ctx{&list->regions, r.id.handle};
      h.iterate_regions(
          a,
          [](hsa_region_t region, void* data) {
            auto* c = static_cast<Ctx*>(data);
            c->regions->emplace_back(region.handle, c->id);
            return HSA_STATUS_SUCCESS;
          },
          &ctx);
    }
    r.mem_banks_count = static_cast<uint32_t>(list->banks[i].size());
    for (const auto& b : list->banks[i]) {
      if (b.heap_type == HSA_HEAPTYPE_FRAME_BUFFER_PUBLIC) {
        r.local_mem_size += b.size_in_bytes;
      }
    }
    list->handles.push_back(a.handle);
  }
  // Pointers into storage that no longer moves.
  for (size_t i = 0; i < list->agents.size(); ++i) {
    rocprofiler_agent_v0_t& r = list->agents[i];
    r.name = list->strings[3 * i].c_str();
    r.vendor_name = list->strings[3 * i + 1].c_str();
    r.product_name = list->strings[3 * i + 2].c_str();
    r.model_name = "";
    r.mem_banks = list->banks[i].empty() ? nullptr : list->banks[i].data();
    list->pointers.push_back(&r);
  }
  return list;
}

// The list, read on first use and again once the runtime was shut down
// since (its hsa_agent_t handles may then name other agents); `refresh`
// re-reads it anyway (a handle looked up is not in it).
const AgentList* List(bool refresh) noexcept {
  const AgentList* list = g_list.load(std::memory_order_acquire);
  if (list != nullptr && !refresh &&
      list->generation == gpu::AgentsGeneration()) {
    return list;
  }
  std::lock_guard<std::mutex> lock(ListMutex());
  const AgentList* now = g_list.load(std::memory_order_acquire);
  if (now != list && now != nullptr) return now;  // another thread re-read
  if (AgentList* fresh = Read()) {
    // The list replaced stays reachable (a reader may still hold it).
    static auto* retired = new std::vector<const AgentList*>;
    if (now != nullptr) retired->push_back(now);
    g_list.store(fresh, std::memory_order_release);
    return fresh;
  }
  return now;
}

uint64_t Find(const AgentList* list, uint64_t handle) noexcept {
  if (list == nullptr) return 0;
  for (size_t i = 0; i < list->handles.size(); ++i) {
    if (list->handles[i] == handle) return list->agents[i].id.handle;
  }
  return 0;
}

uint64_t FindOwner(
    const AgentList* list,
    std::vector<std::pair<uint64_t, uint64_t>> AgentList::*owners,
    uint64_t handle) noexcept {
  if (list == nullptr) return 0;
  for (const auto& o : list->*owners) {
    if (o.first == handle) return o.second;
  }
  return 0;
}

rocprofiler_agent_id_t OwnerOf(
    std::vector<std::pair<uint64_t, uint64_t>> AgentList::*owners,
    uint64_t handle) noexcept {
  // No re-read for a handle not found (unlike agents): an allocation from a
  // pool no agent lists would re-read the whole list on every call.
  if (handle == 0) return rocprofiler_agent_id_t{0};
  return rocprofiler_agent_id_t{FindOwner(List(false), owners, handle)};
}

}  // namespace

rocprofiler_agent_id_t AgentIdOfPool(uint64_t pool) noexcept {
  return OwnerOf(&AgentList::pools, pool);
}

rocprofiler_agent_id_t AgentIdOfRegion(uint64_t region) noexcept {
  return OwnerOf(&AgentList::regions, region);
}

rocprofiler_agent_id_t AgentIdOf(hsa_agent_t agent) noexcept {
  uint64_t id = Find(List(false), agent.handle);
  if (id == 0 && agent.handle != 0) id = Find(List(true), agent.handle);
  return rocprofiler_agent_id_t{id};
}

bool AgentExists(rocprofiler_agent_id_t id) noexcept {
  const AgentList* list = List(false);
  return list != nullptr && id.handle >= 1 &&
         id.handle <= list->pointers.size();
}

}  // namespace rocprofiler_sdk

extern "C" {

ROCPROFILER_API rocprofiler_status_t rocprofiler_query_available_agents(
    rocprofiler_agent_version_t version,
    rocprofiler_query_available_agents_cb_t callback, size_t agent_size,
    void* user_data) {
  using namespace rocprofiler_sdk;
  if (RawValue(version) != ROCPROFILER_AGENT_INFO_VERSION_0 ||
      callback == nullptr) {
    return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
  }
  if (agent_size != sizeof(rocprofiler_agent_v0_t)) {
    return ROCPROFILER_STATUS_ERROR_INCOMPATIBLE_ABI;
  }
  const AgentList* list = List(false);
  static const void* const kNone[1] = {nullptr};
  if (list == nullptr || list->pointers.empty()) {
    return callback(version, const_cast<const void**>(kNone), 0, user_data);
  }
  return callback(version, const_cast<const void**>(list->pointers.data()),
                  list->pointers.size(), user_data);
}

}  // extern "C"
