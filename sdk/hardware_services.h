// The checks the services that need GPU hardware (counters, PC sampling,
// thread trace, SPM) make before answering NOT_IMPLEMENTED: a tool calling
// them wrongly gets the status rocprofiler-sdk documents for its mistake,
// and one calling them rightly learns the service is not offered here.
#ifndef ROCPROFILER_SDK_IMPL_HARDWARE_SERVICES_H_
#define ROCPROFILER_SDK_IMPL_HARDWARE_SERVICES_H_

#include "rocprofiler-sdk/fwd.h"

namespace rocprofiler_sdk {

// CONFIGURATION_LOCKED outside a tool's initialize, CONTEXT_NOT_FOUND for a
// context never created, else SUCCESS.
rocprofiler_status_t CheckServiceContext(
    rocprofiler_context_id_t context_id) noexcept;

// BUFFER_NOT_FOUND for a buffer never created (or destroyed), else SUCCESS.
rocprofiler_status_t CheckServiceBuffer(
    rocprofiler_buffer_id_t buffer_id) noexcept;

// AGENT_NOT_FOUND for an agent rocprofiler_query_available_agents does not
// report, else SUCCESS.
rocprofiler_status_t CheckServiceAgent(
    rocprofiler_agent_id_t agent_id) noexcept;

}  // namespace rocprofiler_sdk

#endif  // ROCPROFILER_SDK_IMPL_HARDWARE_SERVICES_H_
