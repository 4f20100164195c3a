// The HsaApiTable the exported symbols dispatch through and tools receive in
// OnLoad, with the layout of the HSA headers built against: every slot of
// every sub-table those headers declare holds a function, the implemented
// ones from softhsa::api and the rest a stub answering HSA_STATUS_ERROR
// (images, the finalizer, and whatever a newer release added; see
// softhsa/README.md). Each sub-table's version is the headers' own, with
// minor_id its size in bytes, as ROCR fills it.
#include <cstddef>
#include <type_traits>
#include <utility>

#include "softhsa/api.h"
#include "softhsa/runtime.h"

extern "C" {
__attribute__((visibility("hidden"))) CoreApiTable softhsa_core_table;
__attribute__((visibility("hidden"))) AmdExtTable softhsa_amd_ext_table;
__attribute__((visibility("hidden"))) ImageExtTable softhsa_image_ext_table;
__attribute__((visibility("hidden")))
FinalizerExtTable softhsa_finalizer_ext_table;
#ifdef HSA_PC_SAMPLING_API_TABLE_MAJOR_VERSION
// Named for the forwarders of its slots (forward.cc), as the four above.
__attribute__((visibility("hidden")))
PcSamplingExtTable softhsa_pc_sampling_ext_table;
#endif
}

namespace softhsa {
namespace {

HsaApiTable g_root;

template <typename F>
struct Unsupported;
template <typename R, typename... A>
struct Unsupported<R(A...)> {
  static R Call(A...) {
    if constexpr (std::is_same_v<R, hsa_status_t>) {
      return Initialized() ? HSA_STATUS_ERROR
                           : HSA_STATUS_ERROR_NOT_INITIALIZED;
    } else if constexpr (!std::is_void_v<R>) {
      return R{};
    }
  }
};

// Becomes the stub of whatever function pointer type it initializes, so a
// table is filled without naming its slots: the headers decide which exist.
struct AnyUnsupported {
  template <typename F>
  operator F*() const {
    return &Unsupported<F>::Call;
  }
};

template <typename T, std::size_t... I>
void FillWithStubs(T* table, std::index_sequence<I...>) {
  *table = T{table->version, ((void)I, AnyUnsupported{})...};
}

// A sub-table is its version followed by function pointers only.
template <typename T>
void FillSubTable(T* table, uint32_t major, uint32_t step) {
  constexpr std::size_t kSlots =
      (sizeof(T) - sizeof(ApiTableVersion)) / sizeof(void (*)());
  static_assert(
      sizeof(T) == sizeof(ApiTableVersion) + kSlots * sizeof(void (*)()),
      "an HSA API sub-table holds something other than functions");
  table->version = {major, sizeof(T), step, 0};
  FillWithStubs(table, std::make_index_sequence<kSlots>());
}

template <typename F>
void Set(F* slot, F fn) {
  *slot = fn;
}

// The sub-tables of newer releases that softhsa has no functions for; they
// exist where the headers define their versions.
#ifdef HSA_TOOLS_API_TABLE_MAJOR_VERSION
ToolsApiTable g_tools_table;
#endif

}  // namespace

HsaApiTable* Table() { return &g_root; }

void FillTable() {
  g_root.version = {HSA_API_TABLE_MAJOR_VERSION, sizeof(HsaApiTable),
                    HSA_API_TABLE_STEP_VERSION, 0};
  g_root.core_ = &softhsa_core_table;
  g_root.amd_ext_ = &softhsa_amd_ext_table;
  g_root.finalizer_ext_ = &softhsa_finalizer_ext_table;
  g_root.image_ext_ = &softhsa_image_ext_table;
  FillSubTable(&softhsa_core_table, HSA_CORE_API_TABLE_MAJOR_VERSION,
               HSA_CORE_API_TABLE_STEP_VERSION);
  FillSubTable(&softhsa_amd_ext_table, HSA_AMD_EXT_API_TABLE_MAJOR_VERSION,
               HSA_AMD_EXT_API_TABLE_STEP_VERSION);
  FillSubTable(&softhsa_image_ext_table, HSA_IMAGE_API_TABLE_MAJOR_VERSION,
               HSA_IMAGE_API_TABLE_STEP_VERSION);
  FillSubTable(&softhsa_finalizer_ext_table,
               HSA_FINALIZER_API_TABLE_MAJOR_VERSION,
               HSA_FINALIZER_API_TABLE_STEP_VERSION);
#ifdef HSA_TOOLS_API_TABLE_MAJOR_VERSION
  // The runtime's event hooks, for a tool to fill: empty, as ROCR leaves
  // them (it raises an event only where a tool put a function;
  // softhsa/scratch.cc).
  g_root.tools_ = &g_tools_table;
  g_tools_table = ToolsApiTable{};
  g_tools_table.version = {HSA_TOOLS_API_TABLE_MAJOR_VERSION,
                           sizeof(ToolsApiTable),
                           HSA_TOOLS_API_TABLE_STEP_VERSION, 0};
#endif
#ifdef HSA_PC_SAMPLING_API_TABLE_MAJOR_VERSION
  g_root.pc_sampling_ext_ = &softhsa_pc_sampling_ext_table;
  FillSubTable(&softhsa_pc_sampling_ext_table,
               HSA_PC_SAMPLING_API_TABLE_MAJOR_VERSION,
               HSA_PC_SAMPLING_API_TABLE_STEP_VERSION);
#endif
  // The implemented functions, each declared in api.h.
#define SOFTHSA_API(table, name) \
  Set(&softhsa_##table##_table.name##_fn, &api::name);
#include "softhsa/api_list.inc"
#undef SOFTHSA_API
}

// Filled at load, so that a call made before hsa_init reaches a function
// (which answers HSA_STATUS_ERROR_NOT_INITIALIZED, as ROCR's do).
__attribute__((constructor)) static void FillAtLoad() { FillTable(); }

}  // namespace softhsa

// Exported by ROCR without a table slot: answered directly. No agent here
// supports images.
extern "C" __attribute__((visibility("default"))) hsa_status_t
hsa_amd_image_get_info_max_dim(hsa_agent_t agent, hsa_agent_info_t,
                               void* value) {
  if (!softhsa::Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (softhsa::ToAgent(agent) == nullptr) return HSA_STATUS_ERROR_INVALID_AGENT;
  if (value == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  return HSA_STATUS_ERROR_INVALID_AGENT;
}

// ROCR's debugger rendezvous structure (exported data, version ROCR_1).
// Nothing is ever loaded onto a device, so it stays empty.
extern "C" {
__attribute__((visibility("default"),
               section(".data"))) char _amdgpu_r_debug[40] = {};
}

#if HSA_AMD_INTERFACE_VERSION_MINOR >= 4
// Exported by ROCR from its virtual memory API on (interface 1.4) without a
// table slot. No handle exists here (hsa_amd_vmem_handle_create is not
// implemented), so every handle is one the header calls invalid.
extern "C" __attribute__((visibility("default"))) hsa_status_t
hsa_amd_vmem_get_alloc_properties_from_handle(hsa_amd_vmem_alloc_handle_t,
                                              hsa_amd_memory_pool_t* pool,
                                              hsa_amd_memory_type_t* type) {
  if (!softhsa::Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  return HSA_STATUS_ERROR_INVALID_ALLOCATION;
}
#endif
