// An HSA tool loaded before the tracer (a lower HSA_AMD_TOOL_PRIORITY): its
// OnLoad creates two signals and a signal group of them through the
// runtime's own table, so the group exists before the tracer is installed,
// as one a tool loaded earlier (or the runtime itself) made. The test reads
// them with early_group().
#include <hsa/hsa_api_trace.h>

#include <cstdint>

namespace {
hsa_signal_group_t g_group{0};
hsa_signal_t g_signals[2] = {{0}, {0}};
const CoreApiTable* g_core = nullptr;

// The first CPU agent: the group's consumer.
hsa_status_t FindCpu(hsa_agent_t agent, void* data) {
  hsa_device_type_t type;
  if (g_core->hsa_agent_get_info_fn(agent, HSA_AGENT_INFO_DEVICE, &type) ==
          HSA_STATUS_SUCCESS &&
      type == HSA_DEVICE_TYPE_CPU) {
    *static_cast<hsa_agent_t*>(data) = agent;
    return HSA_STATUS_INFO_BREAK;
  }
  return HSA_STATUS_SUCCESS;
}
}  // namespace

extern "C" {

__attribute__((
    visibility("default"))) extern const uint32_t HSA_AMD_TOOL_PRIORITY = 0;

// The group and its signals (both created at 1); false if OnLoad could not
// make them.
__attribute__((visibility("default"))) bool early_group(
    hsa_signal_group_t* group, hsa_signal_t* signals) {
  if (g_group.handle == 0) return false;
  *group = g_group;
  signals[0] = g_signals[0];
  signals[1] = g_signals[1];
  return true;
}

__attribute__((visibility("default"))) bool OnLoad(
    HsaApiTable* table, uint64_t /*runtime_version*/,
    uint64_t /*failed_tool_count*/, const char* const* /*failed_tool_names*/) {
  g_group.handle = 0;
  const CoreApiTable& core = *table->core_;
  g_core = &core;
  hsa_agent_t cpu{0};
  core.hsa_iterate_agents_fn(&FindCpu, &cpu);
  if (cpu.handle == 0) return false;
  for (hsa_signal_t& s : g_signals) {
    if (core.hsa_signal_create_fn(1, 0, nullptr, &s) != HSA_STATUS_SUCCESS) {
      return false;
    }
  }
  hsa_signal_group_t group;
  if (core.hsa_signal_group_create_fn(2, g_signals, 1, &cpu, &group) !=
      HSA_STATUS_SUCCESS) {
    return false;
  }
  g_group = group;
  return true;
}

}  // extern "C"
