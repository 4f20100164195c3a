/* The device counting service: counters of a whole agent, sampled when the
 * tool asks. Declared with rocprofiler-sdk 1.0.0's types; configuring it
 * returns ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED here (sdk/README.md,
 * "Services that need hardware"). C99 and C++. */
#ifndef ROCPROFILER_SDK_DEVICE_COUNTING_SERVICE_H_
#define ROCPROFILER_SDK_DEVICE_COUNTING_SERVICE_H_

#include <stddef.h>

#include "rocprofiler-sdk/defines.h"
#include "rocprofiler-sdk/fwd.h"

ROCPROFILER_EXTERN_C_INIT

/* Given to the service callback: selects the counter configuration. */
ROCPROFILER_SDK_EXPERIMENTAL
typedef rocprofiler_status_t (*rocprofiler_device_counting_agent_cb_t)(
    rocprofiler_context_id_t context_id,
    rocprofiler_counter_config_id_t config_id);

/* Called when the context starts on the agent. */
ROCPROFILER_SDK_EXPERIMENTAL
typedef void (*rocprofiler_device_counting_service_cb_t)(
    rocprofiler_context_id_t context_id, rocprofiler_agent_id_t agent_id,
    rocprofiler_device_counting_agent_cb_t set_config, void* user_data);

/* Inside initialize only (ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED
 * otherwise). NULL cb: ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT; unknown
 * context: ..._CONTEXT_NOT_FOUND; unknown agent: ..._AGENT_NOT_FOUND;
 * otherwise ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED. */
ROCPROFILER_SDK_EXPERIMENTAL
rocprofiler_status_t rocprofiler_configure_device_counting_service(
    rocprofiler_context_id_t context_id, rocprofiler_buffer_id_t buffer_id,
    rocprofiler_agent_id_t agent_id,
    rocprofiler_device_counting_service_cb_t cb, void* user_data)
    ROCPROFILER_NONNULL(4) ROCPROFILER_API;

/* Reads the context's counters now, into `output_records` (room for
 * *rec_count records) or, with output_records NULL, into its buffer.
 * ROCPROFILER_CONTEXT_NONE or an unknown context:
 * ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND; output_records without
 * rec_count: ..._INVALID_ARGUMENT; otherwise
 * ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED. */
ROCPROFILER_SDK_EXPERIMENTAL
rocprofiler_status_t rocprofiler_sample_device_counting_service(
    rocprofiler_context_id_t context_id, rocprofiler_user_data_t user_data,
    rocprofiler_counter_flag_t flags,
    rocprofiler_counter_record_t* output_records,
    size_t* rec_count) ROCPROFILER_API;

#if defined(ROCPROFILER_SDK_BETA_COMPAT) && ROCPROFILER_SDK_BETA_COMPAT > 0
typedef rocprofiler_device_counting_agent_cb_t
    rocprofiler_agent_set_profile_callback_t;
#endif

ROCPROFILER_EXTERN_C_FINI

#endif /* ROCPROFILER_SDK_DEVICE_COUNTING_SERVICE_H_ */
