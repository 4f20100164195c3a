// The HsaApiTable the exported symbols dispatch through and tools receive in
// OnLoad. Every slot holds a function: the implemented ones from
// softhsa::api, the rest a stub answering HSA_STATUS_ERROR (images and the
// finalizer are not supported; see softhsa/README.md).
#include <type_traits>

#include "softhsa/api.h"
#include "softhsa/runtime.h"

extern "C" {
__attribute__((visibility("hidden"))) CoreApiTable softhsa_core_table;
__attribute__((visibility("hidden"))) AmdExtTable softhsa_amd_ext_table;
__attribute__((visibility("hidden"))) ImageExtTable softhsa_image_ext_table;
__attribute__((visibility("hidden")))
FinalizerExtTable softhsa_finalizer_ext_table;
}

namespace softhsa {
namespace {

HsaApiTable g_root;

template <typename F>
struct Unsupported;
template <typename R, typename... A>
struct Unsupported<R (*)(A...)> {
  static R Call(A...) {
    if constexpr (std::is_same_v<R, hsa_status_t>) {
      return Initialized() ? HSA_STATUS_ERROR
                           : HSA_STATUS_ERROR_NOT_INITIALIZED;
    } else if constexpr (!std::is_void_v<R>) {
      return R{};
    }
  }
};

template <typename F>
void Set(F* slot, F fn) {
  *slot = fn;
}

}  // namespace

HsaApiTable* Table() { return &g_root; }

void FillTable() {
  g_root.version = {HSA_API_TABLE_MAJOR_VERSION, sizeof(HsaApiTable),
                    HSA_API_TABLE_STEP_VERSION, 0};
  g_root.core_ = &softhsa_core_table;
  g_root.amd_ext_ = &softhsa_amd_ext_table;
  g_root.finalizer_ext_ = &softhsa_finalizer_ext_table;
  g_root.image_ext_ = &softhsa_image_ext_table;
  softhsa_core_table.version = {HSA_CORE_API_TABLE_MAJOR_VERSION,
                                sizeof(CoreApiTable),
                                HSA_CORE_API_TABLE_STEP_VERSION, 0};
  softhsa_amd_ext_table.version = {HSA_AMD_EXT_API_TABLE_MAJOR_VERSION,
                                   sizeof(AmdExtTable),
                                   HSA_AMD_EXT_API_TABLE_STEP_VERSION, 0};
  softhsa_image_ext_table.version = {HSA_IMAGE_API_TABLE_MAJOR_VERSION,
                                     sizeof(ImageExtTable),
                                     HSA_IMAGE_API_TABLE_STEP_VERSION, 0};
  softhsa_finalizer_ext_table.version = {
      HSA_FINALIZER_API_TABLE_MAJOR_VERSION, sizeof(FinalizerExtTable),
      HSA_FINALIZER_API_TABLE_STEP_VERSION, 0};
#define SOFTHSA_SLOT(table, name)     \
  softhsa_##table##_table.name##_fn = \
      &Unsupported<decltype(softhsa_##table##_table.name##_fn)>::Call;
#define SOFTHSA_HIDDEN_SLOT(table, name) SOFTHSA_SLOT(table, name)
#define SOFTHSA_ALIAS(table, name, slot)
#include "softhsa/api_slots.inc"
#undef SOFTHSA_SLOT
#undef SOFTHSA_HIDDEN_SLOT
#undef SOFTHSA_ALIAS
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
