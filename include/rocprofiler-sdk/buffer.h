/* Buffers: where the buffer-tracing service writes records, delivered to
 * the tool in batches on a callback thread (internal_threading.h). C99 and
 * C++. */
#ifndef ROCPROFILER_SDK_BUFFER_H_
#define ROCPROFILER_SDK_BUFFER_H_

#include <stddef.h>
#include <stdint.h>

#include "rocprofiler-sdk/defines.h"
#include "rocprofiler-sdk/fwd.h"

ROCPROFILER_EXTERN_C_INIT

/* A batch of records, in the order they were written. `drop_count` is the
 * number of records a DISCARD buffer dropped since the previous call (0 for
 * LOSSLESS). The headers and the records are valid during the call. */
typedef void (*rocprofiler_buffer_tracing_cb_t)(
    rocprofiler_context_id_t context, rocprofiler_buffer_id_t buffer_id,
    rocprofiler_record_header_t** headers, size_t num_headers, void* data,
    uint64_t drop_count);

/* Creates a buffer of `size` bytes in `context` (only inside a tool's
 * initialize: ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED otherwise).
 * Records are delivered once `watermark` bytes are written (0: each record
 * as soon as it is written), when the buffer is flushed and when the tool
 * is finalized. Unknown context: ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND;
 * size 0, watermark > size, a policy other than DISCARD or LOSSLESS, NULL
 * callback or buffer_id: ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT. */
rocprofiler_status_t rocprofiler_create_buffer(
    rocprofiler_context_id_t context, size_t size, size_t watermark,
    rocprofiler_buffer_policy_t policy,
    rocprofiler_buffer_tracing_cb_t callback, void* callback_data,
    rocprofiler_buffer_id_t* buffer_id) ROCPROFILER_API;

/* Delivers every record written so far and returns after the callback
 * returned. From inside a buffer callback it cannot wait (the delivery would
 * wait for that callback): it starts the flush and returns SUCCESS at once.
 * Unknown or destroyed buffer: ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND. */
rocprofiler_status_t rocprofiler_flush_buffer(rocprofiler_buffer_id_t buffer_id)
    ROCPROFILER_API;

/* Flushes, then frees the buffer: its services stop writing to it. Unknown
 * or destroyed buffer: ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND; from
 * inside a callback on a callback thread (internal_threading.h), which the
 * delivery would wait for: ROCPROFILER_STATUS_ERROR_BUFFER_BUSY. */
rocprofiler_status_t rocprofiler_destroy_buffer(
    rocprofiler_buffer_id_t buffer_id) ROCPROFILER_API;

/* The `hash` a record header with this category and kind holds (the two
 * 32-bit fields read as one 64-bit value): tools switch on it to dispatch
 * records. */
uint64_t rocprofiler_record_header_compute_hash(uint32_t category,
                                                uint32_t kind) ROCPROFILER_API;

ROCPROFILER_EXTERN_C_FINI

#endif /* ROCPROFILER_SDK_BUFFER_H_ */
