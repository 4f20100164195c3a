/* Thread trace of a whole agent while the context is active. C99 and C++. */
#ifndef ROCPROFILER_SDK_EXPERIMENTAL_THREAD_TRACE_AGENT_H_
#define ROCPROFILER_SDK_EXPERIMENTAL_THREAD_TRACE_AGENT_H_

#include <stddef.h>

#include "rocprofiler-sdk/agent.h"
#include "rocprofiler-sdk/defines.h"
#include "rocprofiler-sdk/experimental/thread-trace/core.h"
#include "rocprofiler-sdk/fwd.h"

ROCPROFILER_EXTERN_C_INIT

/* Inside initialize only (ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED
 * otherwise). NULL shader_callback, or NULL parameters with a count:
 * ..._INVALID_ARGUMENT; unknown context: ..._CONTEXT_NOT_FOUND; unknown
 * agent: ..._AGENT_NOT_FOUND; otherwise
 * ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED. */
rocprofiler_status_t rocprofiler_configure_device_thread_trace_service(
    rocprofiler_context_id_t context_id, rocprofiler_agent_id_t agent_id,
    rocprofiler_thread_trace_parameter_t* parameters, size_t num_parameters,
    rocprofiler_thread_trace_shader_data_callback_t shader_callback,
    rocprofiler_user_data_t callback_userdata) ROCPROFILER_API;

ROCPROFILER_EXTERN_C_FINI

#endif /* ROCPROFILER_SDK_EXPERIMENTAL_THREAD_TRACE_AGENT_H_ */
