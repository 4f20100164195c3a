// Hardware counters (counters.h, counter_config.h, deprecated/counters.h,
// experimental/counters.h). This library ships no counter definitions:
// reading counters needs a GPU and its vendor profiling library. So every
// agent is one whose architecture has no counters, which rocprofiler-sdk
// reports as AGENT_ARCH_NOT_SUPPORTED, and every counter ID is unknown
// (COUNTER_NOT_FOUND); what would create or decode counters is
// NOT_IMPLEMENTED. Arguments are checked first.
#include "rocprofiler-sdk/counters.h"

#include "rocprofiler-sdk/counter_config.h"
#include "rocprofiler-sdk/deprecated/counters.h"
#include "rocprofiler-sdk/experimental/counters.h"
#include "sdk/hardware_services.h"
#include "sdk/kinds.h"

extern "C" {

ROCPROFILER_API rocprofiler_status_t rocprofiler_query_record_counter_id(
    rocprofiler_counter_instance_id_t, rocprofiler_counter_id_t* counter_id) {
  if (counter_id == nullptr) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
  return ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED;
}

ROCPROFILER_API rocprofiler_status_t
rocprofiler_query_record_dimension_position(rocprofiler_counter_instance_id_t,
                                            rocprofiler_counter_dimension_id_t,
                                            size_t* pos) {
  if (pos == nullptr) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
  return ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED;
}

ROCPROFILER_API rocprofiler_status_t rocprofiler_query_counter_info(
    rocprofiler_counter_id_t, rocprofiler_counter_info_version_id_t version,
    void* info) {
  using rocprofiler_sdk::RawValue;
  if (info == nullptr) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
  if (RawValue(version) != ROCPROFILER_COUNTER_INFO_VERSION_0 &&
      RawValue(version) != ROCPROFILER_COUNTER_INFO_VERSION_1) {
    return ROCPROFILER_STATUS_ERROR_INCOMPATIBLE_ABI;
  }
  return ROCPROFILER_STATUS_ERROR_COUNTER_NOT_FOUND;
}

ROCPROFILER_API rocprofiler_status_t
rocprofiler_iterate_agent_supported_counters(
    rocprofiler_agent_id_t agent_id, rocprofiler_available_counters_cb_t cb,
    void*) {
  if (cb == nullptr) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
  const rocprofiler_status_t agent =
      rocprofiler_sdk::CheckServiceAgent(agent_id);
  if (agent != ROCPROFILER_STATUS_SUCCESS) return agent;
  return ROCPROFILER_STATUS_ERROR_AGENT_ARCH_NOT_SUPPORTED;
}

ROCPROFILER_API rocprofiler_status_t rocprofiler_create_counter(
    const char* name, size_t, const char* expr, size_t, const char*, size_t,
    rocprofiler_agent_id_t agent, rocprofiler_counter_id_t* counter_id) {
  if (name == nullptr || expr == nullptr || counter_id == nullptr) {
    return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
  }
  const rocprofiler_status_t found = rocprofiler_sdk::CheckServiceAgent(agent);
  if (found != ROCPROFILER_STATUS_SUCCESS) return found;
  return ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED;
}

ROCPROFILER_API rocprofiler_status_t rocprofiler_iterate_counter_dimensions(
    rocprofiler_counter_id_t, rocprofiler_available_dimensions_cb_t info_cb,
    void*) {
  if (info_cb == nullptr) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
  return ROCPROFILER_STATUS_ERROR_COUNTER_NOT_FOUND;
}

ROCPROFILER_API rocprofiler_status_t rocprofiler_query_counter_instance_count(
    rocprofiler_agent_id_t, rocprofiler_counter_id_t, size_t* instance_count) {
  if (instance_count == nullptr) {
    return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
  }
  return ROCPROFILER_STATUS_ERROR_COUNTER_NOT_FOUND;
}

ROCPROFILER_API rocprofiler_status_t rocprofiler_create_counter_config(
    rocprofiler_agent_id_t agent_id, rocprofiler_counter_id_t* counters_list,
    size_t counters_count, rocprofiler_counter_config_id_t* config_id) {
  if (config_id == nullptr ||
      (counters_list == nullptr && counters_count > 0)) {
    return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
  }
  const rocprofiler_status_t agent =
      rocprofiler_sdk::CheckServiceAgent(agent_id);
  if (agent != ROCPROFILER_STATUS_SUCCESS) return agent;
  if (counters_count > 0) return ROCPROFILER_STATUS_ERROR_COUNTER_NOT_FOUND;
  return ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED;
}

ROCPROFILER_API rocprofiler_status_t
rocprofiler_destroy_counter_config(rocprofiler_counter_config_id_t) {
  return ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED;
}

ROCPROFILER_API rocprofiler_status_t rocprofiler_load_counter_definition(
    const char* yaml, size_t size, rocprofiler_counter_flag_t) {
  if (yaml == nullptr && size != 0) {
    return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
  }
  return ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED;
}

}  // extern "C"
