/* Marker (rocTX) core API kind. C99 and C++. */
#ifndef ROCPROFILER_SDK_MARKER_H_
#define ROCPROFILER_SDK_MARKER_H_

#include "rocprofiler-sdk/marker/api_args.h"
#include "rocprofiler-sdk/marker/api_id.h"

#endif /* ROCPROFILER_SDK_MARKER_H_ */
