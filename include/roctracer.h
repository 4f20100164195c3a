/* ROC Tracer: a runtime-independent API for tracing runtime API calls
 * (callbacks at ENTER and EXIT) and asynchronous activity (records delivered
 * through memory pools).
 *
 * Source and binary compatible with ROCm's roctracer API 4.1: same names,
 * values, signatures and symbol versions. The documentation here describes
 * this implementation; where 4.1 left a case unspecified, the behaviour chosen
 * is stated next to the function. */

#ifndef ROCTRACER_H_
#define ROCTRACER_H_

/* No calling-convention macro named ROCTRACER_CALL is defined here: clients
 * (the specification's own MatrixTranspose sample among them) commonly define
 * ROCTRACER_CALL(call) as their status-checking macro after including this
 * header, and a definition here would clash with it. */

#if !defined(ROCTRACER_EXPORT_DECORATOR)
#if defined(__GNUC__)
#define ROCTRACER_EXPORT_DECORATOR __attribute__((visibility("default")))
#else
#define ROCTRACER_EXPORT_DECORATOR
#endif
#endif

#if !defined(ROCTRACER_IMPORT_DECORATOR)
#define ROCTRACER_IMPORT_DECORATOR
#endif

#define ROCTRACER_EXPORT ROCTRACER_EXPORT_DECORATOR
#define ROCTRACER_IMPORT ROCTRACER_IMPORT_DECORATOR

/* The library is built with -fvisibility=hidden and ROCTRACER_EXPORTS defined,
 * so exactly the functions marked ROCTRACER_API are exported. */
#if !defined(ROCTRACER)
#if defined(ROCTRACER_EXPORTS)
#define ROCTRACER_API ROCTRACER_EXPORT
#else
#define ROCTRACER_API ROCTRACER_IMPORT
#endif
#endif

#include <stddef.h>
#include <stdint.h>
#ifndef __cplusplus
#include <stdbool.h>
#endif

#include "ext/prof_protocol.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Symbol version tags. Every exported function carries the ELF symbol version
 * "ROCTRACER_4.1" (see runtime/capi/roctracer.map), so dlvsym(handle, name,
 * "ROCTRACER_4.1") finds it. The macro itself expands to nothing. */
#define ROCTRACER_VERSION_4_1

/* Interface version. A client is compatible with the installed library when
 * the major versions match and the client's minor is <= the library's. */
#define ROCTRACER_VERSION_MAJOR 4
#define ROCTRACER_VERSION_MINOR 1

/* Installed library version; usable at any time, even before any runtime is
 * initialised. */
ROCTRACER_API uint32_t roctracer_version_major(void) ROCTRACER_VERSION_4_1;
ROCTRACER_API uint32_t roctracer_version_minor(void) ROCTRACER_VERSION_4_1;

/* Status codes. 4.1 made errors negative; the positive pre-4.1 names remain
 * as deprecated aliases. */
typedef enum {
  ROCTRACER_STATUS_SUCCESS = 0,
  ROCTRACER_STATUS_ERROR = -1,
  ROCTRACER_STATUS_ERROR_INVALID_DOMAIN_ID = -2,
  ROCTRACER_STATUS_ERROR_INVALID_ARGUMENT = -3,
  ROCTRACER_STATUS_ERROR_DEFAULT_POOL_UNDEFINED = -4,
  ROCTRACER_STATUS_ERROR_DEFAULT_POOL_ALREADY_DEFINED = -5,
  ROCTRACER_STATUS_ERROR_MEMORY_ALLOCATION = -6,
  ROCTRACER_STATUS_ERROR_MISMATCHED_EXTERNAL_CORRELATION_ID = -7,
  ROCTRACER_STATUS_ERROR_NOT_IMPLEMENTED = -8,
  /* Deprecated. */
  ROCTRACER_STATUS_UNINIT = 2,
  ROCTRACER_STATUS_BREAK = 3,
  ROCTRACER_STATUS_BAD_DOMAIN = ROCTRACER_STATUS_ERROR_INVALID_DOMAIN_ID,
  ROCTRACER_STATUS_BAD_PARAMETER = ROCTRACER_STATUS_ERROR_INVALID_ARGUMENT,
  ROCTRACER_STATUS_HIP_API_ERR = 6,
  ROCTRACER_STATUS_HIP_OPS_ERR = 7,
  ROCTRACER_STATUS_HCC_OPS_ERR = ROCTRACER_STATUS_HIP_OPS_ERR,
  ROCTRACER_STATUS_HSA_ERR = 7,
  ROCTRACER_STATUS_ROCTX_ERR = 8
} roctracer_status_t;

