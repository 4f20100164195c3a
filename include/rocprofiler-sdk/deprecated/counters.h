/* Counter dimension queries that rocprofiler-sdk 1.0.0 keeps for older tools
 * (rocprofiler_counter_info_v1_t, counters.h, carries the same facts).
 * C99 and C++. */
#ifndef ROCPROFILER_SDK_DEPRECATED_COUNTERS_H_
#define ROCPROFILER_SDK_DEPRECATED_COUNTERS_H_

#include <stddef.h>

#include "rocprofiler-sdk/agent.h"
#include "rocprofiler-sdk/defines.h"
#include "rocprofiler-sdk/fwd.h"

ROCPROFILER_EXTERN_C_INIT

ROCPROFILER_SDK_DEPRECATED("use rocprofiler_counter_info_v1_t")
typedef rocprofiler_status_t (*rocprofiler_available_dimensions_cb_t)(
    rocprofiler_counter_id_t id,
    const rocprofiler_counter_record_dimension_info_t* dim_info,
    size_t num_dims, void* user_data);

/* NULL info_cb: ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT; any counter:
 * ROCPROFILER_STATUS_ERROR_COUNTER_NOT_FOUND (there are none). */
ROCPROFILER_SDK_DEPRECATED("use rocprofiler_counter_info_v1_t")
rocprofiler_status_t rocprofiler_iterate_counter_dimensions(
    rocprofiler_counter_id_t id, rocprofiler_available_dimensions_cb_t info_cb,
    void* user_data) ROCPROFILER_API;

/* NULL instance_count: ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT; any
 * counter: ROCPROFILER_STATUS_ERROR_COUNTER_NOT_FOUND. */
ROCPROFILER_SDK_DEPRECATED("use rocprofiler_counter_info_v1_t")
rocprofiler_status_t rocprofiler_query_counter_instance_count(
    rocprofiler_agent_id_t agent_id, rocprofiler_counter_id_t counter_id,
    size_t* instance_count) ROCPROFILER_API ROCPROFILER_NONNULL(3);

ROCPROFILER_EXTERN_C_FINI

#endif /* ROCPROFILER_SDK_DEPRECATED_COUNTERS_H_ */
