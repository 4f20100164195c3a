/* Profiling protocol shared by every tracing domain: domain IDs, the callback
 * signature, API phases and the activity record layout.
 *
 * Names, values and the record layout match ROCm's roctracer 4.1 so that tools
 * built against it keep working. Plain C99 (anonymous unions are accepted by
 * GCC and Clang as an extension in C99 mode). */

#ifndef EXT_PROF_PROTOCOL_H_
#define EXT_PROF_PROTOCOL_H_

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

/* Traced domains.
 *
 * These are roctracer 4.1's values. The older specification text lists
 * HIP_API = 2 and HIP_OPS = 3; roctracer 4.1 swapped them (HIP_OPS = 2,
 * HIP_API = 3) and binaries built against 4.1 carry the new numbers, so we
 * follow 4.1 for binary compatibility. Code that uses the names is unaffected.
 */
typedef enum {
  ACTIVITY_DOMAIN_HSA_API = 0, /* HSA API calls */
  ACTIVITY_DOMAIN_HSA_OPS = 1, /* HSA asynchronous operations */
  ACTIVITY_DOMAIN_HIP_OPS = 2, /* HIP asynchronous operations */
  ACTIVITY_DOMAIN_HCC_OPS = ACTIVITY_DOMAIN_HIP_OPS, /* legacy alias */
  ACTIVITY_DOMAIN_HIP_VDI = ACTIVITY_DOMAIN_HIP_OPS, /* legacy alias */
  ACTIVITY_DOMAIN_HIP_API = 3,                       /* HIP API calls */
  ACTIVITY_DOMAIN_KFD_API = 4, /* KFD (thunk, libhsakmt) API calls */
  ACTIVITY_DOMAIN_EXT_API = 5, /* external correlation IDs */
  ACTIVITY_DOMAIN_ROCTX = 6,   /* rocTX annotations */
  ACTIVITY_DOMAIN_HSA_EVT = 7, /* HSA runtime events */
  ACTIVITY_DOMAIN_NUMBER
} activity_domain_t;

/* Called at ENTER and EXIT of a traced operation. `data` points to the
 * domain's callback data (hsa_api_data_t, hip_api_data_t, roctx_api_data_t)
 * and is valid only for the duration of the call. */
typedef void (*activity_rtapi_callback_t)(uint32_t domain, uint32_t cid,
                                          const void* data, void* arg);
typedef uint32_t activity_kind_t;
typedef uint32_t activity_op_t;

typedef enum {
  ACTIVITY_API_PHASE_ENTER = 0,
  ACTIVITY_API_PHASE_EXIT = 1
} activity_api_phase_t;

typedef uint64_t activity_correlation_id_t;

/* Nanoseconds in the clock of roctracer_get_timestamp(). */
typedef uint64_t roctracer_timestamp_t;

/* One activity record: 64 bytes on LP64, records are contiguous in a pool
 * buffer. Variable-size data (a rocTX message, a kernel name) is not inline:
 * the pointer member refers to storage delivered with the same buffer and
 * valid while the buffer callback runs. */
typedef struct activity_record_s {
  uint32_t domain;      /* activity_domain_t */
  activity_kind_t kind; /* domain specific kind */
  activity_op_t op;     /* operation ID within the domain */
  union {
    struct {
      activity_correlation_id_t correlation_id;
      roctracer_timestamp_t begin_ns;
      roctracer_timestamp_t end_ns;
    };
    struct {
      uint32_t se;
      uint64_t cycle;
      uint64_t pc;
    } pc_sample;
  };
  union {
    struct { /* asynchronous operations */
      int device_id;
      uint64_t queue_id;
    };
    struct { /* API calls and annotations */
      uint32_t process_id;
      uint32_t thread_id;
    };
    struct { /* ACTIVITY_DOMAIN_EXT_API */
      activity_correlation_id_t external_id;
    };
  };
  union {
    size_t bytes;             /* copies */
    const char* kernel_name;  /* dispatches */
    const char* mark_message; /* rocTX */
    /* API calls (extension): the status the call returned, 0 for success
     * and for an API whose result is not its domain's status type. */
    int64_t api_status;
  };
} activity_record_t;

/* Kept for source compatibility with 4.1; no function of this library takes
 * them. */
typedef void (*activity_sync_callback_t)(uint32_t cid,
                                         activity_record_t* record,
                                         const void* data, void* arg);
typedef void (*activity_async_callback_t)(uint32_t op, void* record, void* arg);
/* roctracer 5.2-5.3's type of a correlation-ID hook; likewise unused. */
typedef void (*activity_id_callback_t)(activity_correlation_id_t id);

#endif /* EXT_PROF_PROTOCOL_H_ */
