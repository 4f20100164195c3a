/* The names counter configurations had before rocprofiler-sdk 1.0.0, kept
 * as inline forwards (as in 1.0.0: the library exports only the
 * counter_config functions). C99 and C++. */
#ifndef ROCPROFILER_SDK_DEPRECATED_PROFILE_CONFIG_H_
#define ROCPROFILER_SDK_DEPRECATED_PROFILE_CONFIG_H_

#include "rocprofiler-sdk/counter_config.h"
#include "rocprofiler-sdk/defines.h"
#include "rocprofiler-sdk/fwd.h"

ROCPROFILER_EXTERN_C_INIT

ROCPROFILER_SDK_DEPRECATED("renamed rocprofiler_create_counter_config")
static inline rocprofiler_status_t rocprofiler_create_profile_config(
    rocprofiler_agent_id_t agent_id, rocprofiler_counter_id_t* counters_list,
    size_t counters_count, rocprofiler_profile_config_id_t* config_id) {
  return rocprofiler_create_counter_config(agent_id, counters_list,
                                           counters_count, config_id);
}

ROCPROFILER_SDK_DEPRECATED("renamed rocprofiler_destroy_counter_config")
static inline rocprofiler_status_t rocprofiler_destroy_profile_config(
    rocprofiler_profile_config_id_t config_id) {
  return rocprofiler_destroy_counter_config(config_id);
}

ROCPROFILER_EXTERN_C_FINI

#endif /* ROCPROFILER_SDK_DEPRECATED_PROFILE_CONFIG_H_ */
