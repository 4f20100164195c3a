/* HSA API kinds: operation IDs and argument unions, generated from the
 * installed HSA headers (codegen/sdk_kinds.py); the scratch-memory events'
 * flags and arguments. C99 and C++. */
#ifndef ROCPROFILER_SDK_HSA_H_
#define ROCPROFILER_SDK_HSA_H_

#include "rocprofiler-sdk/hsa/api_args.h"
#include "rocprofiler-sdk/hsa/api_id.h"
#include "rocprofiler-sdk/hsa/scratch_memory_args.h"
#include "rocprofiler-sdk/hsa/scratch_memory_id.h"

#endif /* ROCPROFILER_SDK_HSA_H_ */
