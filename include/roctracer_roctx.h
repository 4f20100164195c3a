/* The ACTIVITY_DOMAIN_ROCTX domain as a tracer sees it: operation IDs and the
 * data passed to callbacks; and the calls with which a consumer registers
 * with libroctx64 itself, without a tracer (ROCm 5.2.3's per-operation
 * callbacks and range stacks, ROCm 5.3+'s tracer hook). */

#ifndef ROCTRACER_ROCTX_H_
#define ROCTRACER_ROCTX_H_

#ifndef __cplusplus
#include <stdbool.h>
#endif

#include "ext/prof_protocol.h"
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

#ifdef __cplusplus
#include "roctracer_cb_table.h"
namespace roctx {
/* ROCm 5.2.3's name for a table of rocTX callbacks, one per operation. */
typedef roctracer::CbTable<ROCTX_API_ID_NUMBER> cb_table_t;
}  // namespace roctx

extern "C" {
#endif

/* Consumers registered with libroctx64 itself are called on the annotating
 * thread, after the tracer's callbacks, as callback(ACTIVITY_DOMAIN_ROCTX,
 * op, &data[, arg]) with the data above (`message` valid during the call
 * only). A rocTX call made inside such a callback reaches the tracer but not
 * these consumers again. A pop with no open range (which returns -1) is
 * reported like any pop. */

/* ROCm 5.2.3: `callback` (an activity_rtapi_callback_t; NULL unregisters)
 * and `arg` for operation `op`, replacing any earlier one. False when `op`
 * is not a roctx_api_id_t. */
ROCTX_API bool RegisterApiCallback(uint32_t op, void* callback, void* arg);
/* ROCm 5.2.3: unregisters operation `op`'s callback. False when `op` is not
 * a roctx_api_id_t. */
ROCTX_API bool RemoveApiCallback(uint32_t op);

/* One open push/pop range: its message ("" for a NULL one) and the kernel ID
 * of its thread. */
typedef struct {
  const char* message;
  uint32_t tid;
} roctx_range_data_t;
typedef void (*roctx_range_iterate_cb_t)(const roctx_range_data_t* data,
                                         void* arg);
/* ROCm 5.2.3: calls `callback` once per open push/pop range of every live
 * thread, thread by thread, innermost range first (`data` valid during the
 * call only). Ranges are recorded from the first RegisterApiCallback on;
 * ranges opened before it are not reported. Nothing happens for a NULL
 * callback. */
ROCTX_API void RangeStackIterate(roctx_range_iterate_cb_t callback, void* arg);

/* ROCm 5.3 and later (exported as ROCTX_4.1, declared by no ROCm header):
 * the one function told about every annotation, as ROCm's libroctracer64
 * registers itself; NULL unregisters. Its return value is ignored. */
ROCTX_API void roctxRegisterTracerCallback(int (*function)(
    activity_domain_t domain, uint32_t operation_id, void* data));

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* ROCTRACER_ROCTX_H_ */
