/* The ROCDECODE_API kinds: operation IDs, argument unions and the dispatch
 * table IDs. This library does not trace rocDecode (configuring the kinds is
 * ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED); the types let tools written
 * for rocprofiler-sdk 1.0.0 compile. C99 and C++. */
#ifndef ROCPROFILER_SDK_ROCDECODE_H_
#define ROCPROFILER_SDK_ROCDECODE_H_

#include "rocprofiler-sdk/rocdecode/api_args.h"
#include "rocprofiler-sdk/rocdecode/api_id.h"
#include "rocprofiler-sdk/rocdecode/table_id.h"

#endif /* ROCPROFILER_SDK_ROCDECODE_H_ */
