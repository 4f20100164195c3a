// An HSA tool loaded before the tracer (a lower HSA_AMD_TOOL_PRIORITY): it
// counts the signals created and destroyed through the runtime's table, the
// tracer's own included (the tracer, loaded after it, calls through the
// functions it installed). The test reads the count with live_signals().
#include <hsa/hsa_api_trace.h>

#include <atomic>
#include <cstdint>

namespace {
std::atomic<int64_t> g_live{0};
decltype(CoreApiTable::hsa_signal_create_fn) g_create = nullptr;
decltype(CoreApiTable::hsa_signal_destroy_fn) g_destroy = nullptr;

hsa_status_t Create(hsa_signal_value_t initial_value, uint32_t num_consumers,
                    const hsa_agent_t* consumers, hsa_signal_t* signal) {
  const hsa_status_t status =
      g_create(initial_value, num_consumers, consumers, signal);
  if (status == HSA_STATUS_SUCCESS) g_live.fetch_add(1);
  return status;
}

hsa_status_t Destroy(hsa_signal_t signal) {
  const hsa_status_t status = g_destroy(signal);
  if (status == HSA_STATUS_SUCCESS) g_live.fetch_sub(1);
  return status;
}
}  // namespace

extern "C" {

__attribute__((
    visibility("default"))) extern const uint32_t HSA_AMD_TOOL_PRIORITY = 0;

// Signals created through the table and not destroyed since OnLoad.
__attribute__((visibility("default"))) int64_t live_signals() {
  return g_live.load();
}

__attribute__((visibility("default"))) bool OnLoad(
    HsaApiTable* table, uint64_t /*runtime_version*/,
    uint64_t /*failed_tool_count*/, const char* const* /*failed_tool_names*/) {
  CoreApiTable& core = *table->core_;
  g_create = core.hsa_signal_create_fn;
  g_destroy = core.hsa_signal_destroy_fn;
  core.hsa_signal_create_fn = &Create;
  core.hsa_signal_destroy_fn = &Destroy;
  return true;
}

}  // extern "C"
