/* Which rocJPEG headers rocprofiler-sdk's rocJPEG tracing types use (as in
 * rocprofiler-sdk 1.0.0's <rocprofiler-sdk/rocjpeg/details/rocjpeg_headers.h>):
 * always the bundled ones beside this file, so
 * ROCPROFILER_SDK_USE_SYSTEM_ROCJPEG is 0 unless the includer set it (1.0.0
 * sets 0 whether or not a system <rocjpeg/rocjpeg.h> exists). C99 and C++. */
#ifndef ROCPROFILER_SDK_ROCJPEG_DETAILS_ROCJPEG_HEADERS_H_
#define ROCPROFILER_SDK_ROCJPEG_DETAILS_ROCJPEG_HEADERS_H_

#if !defined(ROCPROFILER_SDK_USE_SYSTEM_ROCJPEG)
#define ROCPROFILER_SDK_USE_SYSTEM_ROCJPEG 0
#endif

#endif /* ROCPROFILER_SDK_ROCJPEG_DETAILS_ROCJPEG_HEADERS_H_ */
