/* rocDecode's dispatch table (RocDecodeDispatchTable), the one the
 * intercept-table service would hand over for ROCPROFILER_ROCDECODE_TABLE.
 * C99 and C++. */
#ifndef ROCPROFILER_SDK_ROCDECODE_API_TRACE_H_
#define ROCPROFILER_SDK_ROCDECODE_API_TRACE_H_

#include "rocprofiler-sdk/rocdecode/details/rocdecode_api_trace.h"
#include "rocprofiler-sdk/rocdecode/details/rocdecode_headers.h"

#endif /* ROCPROFILER_SDK_ROCDECODE_API_TRACE_H_ */
