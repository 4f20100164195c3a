/* The intercept-table service: a tool receives the dispatch tables a
 * runtime hands over while it initializes, after the tracer's own wrappers
 * are in them, and may replace their slots with functions of its own. */
#ifndef ROCPROFILER_SDK_INTERCEPT_TABLE_H_
#define ROCPROFILER_SDK_INTERCEPT_TABLE_H_

#include <stdint.h>

#include "rocprofiler-sdk/defines.h"
#include "rocprofiler-sdk/fwd.h"

ROCPROFILER_EXTERN_C_INIT

/* `type`: one table kind; `tables`: `num_tables` pointers (for
 * ROCPROFILER_HSA_TABLE one HsaApiTable*), as the runtime registered them. */
typedef void (*rocprofiler_intercept_library_cb_t)(
    rocprofiler_intercept_table_t type, uint64_t lib_version,
    uint64_t lib_instance, void** tables, uint64_t num_tables, void* user_data);

/* `libs`: an OR of rocprofiler_intercept_table_t. Only from
 * rocprofiler_configure or initialize
 * (ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED otherwise); NULL callback, no
 * flag or an unknown flag: ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT. Tables
 * registered before the call are handed over at once. */
rocprofiler_status_t rocprofiler_at_intercept_table_registration(
    rocprofiler_intercept_library_cb_t callback, int libs,
    void* data) ROCPROFILER_API;

/* The table kind's name ("HSA", "HIP (runtime)", "MARKER (ROCTx)", ...,
 * rocprofiler-sdk 1.0.0's strings) and its length,
 * each written when not NULL. A value that is not one table kind:
 * ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND, with NULL and 0 written. */
rocprofiler_status_t rocprofiler_query_intercept_table_name(
    rocprofiler_intercept_table_t kind, const char** name,
    uint64_t* name_len) ROCPROFILER_API;

ROCPROFILER_EXTERN_C_FINI

#endif /* ROCPROFILER_SDK_INTERCEPT_TABLE_H_ */
