/* Tool registration. A tool defines rocprofiler_configure (found in every
 * object loaded in the process when the library starts) or passes its address
 * to rocprofiler_force_configure. Each tool's initialize runs once, in
 * registration order; services can be configured only inside it. Each
 * finalize runs once: at process exit, or earlier when the tool calls the
 * finalize function it was given. C99 and C++. */
#ifndef ROCPROFILER_SDK_REGISTRATION_H_
#define ROCPROFILER_SDK_REGISTRATION_H_

#include "rocprofiler-sdk/defines.h"
#include "rocprofiler-sdk/fwd.h"

ROCPROFILER_EXTERN_C_INIT

typedef struct rocprofiler_client_id_t {
  size_t size;      /* sizeof(rocprofiler_client_id_t), set by the library */
  const char* name; /* set by the tool, for diagnostics */
  const uint32_t handle; /* assigned by the library */
} rocprofiler_client_id_t;

/* Finalizes the client now (stops its contexts, calls its finalize once). */
typedef void (*rocprofiler_client_finalize_t)(rocprofiler_client_id_t);

/* Returns 0 on success; non-zero makes the library stop and ignore every
 * context the tool created. */
typedef int (*rocprofiler_tool_initialize_t)(
    rocprofiler_client_finalize_t finalize_func, void* tool_data);

typedef void (*rocprofiler_tool_finalize_t)(void* tool_data);

typedef struct rocprofiler_tool_configure_result_t {
  size_t size; /* sizeof(rocprofiler_tool_configure_result_t) */
  rocprofiler_tool_initialize_t initialize;
  rocprofiler_tool_finalize_t finalize;
  void* tool_data;
} rocprofiler_tool_configure_result_t;

/* *status: 0 not yet, -1 registering now, 1 done. */
rocprofiler_status_t rocprofiler_is_initialized(int* status) ROCPROFILER_API
    ROCPROFILER_NONNULL(1);

/* *status: 0 not yet, -1 finalizing now, 1 done. */
rocprofiler_status_t rocprofiler_is_finalized(int* status) ROCPROFILER_API
    ROCPROFILER_NONNULL(1);

/* Defined by a tool, never by this library. Returns NULL to decline. */
rocprofiler_tool_configure_result_t* rocprofiler_configure(
    uint32_t version, const char* runtime_version, uint32_t priority,
    rocprofiler_client_id_t* client_id) ROCPROFILER_PUBLIC_API;

typedef rocprofiler_tool_configure_result_t* (*rocprofiler_configure_func_t)(
    uint32_t version, const char* runtime_version, uint32_t priority,
    rocprofiler_client_id_t* client_id);

/* Registers the tools now: `configure_func` first (if non-NULL), then every
 * rocprofiler_configure found in the process. SUCCESS, or
 * ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED when a registration with at
 * least one tool already happened or is in progress. */
rocprofiler_status_t rocprofiler_force_configure(
    rocprofiler_configure_func_t configure_func) ROCPROFILER_API;

ROCPROFILER_EXTERN_C_FINI

#endif /* ROCPROFILER_SDK_REGISTRATION_H_ */
