// hsa_init/hsa_shut_down, the system and its agents. One CPU agent (node 0)
// and SOFTHSA_GPU_COUNT kernel agents (default 1, nodes 1..N) of type
// HSA_DEVICE_TYPE_GPU, named SOFTHSA_GPU_NAME (default gfx90a) as ROCR names
// a GPU agent after its target.
#include <cstdlib>
#include <cstring>
#include <mutex>

#include "softhsa/api.h"
#include "softhsa/loader.h"
#include "softhsa/memory.h"
#include "softhsa/runtime.h"
#include "softhsa/scratch.h"
#include "softhsa/twins.h"

namespace softhsa {

std::atomic<int> g_init_count{0};

namespace {

// hsa_amd_register_system_event_handler's handlers, until the last
// hsa_shut_down. softhsa raises no system event (no memory faults or
// hardware exceptions happen here), so they are never called.
std::mutex& g_event_mutex = *new std::mutex;
std::vector<std::pair<hsa_amd_system_event_callback_t, void*>>&
    g_event_handlers =
        *new std::vector<std::pair<hsa_amd_system_event_callback_t, void*>>;

// Recursive: a tool's OnLoad may call hsa_init itself.
std::recursive_mutex& g_init_mutex = *new std::recursive_mutex;
std::vector<Agent*>& g_agents = *new std::vector<Agent*>;

constexpr uint32_t kQueueMinSize = 64;
constexpr uint32_t kQueueMaxSize = 1u << 17;  // ROCR's limit in packets
constexpr uint32_t kQueuesMax = 128;
// A kernel agent's KFD GPU id: unique and never 0 (ROCR's is a hash of the
// device's properties).
[[maybe_unused]] uint32_t DriverUid(const Agent& a) { return 0x5f000 + a.node; }

std::string GpuName() {
  const char* e = getenv("SOFTHSA_GPU_NAME");
  return e && *e ? e : "gfx90a";
}

template <typename T>
hsa_status_t Put(void* value, const T& v) {
  memcpy(value, &v, sizeof(T));
  return HSA_STATUS_SUCCESS;
}

// The amdgpu kernel driver's family of a processor (AMDGPU_FAMILY_*), which
// ROCR reports from the KFD topology: by the processor's generation.
[[maybe_unused]] uint32_t FamilyId(const std::string& gfx) {
  if (gfx.rfind("gfx12", 0) == 0) return 152;  // GC 12
  if (gfx.rfind("gfx11", 0) == 0) return 145;  // GC 11
  if (gfx.rfind("gfx10", 0) == 0) return 143;  // NV
  if (gfx.rfind("gfx9", 0) == 0) return 141;   // AI
  if (gfx.rfind("gfx8", 0) == 0) return 130;   // VI
  if (gfx.rfind("gfx7", 0) == 0) return 125;   // CI
  return 0;
}

hsa_status_t PutString(void* value, const std::string& s, size_t size) {
  char* out = static_cast<char*>(value);
  memset(out, 0, size);
  memcpy(out, s.data(), std::min(s.size(), size - 1));
  return HSA_STATUS_SUCCESS;
}

}  // namespace

const std::vector<Agent*>& Agents() { return g_agents; }

Agent* ToAgent(hsa_agent_t agent) {
  for (Agent* a : g_agents) {
    if (reinterpret_cast<uint64_t>(a) == agent.handle) return a;
  }
  return nullptr;
}

void CreateSystem() {
  size_t gpus = 1;
  if (const char* e = getenv("SOFTHSA_GPU_COUNT")) {
    char* end = nullptr;
    unsigned long n = strtoul(e, &end, 10);
    if (end != e && *end == '\0' && n <= 64) gpus = n;
  }
  auto* cpu = new Agent{HSA_DEVICE_TYPE_CPU, 0, "softhsa CPU", {}};
  cpu->pools.push_back(new Pool{cpu, true, true, size_t{64} << 30});
  cpu->pools.push_back(new Pool{cpu, false, false, size_t{64} << 30});
  g_agents.push_back(cpu);
  for (size_t i = 0; i < gpus; ++i) {
    auto* gpu = new Agent{
        HSA_DEVICE_TYPE_GPU, static_cast<uint32_t>(i + 1), GpuName(), {}};
    gpu->pools.push_back(new Pool{gpu, false, false, size_t{16} << 30});
    // 64 KiB of LDS per workgroup, as a CDNA/RDNA GPU reports it.
    gpu->pools.push_back(
        new Pool{gpu, false, false, size_t{64} << 10, HSA_AMD_SEGMENT_GROUP});
    g_agents.push_back(gpu);
  }
}

void DestroySystem() {
  for (Agent* a : g_agents) {
    for (Pool* p : a->pools) delete p;
    delete a;
  }
  g_agents.clear();
}

Pool* ToPool(uint64_t handle) {
  for (Agent* a : g_agents) {
    for (Pool* p : a->pools) {
      if (reinterpret_cast<uint64_t>(p) == handle) return p;
    }
  }
  return nullptr;
}

namespace api {

hsa_status_t hsa_init() {
  std::lock_guard<std::recursive_mutex> lock(g_init_mutex);
  if (g_init_count.load() > 0) {
    g_init_count.fetch_add(1);
    return HSA_STATUS_SUCCESS;
  }
  ReadFaults();
  ReadClockSettings();
  ReadScratchSettings();
  CreateSystem();
  {
    std::lock_guard<std::mutex> events(g_event_mutex);
    g_event_handlers.clear();
  }
  g_init_count.store(1, std::memory_order_release);
  // Registered here, not at load: exit calls what atexit registered in
  // reverse order, and the static destructors of the program and of the
  // libraries loaded with it (HIP's, which tear HIP down while a handler of
  // its own may be due) were registered before main, so this runs first.
  static std::once_flag exit_hook;
  std::call_once(exit_hook, [] { atexit(RunDueHandlersAtExit); });
  // Tools load once the runtime answers calls, as in ROCR: OnLoad may call
  // into the runtime through the table it is given.
  LoadTools();
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_shut_down() {
  std::lock_guard<std::recursive_mutex> lock(g_init_mutex);
  if (g_init_count.load() == 0) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (g_init_count.load() > 1) {
    g_init_count.fetch_sub(1);
    return HSA_STATUS_SUCCESS;
  }
  UnloadTools();
  DestroyAllQueues();
  StopCopyThread();
  StopAsyncThread();
  DestroyAllExecutables();
  DestroyAllSignals();
  ResetMemory();
  g_init_count.store(0, std::memory_order_release);
  DestroySystem();
  ReportNoTwins();
  FillTable();  // a later hsa_init starts from the runtime's own table
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_system_get_info(hsa_system_info_t attribute, void* value) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (value == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  switch (static_cast<int>(attribute)) {
    case HSA_SYSTEM_INFO_VERSION_MAJOR:
      return Put<uint16_t>(value, 1);
    case HSA_SYSTEM_INFO_VERSION_MINOR:
      return Put<uint16_t>(value, 1);
    case HSA_SYSTEM_INFO_TIMESTAMP:
      return Put<uint64_t>(value, SystemTicks());
    case HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY:
      return Put<uint64_t>(value, SystemFrequency());
    case HSA_SYSTEM_INFO_SIGNAL_MAX_WAIT:
      return Put<uint64_t>(value, UINT64_MAX);
    case HSA_SYSTEM_INFO_ENDIANNESS:
      return Put<hsa_endianness_t>(value, HSA_ENDIANNESS_LITTLE);
    case HSA_SYSTEM_INFO_MACHINE_MODEL:
      return Put<hsa_machine_model_t>(value, HSA_MACHINE_MODEL_LARGE);
    case HSA_SYSTEM_INFO_EXTENSIONS: {
      uint8_t bits[128] = {};
      bits[HSA_EXTENSION_AMD_PROFILER / 8] |=
          1u << (HSA_EXTENSION_AMD_PROFILER % 8);
      bits[HSA_EXTENSION_AMD_LOADER / 8] |= 1u
                                            << (HSA_EXTENSION_AMD_LOADER % 8);
      memcpy(value, bits, sizeof(bits));
      return HSA_STATUS_SUCCESS;
    }
    case HSA_AMD_SYSTEM_INFO_BUILD_VERSION:  // a string's address, as ROCR
      return Put<const char*>(value, "softhsa");
    // No hsa_amd_svm_* support: HIP then keeps to its own allocations.
    case HSA_AMD_SYSTEM_INFO_SVM_SUPPORTED:
    case HSA_AMD_SYSTEM_INFO_SVM_ACCESSIBLE_BY_DEFAULT:
      return Put<bool>(value, false);
#if HSA_AMD_INTERFACE_VERSION_MINOR >= 4
    // The attributes of ROCm 5.7's headers (AMD extension interface 1.4) on.
    case 0x203:  // HSA_AMD_SYSTEM_INFO_MWAITX_ENABLED: waits never use it
      return Put<bool>(value, false);
    case 0x204:  // HSA_AMD_SYSTEM_INFO_DMABUF_SUPPORTED: no dma-buf export
      return Put<bool>(value, false);
    case 0x205:  // HSA_AMD_SYSTEM_INFO_VIRTUAL_MEM_API_SUPPORTED: no
                 // hsa_amd_vmem_*
      return Put<bool>(value, false);
    case 0x206:  // HSA_AMD_SYSTEM_INFO_XNACK_ENABLED: no page-fault retry
      return Put<bool>(value, false);
    case 0x207:  // HSA_AMD_SYSTEM_INFO_EXT_VERSION_MAJOR
      return Put<uint16_t>(value, HSA_AMD_INTERFACE_VERSION_MAJOR);
    case 0x208:  // HSA_AMD_SYSTEM_INFO_EXT_VERSION_MINOR
      return Put<uint16_t>(value, HSA_AMD_INTERFACE_VERSION_MINOR);
#endif
    default:
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
}

// As ROCR: every handler is kept (several may be registered).
hsa_status_t hsa_amd_register_system_event_handler(
    hsa_amd_system_event_callback_t callback, void* data) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (callback == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  std::lock_guard<std::mutex> lock(g_event_mutex);
  g_event_handlers.emplace_back(callback, data);
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_system_major_extension_supported(uint16_t extension,
                                                  uint16_t version_major,
                                                  uint16_t* version_minor,
                                                  bool* result) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (version_minor == nullptr || result == nullptr) {
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  *result = false;
  if (extension == HSA_EXTENSION_AMD_LOADER && version_major == 1) {
    *version_minor = 3;
    *result = true;
  }
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_system_extension_supported(uint16_t extension,
                                            uint16_t version_major,
                                            uint16_t version_minor,
                                            bool* result) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (result == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  uint16_t minor = 0;
  hsa_status_t s = api::hsa_system_major_extension_supported(
      extension, version_major, &minor, result);
  if (s == HSA_STATUS_SUCCESS) *result = *result && version_minor <= minor;
  return s;
}

hsa_status_t hsa_system_get_major_extension_table(uint16_t extension,
                                                  uint16_t version_major,
                                                  size_t table_length,
                                                  void* table) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (table == nullptr || table_length == 0) {
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  if (extension != HSA_EXTENSION_AMD_LOADER || version_major != 1) {
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  hsa_ven_amd_loader_1_03_pfn_t full = LoaderTable();
  memcpy(table, &full, std::min(table_length, sizeof(full)));
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_system_get_extension_table(uint16_t extension,
                                            uint16_t version_major,
                                            uint16_t version_minor,
                                            void* table) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (table == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (extension != HSA_EXTENSION_AMD_LOADER || version_major != 1) {
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  // The table of the asked minor version; 1.00's is the smallest.
  size_t length = version_minor == 0   ? sizeof(hsa_ven_amd_loader_1_00_pfn_t)
                  : version_minor == 1 ? sizeof(hsa_ven_amd_loader_1_01_pfn_t)
                  : version_minor == 2 ? sizeof(hsa_ven_amd_loader_1_02_pfn_t)
                                       : sizeof(hsa_ven_amd_loader_1_03_pfn_t);
  return api::hsa_system_get_major_extension_table(extension, version_major,
                                                   length, table);
}

hsa_status_t hsa_iterate_agents(hsa_status_t (*callback)(hsa_agent_t agent,
                                                         void* data),
                                void* data) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (callback == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  for (Agent* a : g_agents) {
    hsa_status_t s = callback(ToHandle(a), data);
    if (s != HSA_STATUS_SUCCESS) return s;
  }
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_agent_get_info(hsa_agent_t agent, hsa_agent_info_t attribute,
                                void* value) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  Agent* a = ToAgent(agent);
  if (a == nullptr) return HSA_STATUS_ERROR_INVALID_AGENT;
  if (value == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  const bool gpu = a->type == HSA_DEVICE_TYPE_GPU;
  switch (static_cast<int>(attribute)) {
    case HSA_AGENT_INFO_NAME:
      return PutString(value, a->name, 64);
    case HSA_AGENT_INFO_VENDOR_NAME:
      return PutString(value, gpu ? "AMD" : "CPU", 64);
    case HSA_AGENT_INFO_FEATURE:
      return Put<hsa_agent_feature_t>(
          value, gpu ? HSA_AGENT_FEATURE_KERNEL_DISPATCH
                     : static_cast<hsa_agent_feature_t>(0));
    case HSA_AGENT_INFO_MACHINE_MODEL:
      return Put<hsa_machine_model_t>(value, HSA_MACHINE_MODEL_LARGE);
    case HSA_AGENT_INFO_PROFILE:
      return Put<hsa_profile_t>(value, HSA_PROFILE_BASE);
    case HSA_AGENT_INFO_DEFAULT_FLOAT_ROUNDING_MODE:
      return Put<hsa_default_float_rounding_mode_t>(
          value, HSA_DEFAULT_FLOAT_ROUNDING_MODE_NEAR);
    case HSA_AGENT_INFO_BASE_PROFILE_DEFAULT_FLOAT_ROUNDING_MODES:
      return Put<hsa_default_float_rounding_mode_t>(
          value, HSA_DEFAULT_FLOAT_ROUNDING_MODE_NEAR);
    case HSA_AGENT_INFO_FAST_F16_OPERATION:
      return Put<bool>(value, false);
    case HSA_AGENT_INFO_WAVEFRONT_SIZE:
      return Put<uint32_t>(value, gpu ? 64 : 0);
    case HSA_AGENT_INFO_WORKGROUP_MAX_DIM: {
      uint16_t dims[3] = {1024, 1024, 1024};
      if (!gpu) dims[0] = dims[1] = dims[2] = 0;
      memcpy(value, dims, sizeof(dims));
      return HSA_STATUS_SUCCESS;
    }
    case HSA_AGENT_INFO_WORKGROUP_MAX_SIZE:
      return Put<uint32_t>(value, gpu ? 1024 : 0);
    case HSA_AGENT_INFO_GRID_MAX_DIM:
      return Put<hsa_dim3_t>(
          value, gpu ? hsa_dim3_t{UINT32_MAX, UINT32_MAX, UINT32_MAX}
                     : hsa_dim3_t{0, 0, 0});
    case HSA_AGENT_INFO_GRID_MAX_SIZE:
      return Put<uint32_t>(value, gpu ? UINT32_MAX : 0);
    case HSA_AGENT_INFO_FBARRIER_MAX_SIZE:
      return Put<uint32_t>(value, gpu ? 32 : 0);
    case HSA_AGENT_INFO_QUEUES_MAX:
      return Put<uint32_t>(value, gpu ? kQueuesMax : 0);
    case HSA_AGENT_INFO_QUEUE_MIN_SIZE:
      return Put<uint32_t>(value, gpu ? kQueueMinSize : 0);
    case HSA_AGENT_INFO_QUEUE_MAX_SIZE:
      return Put<uint32_t>(value, gpu ? kQueueMaxSize : 0);
    case HSA_AGENT_INFO_QUEUE_TYPE:
      return Put<hsa_queue_type32_t>(value, HSA_QUEUE_TYPE_MULTI);
    case HSA_AGENT_INFO_NODE:
      return Put<uint32_t>(value, a->node);
    case HSA_AGENT_INFO_DEVICE:
      return Put<hsa_device_type_t>(value, a->type);
    case HSA_AGENT_INFO_CACHE_SIZE: {
      uint32_t sizes[4] = {16 << 10, 8 << 20, 0, 0};
      memcpy(value, sizes, sizeof(sizes));
      return HSA_STATUS_SUCCESS;
    }
    case HSA_AGENT_INFO_ISA:
      return Put<hsa_isa_t>(value, hsa_isa_t{gpu ? agent.handle : 0});
    case HSA_AGENT_INFO_EXTENSIONS: {
      uint8_t bits[128] = {};
      if (gpu) {
        bits[HSA_EXTENSION_AMD_PROFILER / 8] |=
            1u << (HSA_EXTENSION_AMD_PROFILER % 8);
      }
      memcpy(value, bits, sizeof(bits));
      return HSA_STATUS_SUCCESS;
    }
    case HSA_AGENT_INFO_VERSION_MAJOR:
      return Put<uint16_t>(value, 1);
    case HSA_AGENT_INFO_VERSION_MINOR:
      return Put<uint16_t>(value, 1);
    case HSA_AMD_AGENT_INFO_CHIP_ID:
      return Put<uint32_t>(value, gpu ? 0x740c : 0);
    case HSA_AMD_AGENT_INFO_CACHELINE_SIZE:
      return Put<uint32_t>(value, 64);
    case HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT:
      return Put<uint32_t>(value, gpu ? 4 : 2);
    case HSA_AMD_AGENT_INFO_MAX_CLOCK_FREQUENCY:
      return Put<uint32_t>(value, 1000);
    case HSA_AMD_AGENT_INFO_DRIVER_NODE_ID:
      return Put<uint32_t>(value, a->node);
    case HSA_AMD_AGENT_INFO_MAX_ADDRESS_WATCH_POINTS:
      return Put<uint32_t>(value, 0);
    case HSA_AMD_AGENT_INFO_BDFID:
      return Put<uint32_t>(value, gpu ? (a->node << 8) : 0);
    case HSA_AMD_AGENT_INFO_MEMORY_WIDTH:
      return Put<uint32_t>(value, gpu ? 4096 : 0);
    case HSA_AMD_AGENT_INFO_MEMORY_MAX_FREQUENCY:
      return Put<uint32_t>(value, gpu ? 1600 : 0);
    case HSA_AMD_AGENT_INFO_PRODUCT_NAME:
      return PutString(value, gpu ? "softhsa kernel agent" : "softhsa host CPU",
                       64);
    case HSA_AMD_AGENT_INFO_MAX_WAVES_PER_CU:
      return Put<uint32_t>(value, gpu ? 32 : 0);
    case HSA_AMD_AGENT_INFO_NUM_SIMDS_PER_CU:
      return Put<uint32_t>(value, gpu ? 4 : 0);
    case HSA_AMD_AGENT_INFO_NUM_SHADER_ENGINES:
      return Put<uint32_t>(value, gpu ? 1 : 0);
    case HSA_AMD_AGENT_INFO_NUM_SHADER_ARRAYS_PER_SE:
      return Put<uint32_t>(value, gpu ? 1 : 0);
    case HSA_AMD_AGENT_INFO_HDP_FLUSH:
      return Put<hsa_amd_hdp_flush_t>(value, hsa_amd_hdp_flush_t{});
    case HSA_AMD_AGENT_INFO_DOMAIN:
      return Put<uint32_t>(value, 0);
    case HSA_AMD_AGENT_INFO_COOPERATIVE_QUEUES:
      return Put<bool>(value, false);
    case HSA_AMD_AGENT_INFO_UUID: {
      std::string uuid =
          gpu ? "GPU-softhsa" + std::to_string(a->node) : "CPU-XX";
      return PutString(value, uuid, 21);
    }
    case HSA_AMD_AGENT_INFO_ASIC_REVISION:
      return Put<uint32_t>(value, 0);
    case HSA_AMD_AGENT_INFO_SVM_DIRECT_HOST_ACCESS:
      return Put<bool>(value, true);
    case HSA_AMD_AGENT_INFO_COOPERATIVE_COMPUTE_UNIT_COUNT:
      return Put<uint32_t>(value, gpu ? 4 : 0);
#if HSA_AMD_INTERFACE_VERSION_MINOR >= 4
    // The attributes of ROCm 5.7's headers (AMD extension interface 1.4) on,
    // by number: older headers do not name them. ROCR answers each for both
    // kinds of agent unless said otherwise.
    case 0xA015: {  // HSA_AMD_AGENT_INFO_MEMORY_AVAIL: a kernel agent's only
      if (!gpu) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
      uint64_t avail = 0;
      for (const Pool* p : a->pools) {
        if (p->segment == HSA_AMD_SEGMENT_GLOBAL) {
          avail += p->size - std::min(p->size, AllocatedFrom(p));
        }
      }
      return Put<uint64_t>(value, avail);
    }
    case 0xA016:  // HSA_AMD_AGENT_INFO_TIMESTAMP_FREQUENCY
      // A kernel agent's clock is the device clock; the CPU answers the
      // system timestamp's, as ROCR does.
      return Put<uint64_t>(value, gpu ? DeviceFrequency() : SystemFrequency());
    case 0xA107:  // HSA_AMD_AGENT_INFO_ASIC_FAMILY_ID
      return Put<uint32_t>(value, gpu ? FamilyId(a->name) : 0);
    case 0xA108:  // HSA_AMD_AGENT_INFO_UCODE_VERSION: no firmware
    case 0xA109:  // HSA_AMD_AGENT_INFO_SDMA_UCODE_VERSION
      return Put<uint32_t>(value, 0);
    case 0xA10A:  // HSA_AMD_AGENT_INFO_NUM_SDMA_ENG: copies run as on two
      return Put<uint32_t>(value, gpu ? kSdmaEngines : 0);
    case 0xA10B:  // HSA_AMD_AGENT_INFO_NUM_SDMA_XGMI_ENG: no xGMI
      return Put<uint32_t>(value, 0);
    case 0xA110:  // HSA_AMD_AGENT_INFO_IOMMU_SUPPORT: HSA_IOMMU_SUPPORT_NONE
      return Put<uint32_t>(value, 0);
    case 0xA111:  // HSA_AMD_AGENT_INFO_NUM_XCC
      return Put<uint32_t>(value, gpu ? 1 : 0);
    case 0xA112:  // HSA_AMD_AGENT_INFO_DRIVER_UID: the KFD's GPU id
      return Put<uint32_t>(value, gpu ? DriverUid(*a) : 0);
    case 0xA113:  // HSA_AMD_AGENT_INFO_NEAREST_CPU: none for a CPU
      return Put<hsa_agent_t>(
          value, gpu ? ToHandle(g_agents.front()) : hsa_agent_t{0});
#if HSA_AMD_INTERFACE_VERSION_MINOR >= 7
    // ROCm 6.2's headers (interface 1.7) on; a CPU answers 0.
    case 0xA116:  // HSA_AMD_AGENT_INFO_SCRATCH_LIMIT_MAX
      return Put<uint64_t>(value, gpu ? kScratchLimitMax : 0);
    case 0xA117:  // HSA_AMD_AGENT_INFO_SCRATCH_LIMIT_CURRENT
      return Put<uint64_t>(value, gpu ? ScratchLimit(a) : 0);
#endif
#if HSA_AMD_INTERFACE_VERSION_MINOR >= 11
    case 0xA118: {  // HSA_AMD_AGENT_INFO_CLOCK_COUNTERS (interface 1.11)
      // Read at once, as the driver does: the device clock, the CPU's
      // (CLOCK_MONOTONIC_RAW ns) and the system's (CLOCK_BOOTTIME ns, 1 GHz);
      // all 0 for a CPU.
      hsa_amd_clock_counters_t c{};
      if (gpu) {
        timespec raw, boot;
        c.gpu_clock_counter = DeviceTicks();
        clock_gettime(CLOCK_MONOTONIC_RAW, &raw);
        clock_gettime(CLOCK_BOOTTIME, &boot);
        c.cpu_clock_counter = raw.tv_sec * 1'000'000'000ull + raw.tv_nsec;
        c.system_clock_counter = boot.tv_sec * 1'000'000'000ull + boot.tv_nsec;
        c.system_clock_frequency = 1'000'000'000ull;
      }
      return Put(value, c);
    }
#endif
    case 0xA114:    // HSA_AMD_AGENT_INFO_MEMORY_PROPERTIES: not an APU
    case 0xA115: {  // HSA_AMD_AGENT_INFO_AQL_EXTENSIONS: none
      uint8_t bits[8] = {};
      memcpy(value, bits, sizeof(bits));
      return HSA_STATUS_SUCCESS;
    }
#endif
    default:
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
}

hsa_status_t hsa_agent_iterate_isas(hsa_agent_t agent,
                                    hsa_status_t (*callback)(hsa_isa_t isa,
                                                             void* data),
                                    void* data) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  Agent* a = ToAgent(agent);
  if (a == nullptr) return HSA_STATUS_ERROR_INVALID_AGENT;
  if (callback == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (a->type != HSA_DEVICE_TYPE_GPU) return HSA_STATUS_SUCCESS;
  return callback(hsa_isa_t{agent.handle}, data);
}

hsa_status_t hsa_isa_get_info_alt(hsa_isa_t isa, hsa_isa_info_t attribute,
                                  void* value) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  Agent* a = ToAgent(hsa_agent_t{isa.handle});
  if (a == nullptr || a->type != HSA_DEVICE_TYPE_GPU) {
    return HSA_STATUS_ERROR_INVALID_ISA;
  }
  if (value == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  std::string name = "amdgcn-amd-amdhsa--" + a->name;
  switch (attribute) {
    case HSA_ISA_INFO_NAME_LENGTH:
      return Put<uint32_t>(value, static_cast<uint32_t>(name.size() + 1));
    case HSA_ISA_INFO_NAME:
      memcpy(value, name.c_str(), name.size() + 1);
      return HSA_STATUS_SUCCESS;
    case HSA_ISA_INFO_MACHINE_MODELS: {
      bool models[2] = {false, true};
      memcpy(value, models, sizeof(models));
      return HSA_STATUS_SUCCESS;
    }
    case HSA_ISA_INFO_PROFILES: {
      bool profiles[2] = {true, false};
      memcpy(value, profiles, sizeof(profiles));
      return HSA_STATUS_SUCCESS;
    }
    case HSA_ISA_INFO_WORKGROUP_MAX_SIZE:
      return Put<uint32_t>(value, 1024);
    case HSA_ISA_INFO_GRID_MAX_SIZE:
      return Put<uint32_t>(value, UINT32_MAX);
    case HSA_ISA_INFO_FBARRIER_MAX_SIZE:
      return Put<uint32_t>(value, 32);
    default:
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
}

hsa_status_t hsa_isa_get_info(hsa_isa_t isa, hsa_isa_info_t attribute,
                              uint32_t index, void* value) {
  if (index != 0) return HSA_STATUS_ERROR_INVALID_INDEX;
  return api::hsa_isa_get_info_alt(isa, attribute, value);
}

hsa_status_t hsa_isa_from_name(const char* name, hsa_isa_t* isa) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (name == nullptr || isa == nullptr)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  for (Agent* a : g_agents) {
    if (a->type == HSA_DEVICE_TYPE_GPU &&
        ("amdgcn-amd-amdhsa--" + a->name) == name) {
      *isa = hsa_isa_t{ToHandle(a).handle};
      return HSA_STATUS_SUCCESS;
    }
  }
  return HSA_STATUS_ERROR_INVALID_ISA_NAME;
}

hsa_status_t hsa_agent_iterate_caches(
    hsa_agent_t agent, hsa_status_t (*callback)(hsa_cache_t, void*), void*) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (ToAgent(agent) == nullptr) return HSA_STATUS_ERROR_INVALID_AGENT;
  if (callback == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  return HSA_STATUS_SUCCESS;  // no caches are described
}

hsa_status_t hsa_agent_major_extension_supported(uint16_t extension,
                                                 hsa_agent_t agent,
                                                 uint16_t version_major,
                                                 uint16_t* version_minor,
                                                 bool* result) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (ToAgent(agent) == nullptr) return HSA_STATUS_ERROR_INVALID_AGENT;
  if (version_minor == nullptr || result == nullptr) {
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  *result = false;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_agent_extension_supported(uint16_t extension,
                                           hsa_agent_t agent,
                                           uint16_t version_major, uint16_t,
                                           bool* result) {
  uint16_t minor = 0;
  return api::hsa_agent_major_extension_supported(
      extension, agent, version_major, &minor, result);
}

hsa_status_t hsa_status_string(hsa_status_t status, const char** text) {
  if (text == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  switch (static_cast<int>(status)) {
#define S(code, msg) \
  case code:         \
    *text = msg;     \
    return HSA_STATUS_SUCCESS;
    S(HSA_STATUS_SUCCESS,
      "HSA_STATUS_SUCCESS: The function has been executed successfully.")
    S(HSA_STATUS_INFO_BREAK,
      "HSA_STATUS_INFO_BREAK: A traversal over a list of elements has been "
      "interrupted by the application before completing.")
    S(HSA_STATUS_ERROR, "HSA_STATUS_ERROR: A generic error has occurred.")
    S(HSA_STATUS_ERROR_INVALID_ARGUMENT,
      "HSA_STATUS_ERROR_INVALID_ARGUMENT: One of the actual arguments does not "
      "meet a precondition stated in the documentation of the corresponding "
      "formal argument.")
    S(HSA_STATUS_ERROR_INVALID_QUEUE_CREATION,
      "HSA_STATUS_ERROR_INVALID_QUEUE_CREATION: The requested queue creation "
      "is not valid.")
    S(HSA_STATUS_ERROR_INVALID_ALLOCATION,
      "HSA_STATUS_ERROR_INVALID_ALLOCATION: The requested allocation is not "
      "valid.")
    S(HSA_STATUS_ERROR_INVALID_AGENT,
      "HSA_STATUS_ERROR_INVALID_AGENT: The agent is invalid.")
    S(HSA_STATUS_ERROR_INVALID_REGION,
      "HSA_STATUS_ERROR_INVALID_REGION: The memory region is invalid.")
    S(HSA_STATUS_ERROR_INVALID_SIGNAL,
      "HSA_STATUS_ERROR_INVALID_SIGNAL: The signal is invalid.")
    S(HSA_STATUS_ERROR_INVALID_QUEUE,
      "HSA_STATUS_ERROR_INVALID_QUEUE: The queue is invalid.")
    S(HSA_STATUS_ERROR_OUT_OF_RESOURCES,
      "HSA_STATUS_ERROR_OUT_OF_RESOURCES: The runtime failed to allocate the "
      "necessary resources.")
    S(HSA_STATUS_ERROR_INVALID_PACKET_FORMAT,
      "HSA_STATUS_ERROR_INVALID_PACKET_FORMAT: The AQL packet is malformed.")
    S(HSA_STATUS_ERROR_RESOURCE_FREE,
      "HSA_STATUS_ERROR_RESOURCE_FREE: An error has been detected while "
      "releasing a resource.")
    S(HSA_STATUS_ERROR_NOT_INITIALIZED,
      "HSA_STATUS_ERROR_NOT_INITIALIZED: An API other than hsa_init has been "
      "invoked while the reference count of the HSA runtime is zero.")
    S(HSA_STATUS_ERROR_REFCOUNT_OVERFLOW,
      "HSA_STATUS_ERROR_REFCOUNT_OVERFLOW: The maximum reference count for the "
      "object has been reached.")
    S(HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS,
      "HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS: The arguments passed to a "
      "functions are not compatible.")
    S(HSA_STATUS_ERROR_INVALID_INDEX,
      "HSA_STATUS_ERROR_INVALID_INDEX: The index is invalid.")
    S(HSA_STATUS_ERROR_INVALID_ISA,
      "HSA_STATUS_ERROR_INVALID_ISA: The instruction set architecture is "
      "invalid.")
    S(HSA_STATUS_ERROR_INVALID_ISA_NAME,
      "HSA_STATUS_ERROR_INVALID_ISA_NAME: The instruction set architecture "
      "name is invalid.")
    S(HSA_STATUS_ERROR_INVALID_CODE_OBJECT,
      "HSA_STATUS_ERROR_INVALID_CODE_OBJECT: The code object is invalid.")
    S(HSA_STATUS_ERROR_INVALID_EXECUTABLE,
      "HSA_STATUS_ERROR_INVALID_EXECUTABLE: The executable is invalid.")
    S(HSA_STATUS_ERROR_FROZEN_EXECUTABLE,
      "HSA_STATUS_ERROR_FROZEN_EXECUTABLE: The executable is frozen.")
    S(HSA_STATUS_ERROR_INVALID_SYMBOL_NAME,
      "HSA_STATUS_ERROR_INVALID_SYMBOL_NAME: There is no symbol with the given "
      "name.")
    S(HSA_STATUS_ERROR_VARIABLE_ALREADY_DEFINED,
      "HSA_STATUS_ERROR_VARIABLE_ALREADY_DEFINED: The variable is already "
      "defined.")
    S(HSA_STATUS_ERROR_VARIABLE_UNDEFINED,
      "HSA_STATUS_ERROR_VARIABLE_UNDEFINED: The variable is undefined.")
    S(HSA_STATUS_ERROR_EXCEPTION,
      "HSA_STATUS_ERROR_EXCEPTION: An HSAIL operation resulted in a hardware "
      "exception.")
    S(HSA_STATUS_ERROR_INVALID_CODE_SYMBOL,
      "HSA_STATUS_ERROR_INVALID_CODE_SYMBOL: The code object symbol is "
      "invalid.")
    S(HSA_STATUS_ERROR_INVALID_EXECUTABLE_SYMBOL,
      "HSA_STATUS_ERROR_INVALID_EXECUTABLE_SYMBOL: The executable symbol is "
      "invalid.")
    S(HSA_STATUS_ERROR_INVALID_FILE,
      "HSA_STATUS_ERROR_INVALID_FILE: The file descriptor is invalid.")
    S(HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER,
      "HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER: The code object reader is "
      "invalid.")
    S(HSA_STATUS_ERROR_INVALID_CACHE,
      "HSA_STATUS_ERROR_INVALID_CACHE: The cache is invalid.")
    S(HSA_STATUS_ERROR_INVALID_WAVEFRONT,
      "HSA_STATUS_ERROR_INVALID_WAVEFRONT: The wavefront is invalid.")
    S(HSA_STATUS_ERROR_INVALID_SIGNAL_GROUP,
      "HSA_STATUS_ERROR_INVALID_SIGNAL_GROUP: The signal group is invalid.")
    S(HSA_STATUS_ERROR_INVALID_RUNTIME_STATE,
      "HSA_STATUS_ERROR_INVALID_RUNTIME_STATE: The HSA runtime is not in the "
      "configuration state.")
    S(HSA_STATUS_ERROR_FATAL,
      "HSA_STATUS_ERROR_FATAL: The queue received an error that may require "
      "process termination.")
#undef S
    default:
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
}

hsa_status_t hsa_amd_coherency_get_type(hsa_agent_t agent,
                                        hsa_amd_coherency_type_t* type) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  Agent* a = ToAgent(agent);
  if (a == nullptr || a->type != HSA_DEVICE_TYPE_GPU) {
    return HSA_STATUS_ERROR_INVALID_AGENT;
  }
  if (type == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  *type = HSA_AMD_COHERENCY_TYPE_COHERENT;
  return HSA_STATUS_SUCCESS;
}

}  // namespace api
}  // namespace softhsa
