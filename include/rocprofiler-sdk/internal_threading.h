/* The threads on which buffers are delivered: a buffer assigned no callback
 * thread is delivered on a library thread of its own; the buffers assigned
 * one callback thread are all delivered on that thread, one batch at a time.
 * C99 and C++. */
#ifndef ROCPROFILER_SDK_INTERNAL_THREADING_H_
#define ROCPROFILER_SDK_INTERNAL_THREADING_H_

#include "rocprofiler-sdk/defines.h"
#include "rocprofiler-sdk/fwd.h"

ROCPROFILER_EXTERN_C_INIT

typedef struct rocprofiler_callback_thread_t {
  uint64_t handle;
} rocprofiler_callback_thread_t;

typedef void (*rocprofiler_internal_thread_library_cb_t)(
    rocprofiler_runtime_library_t library, void* data);

/* Registers callbacks run on the creating thread just before and just after
 * the library starts a thread of its own (ROCPROFILER_LIBRARY: a buffer's
 * delivery thread at rocprofiler_create_buffer, a callback thread, a flush
 * helper), for the libraries in `libs` (0: all). Either callback may be
 * NULL. Registrations naming only runtime libraries are kept and never
 * called (this library starts no thread on a runtime's behalf). Always
 * ROCPROFILER_STATUS_SUCCESS. */
rocprofiler_status_t rocprofiler_at_internal_thread_create(
    rocprofiler_internal_thread_library_cb_t precreate,
    rocprofiler_internal_thread_library_cb_t postcreate, int libs,
    void* data) ROCPROFILER_API;

/* Creates a callback thread (only inside a tool's initialize:
 * ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED otherwise; at most 16:
 * ROCPROFILER_STATUS_ERROR_OUT_OF_RESOURCES). NULL:
 * ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT. */
rocprofiler_status_t rocprofiler_create_callback_thread(
    rocprofiler_callback_thread_t* cb_thread_id) ROCPROFILER_API;

/* Delivers `buffer_id` on `cb_thread_id` from now on. Unknown buffer:
 * ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND; unknown thread:
 * ROCPROFILER_STATUS_ERROR_THREAD_NOT_FOUND. */
rocprofiler_status_t rocprofiler_assign_callback_thread(
    rocprofiler_buffer_id_t buffer_id,
    rocprofiler_callback_thread_t cb_thread_id) ROCPROFILER_API;

ROCPROFILER_EXTERN_C_FINI

#endif /* ROCPROFILER_SDK_INTERNAL_THREADING_H_ */
