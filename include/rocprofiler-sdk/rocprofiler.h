/* The rocprofiler-sdk API of this library: status strings, version,
 * timestamps, thread IDs; and the headers rocprofiler-sdk 1.0.0's
 * rocprofiler.h includes that are shipped here (the services that need
 * hardware among them; spm.h and experimental/ are included separately, as
 * in 1.0.0). C99 and C++. */
#ifndef ROCPROFILER_SDK_ROCPROFILER_H_
#define ROCPROFILER_SDK_ROCPROFILER_H_

/* rocprofiler-sdk's headers reach <stdio.h> and <assert.h> through the
 * runtimes' headers they include (<hip/hip_runtime.h> among them); its
 * samples and many tools call printf and assert without including them
 * themselves. */
#include <assert.h>
#include <stdio.h>

#include "rocprofiler-sdk/defines.h"
#include "rocprofiler-sdk/fwd.h"
#include "rocprofiler-sdk/version.h"

ROCPROFILER_EXTERN_C_INIT

/* 1, 0, 0 (version.h). Any pointer may be NULL (that part is not written).
 * Always SUCCESS. */
rocprofiler_status_t rocprofiler_get_version(uint32_t* major, uint32_t* minor,
                                             uint32_t* patch) ROCPROFILER_API;

/* 1.0.0 as a triplet. NULL: ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT. */
rocprofiler_status_t rocprofiler_get_version_triplet(
    rocprofiler_version_triplet_t* info) ROCPROFILER_API;

/* "ROCPROFILER_STATUS_SUCCESS", ...; NULL for a value outside the enum. */
const char* rocprofiler_get_status_name(rocprofiler_status_t status)
    ROCPROFILER_API;

/* rocprofiler-sdk 1.0.0's text for the status (the same string, so tools
 * that compare or log it see no difference); NULL for a value outside the
 * enum. */
const char* rocprofiler_get_status_string(rocprofiler_status_t status)
    ROCPROFILER_API;

/* CLOCK_BOOTTIME in ns (the clock of roctracer_get_timestamp). NULL ts:
 * ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT. */
rocprofiler_status_t rocprofiler_get_timestamp(rocprofiler_timestamp_t* ts)
    ROCPROFILER_API;

/* The calling thread's kernel thread ID. NULL tid:
 * ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT. */
rocprofiler_status_t rocprofiler_get_thread_id(rocprofiler_thread_id_t* tid)
    ROCPROFILER_API;

ROCPROFILER_EXTERN_C_FINI

#include "rocprofiler-sdk/agent.h"
#include "rocprofiler-sdk/buffer.h"
#include "rocprofiler-sdk/buffer_tracing.h"
#include "rocprofiler-sdk/callback_tracing.h"
#include "rocprofiler-sdk/context.h"
#include "rocprofiler-sdk/counter_config.h"
#include "rocprofiler-sdk/counters.h"
#include "rocprofiler-sdk/deprecated/profile_config.h"
#include "rocprofiler-sdk/device_counting_service.h"
#include "rocprofiler-sdk/dispatch_counting_service.h"
#include "rocprofiler-sdk/external_correlation.h"
#include "rocprofiler-sdk/intercept_table.h"
#include "rocprofiler-sdk/internal_threading.h"
#include "rocprofiler-sdk/ompt.h"
#include "rocprofiler-sdk/pc_sampling.h"
#include "rocprofiler-sdk/registration.h"

#endif /* ROCPROFILER_SDK_ROCPROFILER_H_ */
