// An HSA tool for tool_test, built three times with different TOOL_PRIORITY
// and TOOL_FAILS: it records what OnLoad was given and wraps
// hsa_agent_get_info, keeping the slot's previous function (which shows the
// order tools were loaded in).
#include "tests/softhsa/test_tool.h"

#include <hsa/hsa_api_trace.h>

#include <cstdlib>
#include <string>

namespace {
ToolState g_state;
}

extern "C" {

__attribute__((visibility(
    "default"))) extern const uint32_t HSA_AMD_TOOL_PRIORITY = TOOL_PRIORITY;

__attribute__((visibility("default"))) ToolState* tool_state() {
  return &g_state;
}

__attribute__((visibility("default"))) hsa_status_t Wrapper(
    hsa_agent_t agent, hsa_agent_info_t attribute, void* value) {
  ++g_state.calls;
  return g_state.previous(agent, attribute, value);
}

__attribute__((visibility("default"))) bool OnLoad(
    HsaApiTable* table, uint64_t runtime_version, uint64_t failed_tool_count,
    const char* const* failed_tool_names) {
  ++g_state.loads;
  g_state.table = table;
  g_state.runtime_version = runtime_version;
  g_state.failed_count = failed_tool_count;
  g_state.failed_names.clear();
  for (uint64_t i = 0; i < failed_tool_count; ++i) {
    g_state.failed_names.push_back(failed_tool_names[i]);
  }
  if (TOOL_FAILS) return false;
  g_state.previous = table->core_->hsa_agent_get_info_fn;
  table->core_->hsa_agent_get_info_fn = Wrapper;
  return true;
}

// Unloads are counted in one place all tools see: the environment.
__attribute__((visibility("default"))) void OnUnload() {
  ++g_state.unloads;
  const char* seq = getenv("TOOL_TEST_UNLOADS");
  std::string next =
      (seq ? std::string(seq) : "") + std::to_string(TOOL_PRIORITY) + ",";
  setenv("TOOL_TEST_UNLOADS", next.c_str(), 1);
}

}  // extern "C"