/* Message describing the last failed call made by the calling thread ("" if
 * none). The last error is not cleared by successful calls. The string is
 * owned by the library (thread-local storage), stays valid until the next
 * failing call on the same thread, and must not be freed. */
ROCTRACER_API const char* roctracer_error_string(void) ROCTRACER_VERSION_4_1;

typedef activity_domain_t roctracer_domain_t;

/* Name of operation `op` of `domain` (`kind` is ignored). Returns NULL and
 * records an error when the domain is invalid or has no such operation. The
 * string is owned by the library. HSA_API and HIP_API names are available
 * once the generated tables are linked into the library. */
ROCTRACER_API const char* roctracer_op_string(
    uint32_t domain, uint32_t op, uint32_t kind) ROCTRACER_VERSION_4_1;

/* Operation code of the operation named `str` in `domain`; `*kind` (if kind is
 * not NULL) is set to 0.
 * Returns ROCTRACER_STATUS_ERROR_INVALID_DOMAIN_ID for an invalid domain or one
 * without named operations, ROCTRACER_STATUS_ERROR_INVALID_ARGUMENT when `str`
 * or `op` is NULL or the name is unknown. */
ROCTRACER_API roctracer_status_t
roctracer_op_code(uint32_t domain, const char* str, uint32_t* op,
                  uint32_t* kind) ROCTRACER_VERSION_4_1;

/* Domain properties. No domain of this implementation needs properties: any
 * valid domain returns SUCCESS (the pointer is not used), an invalid one
 * ROCTRACER_STATUS_ERROR_INVALID_DOMAIN_ID. */
ROCTRACER_API roctracer_status_t roctracer_set_properties(
    roctracer_domain_t domain, void* properties) ROCTRACER_VERSION_4_1;

/* ------------------------------------------------------------------------ */
/* Callback API                                                              */

typedef activity_rtapi_callback_t roctracer_rtapi_callback_t;

/* Enable `callback` (with `arg`) for one operation, every operation of a
 * domain, or every operation of every domain. A later enable replaces the
 * callback of the operations it covers.
 * Status: SUCCESS; ERROR_INVALID_DOMAIN_ID for a domain outside
 * activity_domain_t or one with no operations known to this library (e.g.
 * KFD_API built against a ROCm without libhsakmt's header); ERROR_INVALID_ARGUMENT when `op` is out of range for the domain or
 * `callback` is NULL. The all-domain form skips domains with no operations. */
ROCTRACER_API roctracer_status_t roctracer_enable_op_callback(
    activity_domain_t domain, uint32_t op, activity_rtapi_callback_t callback,
    void* arg) ROCTRACER_VERSION_4_1;
ROCTRACER_API roctracer_status_t roctracer_enable_domain_callback(
    activity_domain_t domain, activity_rtapi_callback_t callback,
    void* arg) ROCTRACER_VERSION_4_1;
ROCTRACER_API roctracer_status_t roctracer_enable_callback(
    activity_rtapi_callback_t callback, void* arg) ROCTRACER_VERSION_4_1;

/* Disable callbacks; same statuses as the enable functions. Disabling an
 * operation that has no callback is not an error. */
ROCTRACER_API roctracer_status_t roctracer_disable_op_callback(
    activity_domain_t domain, uint32_t op) ROCTRACER_VERSION_4_1;
ROCTRACER_API roctracer_status_t roctracer_disable_domain_callback(
    activity_domain_t domain) ROCTRACER_VERSION_4_1;
