/* RCCL's types: the system's <rccl/rccl.h> where it is installed (as
 * rocprofiler-sdk 1.0.0 chooses: ROCPROFILER_SDK_USE_SYSTEM_RCCL, which a
 * tool may also set), else rccl/details/rccl.h. */
#ifndef ROCPROFILER_SDK_RCCL_DETAILS_RCCL_SELECT_H_
#define ROCPROFILER_SDK_RCCL_DETAILS_RCCL_SELECT_H_

#if !defined(ROCPROFILER_SDK_USE_SYSTEM_RCCL)
#if defined(__has_include)
#if __has_include(<rccl/rccl.h>)
#define ROCPROFILER_SDK_USE_SYSTEM_RCCL 1
#else
#define ROCPROFILER_SDK_USE_SYSTEM_RCCL 0
#endif
#else
#define ROCPROFILER_SDK_USE_SYSTEM_RCCL 0
#endif
#endif

#if ROCPROFILER_SDK_USE_SYSTEM_RCCL > 0
#include <rccl/rccl.h>
#else
#include "rocprofiler-sdk/rccl/details/rccl.h"
#endif

#endif /* ROCPROFILER_SDK_RCCL_DETAILS_RCCL_SELECT_H_ */
