/* The ACTIVITY_DOMAIN_ROCTX domain as a tracer sees it: operation IDs and the
 * data passed to callbacks. */

#ifndef ROCTRACER_ROCTX_H_
#define ROCTRACER_ROCTX_H_

#include "roctx.h"

enum roctx_api_id_t {
  ROCTX_API_ID_roctxMarkA = 0,
  ROCTX_API_ID_roctxRangePushA = 1,
  ROCTX_API_ID_roctxRangePop = 2,
  ROCTX_API_ID_roctxRangeStartA = 3,
  ROCTX_API_ID_roctxRangeStop = 4,
  ROCTX_API_ID_NUMBER
};

/* Callback data of the ROCTX domain. `message` is the caller's string (NULL
 * for pops and stops) and valid during the callback only; `id` is the range
 * ID for start/stop. */
typedef struct roctx_api_data_s {
  union {
    struct {
      const char* message;
      roctx_range_id_t id;
    };
    struct {
      const char* message;
    } roctxMarkA;
    struct {
      const char* message;
    } roctxRangePushA;
    struct {
      const char* message;
    } roctxRangePop;
    struct {
      const char* message;
      roctx_range_id_t id;
    } roctxRangeStartA;
    struct {
      const char* message;
      roctx_range_id_t id;
    } roctxRangeStop;
  } args;
} roctx_api_data_t;

#endif /* ROCTRACER_ROCTX_H_ */
