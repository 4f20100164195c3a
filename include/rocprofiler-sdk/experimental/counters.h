/* Loading counter definitions (rocprofiler-sdk's YAML format) at run time.
 * C99 and C++. */
#ifndef ROCPROFILER_SDK_EXPERIMENTAL_COUNTERS_H_
#define ROCPROFILER_SDK_EXPERIMENTAL_COUNTERS_H_

#include <stddef.h>

#include "rocprofiler-sdk/agent.h"
#include "rocprofiler-sdk/defines.h"
#include "rocprofiler-sdk/fwd.h"

ROCPROFILER_EXTERN_C_INIT

/* NULL yaml with a size: ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
 * otherwise ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED (no counters here). */
ROCPROFILER_SDK_EXPERIMENTAL
rocprofiler_status_t rocprofiler_load_counter_definition(
    const char* yaml, size_t size,
    rocprofiler_counter_flag_t flags) ROCPROFILER_API;

ROCPROFILER_EXTERN_C_FINI

#endif /* ROCPROFILER_SDK_EXPERIMENTAL_COUNTERS_H_ */
