/* The dispatch counting service: counters read around each kernel
 * dispatch. Declared with rocprofiler-sdk 1.0.0's types and layouts;
 * configuring it returns ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED here
 * (sdk/README.md, "Services that need hardware"). C99 and C++. */
#ifndef ROCPROFILER_SDK_DISPATCH_COUNTING_SERVICE_H_
#define ROCPROFILER_SDK_DISPATCH_COUNTING_SERVICE_H_

#include <stddef.h>
#include <stdint.h>

#include "rocprofiler-sdk/agent.h"
#include "rocprofiler-sdk/counter_config.h"
#include "rocprofiler-sdk/defines.h"
#include "rocprofiler-sdk/fwd.h"

ROCPROFILER_EXTERN_C_INIT

/* The dispatch a callback is about. */
typedef struct ROCPROFILER_SDK_EXPERIMENTAL
    rocprofiler_dispatch_counting_service_data_t {
  uint64_t size; /* sizeof this struct */
  rocprofiler_async_correlation_id_t correlation_id;
  rocprofiler_timestamp_t start_timestamp;
  rocprofiler_timestamp_t end_timestamp;
  rocprofiler_kernel_dispatch_info_t dispatch_info;
} rocprofiler_dispatch_counting_service_data_t;

/* The buffer record
 * (ROCPROFILER_COUNTER_RECORD_PROFILE_COUNTING_DISPATCH_HEADER) that precedes a
 * dispatch's `num_records` counter records. */
typedef struct ROCPROFILER_SDK_EXPERIMENTAL
    rocprofiler_dispatch_counting_service_record_t {
  uint64_t size;
  uint64_t num_records;
  rocprofiler_async_correlation_id_t correlation_id;
  rocprofiler_timestamp_t start_timestamp;
  rocprofiler_timestamp_t end_timestamp;
  rocprofiler_kernel_dispatch_info_t dispatch_info;
} rocprofiler_dispatch_counting_service_record_t;

/* Asked per dispatch which counter configuration to collect (none: leave
 * *config alone). */
ROCPROFILER_SDK_EXPERIMENTAL
typedef void (*rocprofiler_dispatch_counting_service_cb_t)(
    rocprofiler_dispatch_counting_service_data_t dispatch_data,
    rocprofiler_counter_config_id_t* config, rocprofiler_user_data_t* user_data,
    void* callback_data_args);

/* The counters of one dispatch, for the callback flavour. */
ROCPROFILER_SDK_EXPERIMENTAL
typedef void (*rocprofiler_dispatch_counting_record_cb_t)(
    rocprofiler_dispatch_counting_service_data_t dispatch_data,
    rocprofiler_counter_record_t* record_data, size_t record_count,
    rocprofiler_user_data_t user_data, void* callback_data_args);

/* Inside initialize only (ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED
 * otherwise). NULL callback: ..._INVALID_ARGUMENT; unknown context:
 * ..._CONTEXT_NOT_FOUND; unknown buffer: ..._BUFFER_NOT_FOUND; otherwise
 * ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED. */
ROCPROFILER_SDK_EXPERIMENTAL
rocprofiler_status_t rocprofiler_configure_buffer_dispatch_counting_service(
    rocprofiler_context_id_t context_id, rocprofiler_buffer_id_t buffer_id,
    rocprofiler_dispatch_counting_service_cb_t callback,
    void* callback_data_args) ROCPROFILER_API;

/* As above, with the counters delivered to record_callback (NULL either
 * callback: ..._INVALID_ARGUMENT). */
ROCPROFILER_SDK_EXPERIMENTAL
rocprofiler_status_t rocprofiler_configure_callback_dispatch_counting_service(
    rocprofiler_context_id_t context_id,
    rocprofiler_dispatch_counting_service_cb_t dispatch_callback,
    void* dispatch_callback_args,
    rocprofiler_dispatch_counting_record_cb_t record_callback,
    void* record_callback_args) ROCPROFILER_API;

ROCPROFILER_EXTERN_C_FINI

#endif /* ROCPROFILER_SDK_DISPATCH_COUNTING_SERVICE_H_ */
