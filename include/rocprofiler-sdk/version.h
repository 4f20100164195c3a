/* The rocprofiler-sdk release this library's SDK front end matches:
 * rocprofiler-sdk 1.0.0 (ROCm 7.0). Its status codes, callback-tracing kinds
 * and rocprofiler_get_version() are that release's; sdk/README.md says why
 * this one. Both spellings of the macros exist there (ROCPROFILER_SDK_* and
 * the older, deprecated ROCPROFILER_*). Build-machine strings (git revision,
 * compiler) are not given: they describe AMD's build, not this one. */
#ifndef ROCPROFILER_SDK_VERSION_H_
#define ROCPROFILER_SDK_VERSION_H_

#include "rocprofiler-sdk/defines.h"

/* Not rocprofiler v1/v2's rocprofiler.h. */
#define ROCPROFILER_IS_ROCPROFILER_SDK 1

#define ROCPROFILER_SDK_VERSION_MAJOR 1
#define ROCPROFILER_SDK_VERSION_MINOR 0
#define ROCPROFILER_SDK_VERSION_PATCH 0
#define ROCPROFILER_SDK_SOVERSION 1
#define ROCPROFILER_SDK_VERSION_STRING "1.0.0"
/* (10000 * major) + (100 * minor) + patch: the `version` argument of
 * rocprofiler_configure. */
#define ROCPROFILER_SDK_VERSION                                  \
  ROCPROFILER_SDK_COMPUTE_VERSION(ROCPROFILER_SDK_VERSION_MAJOR, \
                                  ROCPROFILER_SDK_VERSION_MINOR, \
                                  ROCPROFILER_SDK_VERSION_PATCH)

#define ROCPROFILER_VERSION_MAJOR ROCPROFILER_SDK_VERSION_MAJOR
#define ROCPROFILER_VERSION_MINOR ROCPROFILER_SDK_VERSION_MINOR
#define ROCPROFILER_VERSION_PATCH ROCPROFILER_SDK_VERSION_PATCH
#define ROCPROFILER_SOVERSION ROCPROFILER_SDK_SOVERSION
#define ROCPROFILER_VERSION_STRING ROCPROFILER_SDK_VERSION_STRING
#define ROCPROFILER_VERSION ROCPROFILER_SDK_VERSION

#endif /* ROCPROFILER_SDK_VERSION_H_ */
