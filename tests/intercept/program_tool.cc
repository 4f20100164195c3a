// An HSA tool library whose OnLoad and OnUnload are functions of the program
// that loaded it. Tests that link the tracer statically (to reach its
// internals) register the tracer's entry points here before hsa_init; the
// runtime (softhsa, from HSA_TOOLS_LIB) then calls them at hsa_init and at
// the last hsa_shut_down, with its own table, as ROCR calls a tool's.
// Linked into the test, so the runtime's dlopen of the same SONAME finds
// this copy.
#include <hsa/hsa_api_trace.h>

#include <cstdint>

using OnLoadFn = bool (*)(HsaApiTable*, uint64_t, uint64_t, const char* const*);
using OnUnloadFn = void (*)();

namespace {
OnLoadFn g_on_load = nullptr;
OnUnloadFn g_on_unload = nullptr;
}  // namespace

extern "C" {

__attribute__((visibility("default"))) void program_tool_register(
    OnLoadFn on_load, OnUnloadFn on_unload) {
  g_on_load = on_load;
  g_on_unload = on_unload;
}

// Nothing registered: the tool fails to load, as a library without OnLoad.
__attribute__((visibility("default"))) bool OnLoad(
    HsaApiTable* table, uint64_t runtime_version, uint64_t failed_tool_count,
    const char* const* failed_tool_names) {
  return g_on_load != nullptr &&
         g_on_load(table, runtime_version, failed_tool_count,
                   failed_tool_names);
}

__attribute__((visibility("default"))) void OnUnload() {
  if (g_on_unload != nullptr) g_on_unload();
}

}  // extern "C"