ROCTRACER_API roctracer_status_t roctracer_disable_callback(void)
    ROCTRACER_VERSION_4_1;

/* ------------------------------------------------------------------------ */
/* Activity API                                                              */

typedef activity_record_t roctracer_record_t;

/* Step from `record` to the following record of the same buffer
 * (`*next = record + 1`: records are contiguous and fixed-size).
 * ERROR_INVALID_ARGUMENT when either pointer is NULL. */
ROCTRACER_API roctracer_status_t
roctracer_next_record(const activity_record_t* record,
                      const activity_record_t** next) ROCTRACER_VERSION_4_1;

/* Pool memory allocator. `*ptr == NULL`: allocate `size` bytes into `*ptr`.
 * `*ptr != NULL` and `size != 0`: reallocate. `*ptr != NULL` and `size == 0`:
 * free. When NULL in the properties, malloc/realloc/free are used. */
typedef void (*roctracer_allocator_t)(char** ptr, size_t size, void* arg);

/* Receives the completed records [begin, end) of a pool buffer. Runs on a
 * thread owned by the tracer, never inside a traced call. */
typedef void (*roctracer_buffer_callback_t)(const char* begin, const char* end,
                                            void* arg);

typedef struct {
  uint32_t mode;                   /* unused */
  size_t buffer_size;              /* bytes per buffer, >= 192 */
  roctracer_allocator_t alloc_fun; /* NULL: malloc/realloc/free */
  void* alloc_arg;
  /* NULL: accepted (as ROCm's roctracer does; Kineto opens its default pool
   * so); the pool's records are then counted as dropped
   * (roctracer_get_dropped_records_expl), never delivered. */
  roctracer_buffer_callback_t buffer_callback_fun;
  void* buffer_callback_arg;
} roctracer_properties_t;

typedef void roctracer_pool_t;

/* Create a pool. With `pool` non-NULL the new pool is returned there and the
 * default pool is unchanged; with `pool` NULL the new pool becomes the default
 * pool.
 * Status: SUCCESS (also with a NULL buffer callback, see above);
 * ERROR_INVALID_ARGUMENT when `properties` is NULL or has a buffer_size below
 * 192 bytes (a record, its EXT_API tag and 64 bytes of message) or above
 * 2 GiB, with or without a callback;
 * ERROR_DEFAULT_POOL_ALREADY_DEFINED when `pool` is NULL and a default pool
 * exists; ERROR_MEMORY_ALLOCATION when the buffers cannot be allocated. */
ROCTRACER_API roctracer_status_t
roctracer_open_pool_expl(const roctracer_properties_t* properties,
                         roctracer_pool_t** pool) ROCTRACER_VERSION_4_1;
ROCTRACER_API roctracer_status_t roctracer_open_pool(
    const roctracer_properties_t* properties) ROCTRACER_VERSION_4_1;

/* Close a pool (NULL: the default pool, which then becomes undefined). Every
 * activity writing to the pool is disabled first, the records written so far
 * are delivered (the call blocks until the buffer callback has seen them),
 * then the buffers are released.
 * Status: SUCCESS, also when `pool` is NULL and there is no default pool;
 * ERROR_INVALID_ARGUMENT when `pool` is not an open pool (e.g. closed
 * twice); ERROR when called from inside a buffer callback (it would wait for
 * itself). */
ROCTRACER_API roctracer_status_t
roctracer_close_pool_expl(roctracer_pool_t* pool) ROCTRACER_VERSION_4_1;
ROCTRACER_API roctracer_status_t roctracer_close_pool(void)
    ROCTRACER_VERSION_4_1;

/* Return the default pool before the call (NULL if none); when `pool` is an
 * open pool it becomes the default. A `pool` that is not open is ignored and
 * the error recorded (see roctracer_error_string). */
ROCTRACER_API roctracer_pool_t* roctracer_default_pool_expl(
    roctracer_pool_t* pool) ROCTRACER_VERSION_4_1;
ROCTRACER_API roctracer_pool_t* roctracer_default_pool(void)
    ROCTRACER_VERSION_4_1;

