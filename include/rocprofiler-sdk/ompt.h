/* The OpenMP tools (OMPT) hand-over of rocprofiler-sdk 1.0.0. This library
 * does not act as an OpenMP tool: rocprofiler OMPT is never initialized or
 * finalized, and rocprofiler_ompt_start_tool declines (NULL), which tells
 * the OpenMP runtime there is no tool. The OMPT kinds' operations and
 * arguments (ompt/api_id.h, ompt/api_args.h) and the OpenMP tools types
 * (ompt/omp-tools.h) are declared as 1.0.0 declares them. C99 and C++. */
#ifndef ROCPROFILER_SDK_OMPT_H_
#define ROCPROFILER_SDK_OMPT_H_

#include "rocprofiler-sdk/defines.h"
#include "rocprofiler-sdk/fwd.h"
#include "rocprofiler-sdk/ompt/api_args.h"
#include "rocprofiler-sdk/ompt/api_id.h"
#include "rocprofiler-sdk/ompt/omp-tools.h"

ROCPROFILER_EXTERN_C_INIT

/* Sets *status to 0. NULL status: ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
 * otherwise ROCPROFILER_STATUS_SUCCESS. */
ROCPROFILER_SDK_EXPERIMENTAL
rocprofiler_status_t rocprofiler_ompt_is_initialized(int* status)
    ROCPROFILER_API ROCPROFILER_NONNULL(1);

/* Sets *status to 0; as above. */
ROCPROFILER_SDK_EXPERIMENTAL
rocprofiler_status_t rocprofiler_ompt_is_finalized(int* status) ROCPROFILER_API
    ROCPROFILER_NONNULL(1);

/* For a tool's own ompt_start_tool to defer to rocprofiler-sdk: NULL here
 * (no OMPT tool). */
ROCPROFILER_SDK_EXPERIMENTAL
ompt_start_tool_result_t* rocprofiler_ompt_start_tool(
    unsigned int omp_version, const char* runtime_version) ROCPROFILER_API;

ROCPROFILER_EXTERN_C_FINI

#endif /* ROCPROFILER_SDK_OMPT_H_ */
