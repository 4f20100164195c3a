// Scratch memory events: where the runtime's table has the tools table of
// ROCm >= 6.1 (hsa_api_trace.h's ToolsApiTable, the hooks of
// hsa/hsa_amd_tool.h), the tracer puts its own hooks into its six slots,
// pairs each START with its END and tells the observers (OnScratch). Built
// from older headers, this is empty: there are no such events to hear.
#ifndef RUNTIME_GPU_SCRATCH_EVENTS_H_
#define RUNTIME_GPU_SCRATCH_EVENTS_H_

#include <hsa/hsa_api_trace.h>

namespace roctracer::gpu {

// True when the HSA headers built against declare the scratch events.
constexpr bool kHeadersHaveScratchEvents =
#if __has_include(<hsa/hsa_amd_tool.h>)
    true;
#else
    false;
#endif

// Replaces the hooks (what was there is called after ours); false when the
// runtime's table has no tools table (or the headers none).
bool InstallScratchHooks(HsaApiTable* table) noexcept;
// Puts back what InstallScratchHooks found, where ours is still there.
void RestoreScratchHooks() noexcept;

}  // namespace roctracer::gpu

#endif  // RUNTIME_GPU_SCRATCH_EVENTS_H_
