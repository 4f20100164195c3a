/* HSA API kinds: operation IDs and argument unions, generated from the
 * installed HSA headers (codegen/sdk_kinds.py). C99 and C++. */
#ifndef ROCPROFILER_SDK_HSA_H_
#define ROCPROFILER_SDK_HSA_H_

#include "rocprofiler-sdk/hsa/api_args.h"
#include "rocprofiler-sdk/hsa/api_id.h"

#endif /* ROCPROFILER_SDK_HSA_H_ */
