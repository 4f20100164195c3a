/* The ROCJPEG_API kinds: operation IDs, argument unions and the dispatch
 * table IDs. This library does not trace rocJPEG (configuring the kinds is
 * ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED); the types let tools written
 * for rocprofiler-sdk 1.0.0 compile. C99 and C++. */
#ifndef ROCPROFILER_SDK_ROCJPEG_H_
#define ROCPROFILER_SDK_ROCJPEG_H_

#include "rocprofiler-sdk/rocjpeg/api_args.h"
#include "rocprofiler-sdk/rocjpeg/api_id.h"
#include "rocprofiler-sdk/rocjpeg/table_id.h"

#endif /* ROCPROFILER_SDK_ROCJPEG_H_ */
