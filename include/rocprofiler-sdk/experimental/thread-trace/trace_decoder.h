/* The thread-trace decoder: turns a shader engine's raw trace into the
 * records of trace_decoder_types.h. rocprofiler-sdk loads AMD's decoder
 * library for this; it is not part of this project, so creating a decoder
 * returns ROCPROFILER_STATUS_ERROR_NOT_AVAILABLE, as rocprofiler-sdk does
 * when that library is absent. C99 and C++. */
#ifndef ROCPROFILER_SDK_EXPERIMENTAL_THREAD_TRACE_DECODER_H_
#define ROCPROFILER_SDK_EXPERIMENTAL_THREAD_TRACE_DECODER_H_

#include <stdint.h>

#include "rocprofiler-sdk/defines.h"
#include "rocprofiler-sdk/experimental/thread-trace/trace_decoder_types.h"
#include "rocprofiler-sdk/fwd.h"

ROCPROFILER_EXTERN_C_INIT

typedef struct rocprofiler_thread_trace_decoder_handle_t {
  uint64_t handle;
} rocprofiler_thread_trace_decoder_handle_t;

/* Loads the decoder library from the directory `path`. NULL handle or path:
 * ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT; otherwise
 * ROCPROFILER_STATUS_ERROR_NOT_AVAILABLE (no decoder library here). */
rocprofiler_status_t rocprofiler_thread_trace_decoder_create(
    rocprofiler_thread_trace_decoder_handle_t* handle,
    const char* path) ROCPROFILER_API ROCPROFILER_NONNULL(1, 2);

/* Does nothing for a handle no create gave. */
void rocprofiler_thread_trace_decoder_destroy(
    rocprofiler_thread_trace_decoder_handle_t handle) ROCPROFILER_API;

/* Tells the decoder where a code object is loaded. A handle no create gave
 * (every handle here): ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT. */
rocprofiler_status_t rocprofiler_thread_trace_decoder_codeobj_load(
    rocprofiler_thread_trace_decoder_handle_t handle, uint64_t load_id,
    uint64_t load_addr, uint64_t load_size, const void* data,
    uint64_t size) ROCPROFILER_API ROCPROFILER_NONNULL(5);

/* As above: ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT. */
rocprofiler_status_t rocprofiler_thread_trace_decoder_codeobj_unload(
    rocprofiler_thread_trace_decoder_handle_t handle,
    uint64_t load_id) ROCPROFILER_API;

typedef void (*rocprofiler_thread_trace_decoder_callback_t)(
    rocprofiler_thread_trace_decoder_record_type_t record_type_id,
    void* trace_events, uint64_t trace_size, void* userdata);

/* Decodes `size` bytes of trace. As above:
 * ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT. */
rocprofiler_status_t rocprofiler_trace_decode(
    rocprofiler_thread_trace_decoder_handle_t handle,
    rocprofiler_thread_trace_decoder_callback_t callback, void* data,
    uint64_t size, void* userdata) ROCPROFILER_API ROCPROFILER_NONNULL(2, 3);

/* A description of an INFO record's value; NULL for a handle no create
 * gave. */
const char* rocprofiler_thread_trace_decoder_info_string(
    rocprofiler_thread_trace_decoder_handle_t handle,
    rocprofiler_thread_trace_decoder_info_t info) ROCPROFILER_API;

ROCPROFILER_EXTERN_C_FINI

#endif /* ROCPROFILER_SDK_EXPERIMENTAL_THREAD_TRACE_DECODER_H_ */
