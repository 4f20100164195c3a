// Taking a runtime's HSA dispatch table, whichever way the runtime hands it
// over: as an HSA tool (OnLoad, hsa_tool.cc) or through rocprofiler-register
// (rocprofiler_set_api_table, api_registration.cc).
#ifndef RUNTIME_CAPI_HSA_TOOL_H_
#define RUNTIME_CAPI_HSA_TOOL_H_

#include <hsa/hsa_api_trace.h>

namespace roctracer::capi {

// Installs the generated wrappers into `table` when its layout is the one
// they were generated for (major versions of the root and every sub-table).
// The first table accepted is the one traced: handing over the same table
// again (both ways) changes nothing and returns true; another table while
// one is installed is refused (false), as are NULL and foreign layouts (with
// one line on stderr).
bool AcceptRuntimeTable(HsaApiTable* table) noexcept;

// The table AcceptRuntimeTable accepted (NULL before, and after OnUnload).
HsaApiTable* AcceptedRuntimeTable() noexcept;

// OnUnload: the table goes back to the runtime; a later hand-over (hsa_init
// after the last hsa_shut_down) is accepted afresh.
void ForgetRuntimeTable() noexcept;

// roctracer's HIP_OPS/HSA_OPS activity was enabled: gpu::RequestToolPath
// (api.cc refers to it weakly: the API links without the GPU half).
void RequestGpuToolPath() noexcept;

}  // namespace roctracer::capi

#endif  // RUNTIME_CAPI_HSA_TOOL_H_
