/* Streaming performance monitors (SPM): counters sampled at a fixed
 * interval. Declared with rocprofiler-sdk 1.0.0's types; configuring it
 * returns ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED here (as 1.0.0, which
 * does not implement SPM either). rocprofiler.h does not include it, as in
 * 1.0.0. C99 and C++. */
#ifndef ROCPROFILER_SDK_SPM_H_
#define ROCPROFILER_SDK_SPM_H_

#include <stdint.h>

#include "rocprofiler-sdk/defines.h"
#include "rocprofiler-sdk/fwd.h"

ROCPROFILER_EXTERN_C_INIT

typedef struct ROCPROFILER_SDK_EXPERIMENTAL rocprofiler_spm_record_t {
  rocprofiler_counter_record_t* counters;
  uint64_t counters_count;
} rocprofiler_spm_record_t;

/* Inside initialize only (ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED
 * otherwise). Unknown context: ..._CONTEXT_NOT_FOUND; unknown buffer:
 * ..._BUFFER_NOT_FOUND; otherwise ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED. */
ROCPROFILER_SDK_EXPERIMENTAL
rocprofiler_status_t rocprofiler_configure_spm_service(
    rocprofiler_context_id_t context_id, rocprofiler_buffer_id_t buffer_id,
    rocprofiler_counter_config_id_t counter_config,
    uint64_t interval) ROCPROFILER_API;

ROCPROFILER_EXTERN_C_FINI

#endif /* ROCPROFILER_SDK_SPM_H_ */
