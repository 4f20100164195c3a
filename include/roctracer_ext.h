/* ROC Tracer extension API: global start/stop and external correlation IDs. */

#ifndef ROCTRACER_EXT_H_
#define ROCTRACER_EXT_H_

#include "roctracer.h"

/* Operations of ACTIVITY_DOMAIN_EXT_API. */
typedef enum {
  ACTIVITY_EXT_OP_MARK = 0,
  ACTIVITY_EXT_OP_EXTERN_ID = 1
} activity_ext_op_t;

typedef void (*roctracer_start_cb_t)(void);
typedef void (*roctracer_stop_cb_t)(void);
typedef struct {
  roctracer_start_cb_t start_cb;
  roctracer_stop_cb_t stop_cb;
} roctracer_ext_properties_t;

/* Extension (not in ROCm's roctracer; CUPTI and rocprofiler-sdk have it):
 * set this bit in roctracer_properties_t::mode to make a full pool drop new
 * records instead of making the writing thread wait for a free buffer. The
 * default (bit clear) loses nothing. Drops are counted per pool; see
 * roctracer_get_dropped_records_expl. */
#define ROCTRACER_POOL_MODE_DISCARD 0x80000000u

#ifdef __cplusplus
extern "C" {
#endif

/* Resume tracing after roctracer_stop(). Tracing starts enabled. */
ROCTRACER_API void roctracer_start(void) ROCTRACER_VERSION_4_1;

/* Suspend tracing: no callback is called and no activity record is written
 * until roctracer_start(); the enabled set is kept. */
ROCTRACER_API void roctracer_stop(void) ROCTRACER_VERSION_4_1;

/* Push an external correlation ID on the calling thread's stack. While the
 * stack is not empty, every activity record written for an API call of this
 * thread is immediately preceded, in the same pool, by an
 * ACTIVITY_DOMAIN_EXT_API / ACTIVITY_EXT_OP_EXTERN_ID record carrying the top
 * ID in `external_id` and the call's `correlation_id`. */
ROCTRACER_API roctracer_status_t
roctracer_activity_push_external_correlation_id(activity_correlation_id_t id)
    ROCTRACER_VERSION_4_1;

/* Pop the calling thread's top external ID into `*last_id` (if not NULL).
 * On an empty stack returns
 * ROCTRACER_STATUS_ERROR_MISMATCHED_EXTERNAL_CORRELATION_ID and sets
 * `*last_id` to 0. */
ROCTRACER_API roctracer_status_t roctracer_activity_pop_external_correlation_id(
    activity_correlation_id_t* last_id) ROCTRACER_VERSION_4_1;

/* Extension: the number of records `pool` (NULL: the default pool) dropped
 * because it was full in ROCTRACER_POOL_MODE_DISCARD (always 0 otherwise).
 * A record and the EXT_API record tagging it are dropped together and count
 * as two.
 * ROCTRACER_STATUS_ERROR_INVALID_ARGUMENT if `dropped` is NULL or `pool` is
 * not open; ROCTRACER_STATUS_ERROR_DEFAULT_POOL_UNDEFINED if `pool` is NULL
 * and there is no default pool. */
ROCTRACER_API roctracer_status_t roctracer_get_dropped_records_expl(
    roctracer_pool_t* pool, uint64_t* dropped) ROCTRACER_VERSION_4_1;

/* Extension: what the GPU half (HSA_OPS records of kernel dispatches,
 * barrier packets and async copies, traced when libroctracer64.so is loaded
 * as an HSA tool) reported and what it could not record. Counts since the
 * library was loaded, over every pool. */
typedef struct {
  uint64_t dispatches;       /* completions reported */
  uint64_t barriers;         /* application barrier packets reported */
  uint64_t copies;           /* copies reported */
  uint64_t untraced;         /* submitted untraced: no tracer signal free */
  uint64_t names_unresolved; /* dispatches of a kernel in no executable */
  uint64_t incomplete;       /* traced, never completed (queue error or
                                destroyed, runtime shut down, exit) */
  uint64_t failed_copies;    /* completed with an error value (no record) */
  uint64_t in_flight;        /* traced, not reported yet */
} roctracer_gpu_activity_stats_t;

/* ROCTRACER_STATUS_ERROR_INVALID_ARGUMENT if `stats` is NULL. */
ROCTRACER_API roctracer_status_t
roctracer_get_gpu_activity_stats_expl(roctracer_gpu_activity_stats_t* stats)
    ROCTRACER_VERSION_4_1;

#ifdef __cplusplus
}
#endif

#endif /* ROCTRACER_EXT_H_ */
