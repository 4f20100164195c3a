/* Counter configurations: the set of counters a counting service collects
 * on an agent. C99 and C++. */
#ifndef ROCPROFILER_SDK_COUNTER_CONFIG_H_
#define ROCPROFILER_SDK_COUNTER_CONFIG_H_

#include <stddef.h>

#include "rocprofiler-sdk/agent.h"
#include "rocprofiler-sdk/defines.h"
#include "rocprofiler-sdk/fwd.h"

ROCPROFILER_EXTERN_C_INIT

/* Creates a configuration of `counters_count` counters on an agent (or,
 * with a config_id whose handle is non-zero, adds to a copy of that one).
 * NULL config_id, or NULL counters_list with a count:
 * ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT; unknown agent:
 * ROCPROFILER_STATUS_ERROR_AGENT_NOT_FOUND; a counter:
 * ROCPROFILER_STATUS_ERROR_COUNTER_NOT_FOUND (no agent has counters here);
 * none: ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED. */
ROCPROFILER_SDK_EXPERIMENTAL
rocprofiler_status_t rocprofiler_create_counter_config(
    rocprofiler_agent_id_t agent_id, rocprofiler_counter_id_t* counters_list,
    size_t counters_count,
    rocprofiler_counter_config_id_t* config_id) ROCPROFILER_API
    ROCPROFILER_NONNULL(4);

/* No configuration can exist here: ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED. */
ROCPROFILER_SDK_EXPERIMENTAL
rocprofiler_status_t rocprofiler_destroy_counter_config(
    rocprofiler_counter_config_id_t config_id) ROCPROFILER_API;

ROCPROFILER_EXTERN_C_FINI

#endif /* ROCPROFILER_SDK_COUNTER_CONFIG_H_ */
