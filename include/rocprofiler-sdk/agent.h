/* Agents: the CPUs and GPUs the HSA runtime reports, as
 * rocprofiler_query_available_agents describes them. Every agent ID in a
 * record (kernel dispatches, memory copies, code objects) is the `id` of one
 * of these agents. C99 and C++. */
#ifndef ROCPROFILER_SDK_AGENT_H_
#define ROCPROFILER_SDK_AGENT_H_

#include <stddef.h>
#include <stdint.h>

#include "rocprofiler-sdk/defines.h"
#include "rocprofiler-sdk/fwd.h"

/* The KFD topology types some fields have (HSA_CAPABILITY, HSA_ENGINE_ID,
 * HsaCacheType, HSA_LINKPROPERTY, ...), as in rocprofiler-sdk 1.0.0: from
 * libhsakmt's hsakmttypes.h, so `agent->capability.ui32.DebugTrapSupported`
 * or `.Value` reads the bits the installed KFD thunk defines. ROCm >= 6
 * installs it as <hsakmt/hsakmttypes.h> (1.0.0's spelling), Debian's
 * libhsakmt-dev (ROCm 5.x) as <hsakmttypes.h>; with neither, the error
 * names 1.0.0's. */
#if defined(__has_include)
#if __has_include(<hsakmt/hsakmttypes.h>)
#include <hsakmt/hsakmttypes.h>
#elif __has_include(<hsakmttypes.h>)
#include <hsakmttypes.h>
#else
#include <hsakmt/hsakmttypes.h>
#endif
#else
#include <hsakmt/hsakmttypes.h>
#endif

ROCPROFILER_EXTERN_C_INIT

typedef enum rocprofiler_agent_version_t {
  ROCPROFILER_AGENT_INFO_VERSION_NONE = 0,
  ROCPROFILER_AGENT_INFO_VERSION_0,
  ROCPROFILER_AGENT_INFO_VERSION_LAST
} rocprofiler_agent_version_t;

typedef struct rocprofiler_agent_cache_t {
  uint64_t processor_id_low;
  uint64_t size; /* bytes */
  uint32_t level;
  uint32_t cache_line_size;
  uint32_t cache_lines_per_tag;
  uint32_t association;
  uint32_t latency;
  HsaCacheType type;
} rocprofiler_agent_cache_t;

typedef struct rocprofiler_agent_io_link_t {
  HSA_IOLINKTYPE type;
  uint32_t version_major;
  uint32_t version_minor;
  uint32_t node_from;
  uint32_t node_to;
  uint32_t weight;
  uint32_t min_latency;
  uint32_t max_latency;
  uint32_t min_bandwidth;
  uint32_t max_bandwidth;
  uint32_t recommended_transfer_size;
  HSA_LINKPROPERTY flags;
} rocprofiler_agent_io_link_t;

/* One memory pool of the agent. heap_type: a GPU's global pools
 * HSA_HEAPTYPE_FRAME_BUFFER_PUBLIC, a CPU's HSA_HEAPTYPE_SYSTEM, group
 * (LDS) and private (scratch) pools HSA_HEAPTYPE_GPU_LDS and
 * HSA_HEAPTYPE_GPU_SCRATCH; flags 0 (the HSA runtime does not answer the
 * KFD's memory properties). */
typedef struct rocprofiler_agent_mem_bank_t {
  HSA_HEAPTYPE heap_type;
  HSA_MEMORYPROPERTY flags;
  uint32_t width;
  uint32_t mem_clk_max;
  uint64_t size_in_bytes;
} rocprofiler_agent_mem_bank_t;

/* Which runtimes can see the agent. */
typedef struct rocprofiler_agent_runtime_visiblity_t {
  uint32_t hsa : 1;
  uint32_t hip : 1;
  uint32_t rccl : 1;
  uint32_t rocdecode : 1;
  uint32_t reserved : 28;
} rocprofiler_agent_runtime_visiblity_t;

