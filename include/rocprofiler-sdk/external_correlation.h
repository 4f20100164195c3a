/* External correlation IDs: a per-thread, per-context stack whose top is the
 * `external` field of every callback record on that thread. A value pushed
 * inside an ENTER callback is the one the matching EXIT reports.
 * C99 and C++. */
#ifndef ROCPROFILER_SDK_EXTERNAL_CORRELATION_H_
#define ROCPROFILER_SDK_EXTERNAL_CORRELATION_H_

#include "rocprofiler-sdk/defines.h"
#include "rocprofiler-sdk/fwd.h"

ROCPROFILER_EXTERN_C_INIT

/* The kinds whose calls can ask a tool for an external correlation ID. */
typedef enum rocprofiler_external_correlation_id_request_kind_t {
  ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_NONE = 0,
  ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_HSA_CORE_API,
  ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_HSA_AMD_EXT_API,
  ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_HSA_IMAGE_EXT_API,
  ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_HSA_FINALIZE_EXT_API,
  ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_HIP_RUNTIME_API,
  ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_HIP_COMPILER_API,
  ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_MARKER_CORE_API,
  ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_MARKER_CONTROL_API,
  ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_MARKER_NAME_API,
  ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_MEMORY_COPY,
  ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_KERNEL_DISPATCH,
  ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_SCRATCH_MEMORY,
  ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_RCCL_API,
  ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_OMPT,
  ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_MEMORY_ALLOCATION,
  ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_ROCDECODE_API,
  ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_ROCJPEG_API,
  ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_MARKER_CORE_RANGE_API,
  ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_LAST
} rocprofiler_external_correlation_id_request_kind_t;

/* `tid` must be the calling thread's ID (rocprofiler_get_thread_id):
 * another value is ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT. Unknown
 * context: ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND. More than 16 nested
 * pushes: ROCPROFILER_STATUS_ERROR_OUT_OF_RESOURCES. */
rocprofiler_status_t rocprofiler_push_external_correlation_id(
    rocprofiler_context_id_t context, rocprofiler_thread_id_t tid,
    rocprofiler_user_data_t external_correlation_id) ROCPROFILER_API;

/* Pops into *external_correlation_id (may be NULL). An empty stack is
 * ROCPROFILER_STATUS_ERROR and stores 0. */
rocprofiler_status_t rocprofiler_pop_external_correlation_id(
    rocprofiler_context_id_t context, rocprofiler_thread_id_t tid,
    rocprofiler_user_data_t* external_correlation_id) ROCPROFILER_API;

/* Asks the tool for an external correlation ID: called on the thread making
 * the call, before its ENTER callbacks, for each context that configured
 * the request service for `kind`, traces the operation and has an empty
 * external-ID stack on that thread. Returning 0 makes *external_corr_id_value
 * the external ID of that call's records in that context; anything else
 * leaves it 0. */
typedef int (*rocprofiler_external_correlation_id_request_cb_t)(
    rocprofiler_thread_id_t thread_id, rocprofiler_context_id_t context_id,
    rocprofiler_external_correlation_id_request_kind_t kind,
    rocprofiler_tracing_operation_t operation, uint64_t internal_corr_id_value,
    rocprofiler_user_data_t* external_corr_id_value, void* data);

/* Only inside a tool's initialize. `kinds` NULL with `kinds_count` 0: every
 * kind. */
rocprofiler_status_t
rocprofiler_configure_external_correlation_id_request_service(
    rocprofiler_context_id_t context_id,
    const rocprofiler_external_correlation_id_request_kind_t* kinds,
    size_t kinds_count,
    rocprofiler_external_correlation_id_request_cb_t callback,
    void* callback_args) ROCPROFILER_API;

/* "HSA_CORE_API", ...: the enumerator without its prefix; name and name_len
 * may each be NULL. NONE, LAST or a value outside the enum:
 * ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND. (The request service itself,
 * rocprofiler_configure_external_correlation_id_request_service, is not
 * implemented.) */
rocprofiler_status_t
rocprofiler_query_external_correlation_id_request_kind_name(
    rocprofiler_external_correlation_id_request_kind_t kind, const char** name,
    uint64_t* name_len) ROCPROFILER_API;

ROCPROFILER_EXTERN_C_FINI

#endif /* ROCPROFILER_SDK_EXTERNAL_CORRELATION_H_ */
