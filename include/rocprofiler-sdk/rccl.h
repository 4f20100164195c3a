/* The RCCL_API kinds: operation IDs, argument unions and the dispatch
 * table IDs. This library does not trace RCCL (configuring the kinds is
 * ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED); the types let tools written
 * for rocprofiler-sdk 1.0.0 compile. C99 and C++. */
#ifndef ROCPROFILER_SDK_RCCL_H_
#define ROCPROFILER_SDK_RCCL_H_

#include "rocprofiler-sdk/rccl/api_args.h"
#include "rocprofiler-sdk/rccl/api_id.h"
#include "rocprofiler-sdk/rccl/table_id.h"

#endif /* ROCPROFILER_SDK_RCCL_H_ */
