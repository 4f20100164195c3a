/* Thread trace around the kernel dispatches a callback selects. C99 and
 * C++. */
#ifndef ROCPROFILER_SDK_EXPERIMENTAL_THREAD_TRACE_DISPATCH_H_
#define ROCPROFILER_SDK_EXPERIMENTAL_THREAD_TRACE_DISPATCH_H_

#include <stddef.h>

#include "rocprofiler-sdk/agent.h"
#include "rocprofiler-sdk/defines.h"
#include "rocprofiler-sdk/experimental/thread-trace/core.h"
#include "rocprofiler-sdk/fwd.h"

ROCPROFILER_EXTERN_C_INIT

typedef enum rocprofiler_thread_trace_control_flags_t {
  ROCPROFILER_THREAD_TRACE_CONTROL_NONE = 0,
  ROCPROFILER_THREAD_TRACE_CONTROL_START_AND_STOP = 3
} rocprofiler_thread_trace_control_flags_t;

/* Asked per dispatch whether to trace it. */
typedef rocprofiler_thread_trace_control_flags_t (
    *rocprofiler_thread_trace_dispatch_callback_t)(
    rocprofiler_agent_id_t agent_id, rocprofiler_queue_id_t queue_id,
    rocprofiler_async_correlation_id_t correlation_id,
    rocprofiler_kernel_id_t kernel_id, rocprofiler_dispatch_id_t dispatch_id,
    void* userdata_config, rocprofiler_user_data_t* userdata_shader);

/* Inside initialize only (ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED
 * otherwise). NULL callbacks, or NULL parameters with a count:
 * ..._INVALID_ARGUMENT; unknown context: ..._CONTEXT_NOT_FOUND; unknown
 * agent: ..._AGENT_NOT_FOUND; otherwise
 * ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED. */
rocprofiler_status_t rocprofiler_configure_dispatch_thread_trace_service(
    rocprofiler_context_id_t context_id, rocprofiler_agent_id_t agent_id,
    rocprofiler_thread_trace_parameter_t* parameters, size_t num_parameters,
    rocprofiler_thread_trace_dispatch_callback_t dispatch_callback,
    rocprofiler_thread_trace_shader_data_callback_t shader_callback,
    void* callback_userdata) ROCPROFILER_API;

ROCPROFILER_EXTERN_C_FINI

#endif /* ROCPROFILER_SDK_EXPERIMENTAL_THREAD_TRACE_DISPATCH_H_ */