/* Enable activity records for one operation, a domain, or all domains, into
 * `pool` (NULL or the non-_expl form: the default pool).
 * Status: SUCCESS; ERROR_INVALID_DOMAIN_ID / ERROR_INVALID_ARGUMENT as for
 * callbacks; ERROR_DEFAULT_POOL_UNDEFINED when no pool is given and there is
 * no default pool; ERROR_INVALID_ARGUMENT when `pool` is not an open pool. */
ROCTRACER_API roctracer_status_t
roctracer_enable_op_activity_expl(activity_domain_t domain, uint32_t op,
                                  roctracer_pool_t* pool) ROCTRACER_VERSION_4_1;
ROCTRACER_API roctracer_status_t roctracer_enable_op_activity(
    activity_domain_t domain, uint32_t op) ROCTRACER_VERSION_4_1;
ROCTRACER_API roctracer_status_t roctracer_enable_domain_activity_expl(
    activity_domain_t domain, roctracer_pool_t* pool) ROCTRACER_VERSION_4_1;
ROCTRACER_API roctracer_status_t roctracer_enable_domain_activity(
    activity_domain_t domain) ROCTRACER_VERSION_4_1;
ROCTRACER_API roctracer_status_t
roctracer_enable_activity_expl(roctracer_pool_t* pool) ROCTRACER_VERSION_4_1;
ROCTRACER_API roctracer_status_t roctracer_enable_activity(void)
    ROCTRACER_VERSION_4_1;

/* Disable activity records; statuses as for disabling callbacks. */
ROCTRACER_API roctracer_status_t roctracer_disable_op_activity(
    activity_domain_t domain, uint32_t op) ROCTRACER_VERSION_4_1;
ROCTRACER_API roctracer_status_t roctracer_disable_domain_activity(
    activity_domain_t domain) ROCTRACER_VERSION_4_1;
ROCTRACER_API roctracer_status_t roctracer_disable_activity(void)
    ROCTRACER_VERSION_4_1;

/* Deliver every record completed before the call to the pool's buffer
 * callback and wait until it has returned (blocking, nothing left behind).
 * `pool` NULL means the default pool; no default pool is not an error.
 * ERROR_INVALID_ARGUMENT when `pool` is not an open pool; ERROR when called
 * from inside a buffer callback. */
ROCTRACER_API roctracer_status_t
roctracer_flush_activity_expl(roctracer_pool_t* pool) ROCTRACER_VERSION_4_1;
ROCTRACER_API roctracer_status_t roctracer_flush_activity(void)
    ROCTRACER_VERSION_4_1;

/* Current time in nanoseconds of CLOCK_BOOTTIME: the clock every record's
 * begin_ns/end_ns uses. BOOTTIME rather than MONOTONIC because it is what
 * rocprofiler-sdk and the ROCm runtimes use for host timestamps, so traces from
 * these tools line up, and because it keeps counting across suspend. Read
 * through the TSC when the kernel's clocksource is the TSC: within tens of ns
 * of clock_gettime and not going backwards while the kernel's rate against
 * the TSC holds (docs/roctracer-api.md lists the exceptions); ROCTRACER_CLOCK=boottime
 * in the environment makes it a clock_gettime call. Works at any time, before
 * any runtime is initialised.
 * ERROR_INVALID_ARGUMENT when `timestamp` is NULL. */
ROCTRACER_API roctracer_status_t
roctracer_get_timestamp(roctracer_timestamp_t* timestamp) ROCTRACER_VERSION_4_1;

/* Library set-up calls of roctracer 4.0, declared by ROCm 5.2.3's header and
 * exported under ROCTRACER_4.0. Tracing is ready as soon as the library is
 * loaded: roctracer_load returns true and changes nothing, roctracer_unload
 * changes nothing (callbacks and activity stay as they are),
 * roctracer_flush_buf is roctracer_flush_activity (the default pool). */
ROCTRACER_API bool roctracer_load(void);
ROCTRACER_API void roctracer_unload(void);
ROCTRACER_API void roctracer_flush_buf(void);

#ifdef __cplusplus
}
#endif

#endif /* ROCTRACER_H_ */
