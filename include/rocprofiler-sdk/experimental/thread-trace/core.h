/* Thread trace (ATT): the parameters and the data callback both thread-trace
 * services share. Declared with rocprofiler-sdk 1.0.0's types and layouts;
 * the services return ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED here
 * (sdk/README.md, "Services that need hardware"). C99 and C++. */
#ifndef ROCPROFILER_SDK_EXPERIMENTAL_THREAD_TRACE_CORE_H_
#define ROCPROFILER_SDK_EXPERIMENTAL_THREAD_TRACE_CORE_H_

#include <stddef.h>
#include <stdint.h>

#include "rocprofiler-sdk/agent.h"
#include "rocprofiler-sdk/defines.h"
#include "rocprofiler-sdk/fwd.h"

ROCPROFILER_EXTERN_C_INIT

typedef enum rocprofiler_thread_trace_parameter_type_t {
  ROCPROFILER_THREAD_TRACE_PARAMETER_TARGET_CU = 0,
  ROCPROFILER_THREAD_TRACE_PARAMETER_SHADER_ENGINE_MASK,
  ROCPROFILER_THREAD_TRACE_PARAMETER_BUFFER_SIZE,
  ROCPROFILER_THREAD_TRACE_PARAMETER_SIMD_SELECT,
  ROCPROFILER_THREAD_TRACE_PARAMETER_PERFCOUNTERS_CTRL,
  ROCPROFILER_THREAD_TRACE_PARAMETER_PERFCOUNTER,
  ROCPROFILER_THREAD_TRACE_PARAMETER_SERIALIZE_ALL,
  ROCPROFILER_THREAD_TRACE_PARAMETER_LAST
} rocprofiler_thread_trace_parameter_type_t;

/* One parameter: a value, or for PERFCOUNTER a counter and SIMD mask. */
typedef struct rocprofiler_thread_trace_parameter_t {
  rocprofiler_thread_trace_parameter_type_t type;
  union {
    uint64_t value;
    struct {
      rocprofiler_counter_id_t counter_id;
      uint64_t simd_mask : 4;
    };
  };
} rocprofiler_thread_trace_parameter_t;

/* The trace data of one shader engine. */
typedef void (*rocprofiler_thread_trace_shader_data_callback_t)(
    rocprofiler_agent_id_t agent, int64_t shader_engine_id, void* data,
    size_t data_size, rocprofiler_user_data_t userdata);

ROCPROFILER_EXTERN_C_FINI

#endif /* ROCPROFILER_SDK_EXPERIMENTAL_THREAD_TRACE_CORE_H_ */
