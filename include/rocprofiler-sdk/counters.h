/* Hardware counters: their descriptions and the counters an agent offers.
 * Declared with rocprofiler-sdk 1.0.0's types and layouts; this library has
 * no counter definitions (reading counters needs a GPU and its vendor
 * profiling library), so no agent offers a counter (sdk/README.md, "Services
 * that need hardware"). C99 and C++. */
#ifndef ROCPROFILER_SDK_COUNTERS_H_
#define ROCPROFILER_SDK_COUNTERS_H_

#include <stddef.h>
#include <stdint.h>

#include "rocprofiler-sdk/agent.h"
#include "rocprofiler-sdk/defines.h"
#include "rocprofiler-sdk/deprecated/counters.h"
#include "rocprofiler-sdk/fwd.h"

ROCPROFILER_EXTERN_C_INIT

/* What rocprofiler_query_counter_info writes for
 * ROCPROFILER_COUNTER_INFO_VERSION_0. */
typedef struct ROCPROFILER_SDK_EXPERIMENTAL rocprofiler_counter_info_v0_t {
  rocprofiler_counter_id_t id;
  const char* name;
  const char* description;
  const char* block;      /* hardware block (a counter read directly) */
  const char* expression; /* how a derived counter is computed */
  uint8_t is_constant : 1;
  uint8_t is_derived : 1;
} rocprofiler_counter_info_v0_t;

/* VERSION_1: version 0 and the counter's dimensions and instances. */
typedef struct ROCPROFILER_SDK_EXPERIMENTAL rocprofiler_counter_info_v1_t {
  rocprofiler_counter_id_t id;
  const char* name;
  const char* description;
  const char* block;
  const char* expression;
  uint8_t is_constant : 1;
  uint8_t is_derived : 1;
  uint64_t dimensions_count;
  const rocprofiler_counter_record_dimension_info_t* dimensions;
  uint64_t instance_ids_count;
  const rocprofiler_counter_instance_id_t* instance_ids;
} rocprofiler_counter_info_v1_t;

/* The counter a record's instance ID belongs to. NULL counter_id:
 * ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT; otherwise
 * ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED (no record carries one here). */
ROCPROFILER_SDK_EXPERIMENTAL rocprofiler_status_t
rocprofiler_query_record_counter_id(rocprofiler_counter_instance_id_t id,
                                    rocprofiler_counter_id_t* counter_id)
    ROCPROFILER_API ROCPROFILER_NONNULL(2);

/* The position of an instance ID along dimension `dim`. NULL pos:
 * ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT; otherwise
 * ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED. */
ROCPROFILER_SDK_EXPERIMENTAL rocprofiler_status_t
rocprofiler_query_record_dimension_position(
    rocprofiler_counter_instance_id_t id,
    rocprofiler_counter_dimension_id_t dim, size_t* pos) ROCPROFILER_API
    ROCPROFILER_NONNULL(3);

/* Fills a rocprofiler_counter_info_v0_t or _v1_t (by `version`). NULL info:
 * ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT; another version:
 * ROCPROFILER_STATUS_ERROR_INCOMPATIBLE_ABI; any counter:
 * ROCPROFILER_STATUS_ERROR_COUNTER_NOT_FOUND (there are none). */
ROCPROFILER_SDK_EXPERIMENTAL rocprofiler_status_t
rocprofiler_query_counter_info(rocprofiler_counter_id_t counter_id,
                               rocprofiler_counter_info_version_id_t version,
                               void* info) ROCPROFILER_API
    ROCPROFILER_NONNULL(3);

/* Called with the agent's counters; the array belongs to the library. */
ROCPROFILER_SDK_EXPERIMENTAL typedef rocprofiler_status_t (
    *rocprofiler_available_counters_cb_t)(rocprofiler_agent_id_t agent_id,
                                          rocprofiler_counter_id_t* counters,
                                          size_t num_counters, void* user_data);

/* NULL cb: ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT; an agent
 * rocprofiler_query_available_agents does not report:
 * ROCPROFILER_STATUS_ERROR_AGENT_NOT_FOUND; any other:
 * ROCPROFILER_STATUS_ERROR_AGENT_ARCH_NOT_SUPPORTED, rocprofiler-sdk's status
 * for an agent whose architecture has no counters (cb is not called). */
ROCPROFILER_SDK_EXPERIMENTAL rocprofiler_status_t
rocprofiler_iterate_agent_supported_counters(
    rocprofiler_agent_id_t agent_id, rocprofiler_available_counters_cb_t cb,
    void* user_data) ROCPROFILER_API ROCPROFILER_NONNULL(2);

/* Defines a derived counter from an expression over the agent's counters.
 * NULL name, expr or counter_id: ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
 * unknown agent: ROCPROFILER_STATUS_ERROR_AGENT_NOT_FOUND; otherwise
 * ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED. */
ROCPROFILER_SDK_EXPERIMENTAL rocprofiler_status_t
rocprofiler_create_counter(const char* name, size_t name_len, const char* expr,
                           size_t expr_len, const char* description,
                           size_t description_len, rocprofiler_agent_id_t agent,
                           rocprofiler_counter_id_t* counter_id) ROCPROFILER_API
    ROCPROFILER_NONNULL(1, 3, 8);

ROCPROFILER_EXTERN_C_FINI

#endif /* ROCPROFILER_SDK_COUNTERS_H_ */
