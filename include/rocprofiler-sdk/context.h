/* Contexts: a handle grouping services that start and stop together.
 * C99 and C++. */
#ifndef ROCPROFILER_SDK_CONTEXT_H_
#define ROCPROFILER_SDK_CONTEXT_H_

#include "rocprofiler-sdk/defines.h"
#include "rocprofiler-sdk/fwd.h"

ROCPROFILER_EXTERN_C_INIT

/* The invalid context handle. */
#define ROCPROFILER_CONTEXT_NONE \
  ROCPROFILER_HANDLE_LITERAL(rocprofiler_context_id_t, UINT64_MAX)

/* Creates a context (at most 64 per process). Only inside a tool's
 * initialize: otherwise ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED.
 * NULL: ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT; no slot left:
 * ROCPROFILER_STATUS_ERROR_OUT_OF_RESOURCES. */
rocprofiler_status_t rocprofiler_create_context(
    rocprofiler_context_id_t* context_id) ROCPROFILER_API
    ROCPROFILER_NONNULL(1);

/* Starting an active context, or stopping an inactive one, is SUCCESS.
 * Unknown handle: ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND; a context of a
 * tool whose initialize failed or that was finalized:
 * ROCPROFILER_STATUS_ERROR_CONTEXT_INVALID. Takes effect for the next
 * callback on every thread. */
rocprofiler_status_t rocprofiler_start_context(
    rocprofiler_context_id_t context_id) ROCPROFILER_API;
rocprofiler_status_t rocprofiler_stop_context(
    rocprofiler_context_id_t context_id) ROCPROFILER_API;

/* *status non-zero when active. */
rocprofiler_status_t rocprofiler_context_is_active(
    rocprofiler_context_id_t context_id, int* status) ROCPROFILER_API
    ROCPROFILER_NONNULL(2);

/* *status 1 when the context is valid (created, its tool not failed or
 * finalized), 0 otherwise; the SDK implementation does the same (its header
 * comment has the sense inverted). */
rocprofiler_status_t rocprofiler_context_is_valid(
    rocprofiler_context_id_t context_id, int* status) ROCPROFILER_API
    ROCPROFILER_NONNULL(2);

ROCPROFILER_EXTERN_C_FINI

#endif /* ROCPROFILER_SDK_CONTEXT_H_ */
