/* rocprofiler-sdk-roctx's version macros (names of rocprofiler-sdk 1.0.0's
 * <rocprofiler-sdk-roctx/version.h>): the rocTX interface of rocprofiler-sdk
 * 1.0.0, which librocprofiler-sdk-roctx.so.1 implements. The build-description
 * strings (git, system, compiler) are empty: this header is not generated
 * per build. roctx.h does not include it (1.0.0's does): roctracer's <roctx.h>
 * defines ROCTX_VERSION_MAJOR as 4, and a program may include both rocTX
 * headers (libroctx64 itself does). C99 and C++. */
#ifndef ROCPROFILER_SDK_ROCTX_VERSION_H_
#define ROCPROFILER_SDK_ROCTX_VERSION_H_

/* These rocTX headers are rocprofiler-sdk's, not roctracer's <roctx.h>. */
#define ROCTX_IS_ROCPROFILER_SDK 1

#define ROCTX_VERSION_MAJOR 1
#define ROCTX_VERSION_MINOR 0
#define ROCTX_VERSION_PATCH 0
#define ROCTX_SOVERSION (10000 * 1)
#define ROCTX_VERSION_STRING "1.0.0"
#define ROCTX_GIT_DESCRIBE ""
#define ROCTX_GIT_REVISION ""

#define ROCTX_LIBRARY_ARCH ""
#define ROCTX_SYSTEM_NAME ""
#define ROCTX_SYSTEM_PROCESSOR ""
#define ROCTX_SYSTEM_VERSION ""
#define ROCTX_COMPILER_ID ""
#define ROCTX_COMPILER_VERSION ""

/* 10000 * major + 100 * minor + patch */
#define ROCTX_VERSION                                            \
  ((10000 * ROCTX_VERSION_MAJOR) + (100 * ROCTX_VERSION_MINOR) + \
   ROCTX_VERSION_PATCH)

#endif /* ROCPROFILER_SDK_ROCTX_VERSION_H_ */
