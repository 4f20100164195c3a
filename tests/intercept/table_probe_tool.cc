// An HSA tool loaded before the tracer (lower HSA_AMD_TOOL_PRIORITY): it keeps
// the runtime's table pointer and a copy of the tables as the runtime filled
// them, so hsa_tool_test can see what the tracer's OnLoad changed in them and
// what its OnUnload put back.
#include <hsa/hsa_api_trace.h>

#include <cstring>

namespace {
HsaApiTable* g_table = nullptr;
CoreApiTable g_core;
AmdExtTable g_amd_ext;
int g_loads = 0;
}  // namespace

extern "C" {

__attribute__((
    visibility("default"))) extern const uint32_t HSA_AMD_TOOL_PRIORITY = 10;

__attribute__((visibility("default"))) bool OnLoad(HsaApiTable* table, uint64_t,
                                                   uint64_t,
                                                   const char* const*) {
  g_table = table;
  std::memcpy(&g_core, table->core_, sizeof(g_core));
  std::memcpy(&g_amd_ext, table->amd_ext_, sizeof(g_amd_ext));
  ++g_loads;
  return true;
}

__attribute__((visibility("default"))) void OnUnload() {}

__attribute__((visibility("default"))) HsaApiTable* ProbeTable(
    const CoreApiTable** core, const AmdExtTable** amd_ext, int* loads) {
  *core = &g_core;
  *amd_ext = &g_amd_ext;
  *loads = g_loads;
  return g_table;
}

}  // extern "C"