/* Fields the HSA runtime does not answer are 0 (strings ""). Counts and
 * sizes come from hsa_agent_get_info; `node_id` is the agent's HSA node,
 * `logical_node_id` its index among all agents, `logical_node_type_id` its
 * index among the agents of its type. The pointers are valid for the life
 * of the process. */
typedef struct rocprofiler_agent_v0_t {
  uint64_t size; /* sizeof(rocprofiler_agent_v0_t) */
  rocprofiler_agent_id_t id;
  rocprofiler_agent_type_t type;
  uint32_t cpu_cores_count;
  uint32_t simd_count;
  uint32_t mem_banks_count;
  uint32_t caches_count;
  uint32_t io_links_count;
  uint32_t cpu_core_id_base;
  uint32_t simd_id_base;
  uint32_t max_waves_per_simd;
  uint32_t lds_size_in_kb;
  uint32_t gds_size_in_kb;
  uint32_t num_gws;
  uint32_t wave_front_size;
  uint32_t num_xcc;
  uint32_t cu_count;
  uint32_t array_count;
  uint32_t num_shader_banks;
  uint32_t simd_arrays_per_engine;
  uint32_t cu_per_simd_array;
  uint32_t simd_per_cu;
  uint32_t max_slots_scratch_cu;
  uint32_t gfx_target_version;
  uint16_t vendor_id;
  uint16_t device_id;
  uint32_t location_id;
  uint32_t domain;
  uint32_t drm_render_minor;
  uint32_t num_sdma_engines;
  uint32_t num_sdma_xgmi_engines;
  uint32_t num_sdma_queues_per_engine;
  uint32_t num_cp_queues;
  uint32_t max_engine_clk_ccompute;
  uint32_t max_engine_clk_fcompute;
  HSA_ENGINE_VERSION sdma_fw_version;
  HSA_ENGINE_ID fw_version;
  HSA_CAPABILITY capability;
  uint32_t cu_per_engine;
  uint32_t max_waves_per_cu;
  uint32_t family_id;
  uint32_t workgroup_max_size;
  uint32_t grid_max_size;
  uint64_t local_mem_size;
  uint64_t hive_id;
  uint64_t gpu_id;
  rocprofiler_dim3_t workgroup_max_dim;
  rocprofiler_dim3_t grid_max_dim;
  const rocprofiler_agent_mem_bank_t* mem_banks;
  const rocprofiler_agent_cache_t* caches;
  const rocprofiler_agent_io_link_t* io_links;
  const char* name;         /* the HSA agent's name, e.g. "gfx90a" */
  const char* vendor_name;  /* HSA_AGENT_INFO_VENDOR_NAME */
  const char* product_name; /* the marketing name where the runtime has one */
  const char* model_name;
  uint32_t node_id;
  int32_t logical_node_id;
  int32_t logical_node_type_id;
  rocprofiler_agent_runtime_visiblity_t runtime_visibility;
  rocprofiler_uuid_t uuid;
} rocprofiler_agent_v0_t;

typedef rocprofiler_agent_v0_t rocprofiler_agent_t;

/* `agents` holds `num_agents` pointers to structs of `version`. */
typedef rocprofiler_status_t (*rocprofiler_query_available_agents_cb_t)(
    rocprofiler_agent_version_t version, const void** agents, size_t num_agents,
    void* user_data);

/* Calls `callback` once, on the calling thread, with every agent.
 * `agent_size` must be sizeof the struct of `version` the tool was built
 * with. Unknown version or NULL callback:
 * ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT; an agent_size other than
 * sizeof(rocprofiler_agent_v0_t): ROCPROFILER_STATUS_ERROR_INCOMPATIBLE_ABI;
 * otherwise what the callback returns. */
rocprofiler_status_t rocprofiler_query_available_agents(
    rocprofiler_agent_version_t version,
    rocprofiler_query_available_agents_cb_t callback, size_t agent_size,
    void* user_data) ROCPROFILER_API;

ROCPROFILER_EXTERN_C_FINI

#endif /* ROCPROFILER_SDK_AGENT_H_ */
