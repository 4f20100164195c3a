/* HIP runtime and compiler API kinds: operation IDs and argument unions,
 * generated from the installed HIP headers (codegen/sdk_kinds.py). */
#ifndef ROCPROFILER_SDK_HIP_H_
#define ROCPROFILER_SDK_HIP_H_

#include "rocprofiler-sdk/hip/api_args.h"
#include "rocprofiler-sdk/hip/api_id.h"

#endif /* ROCPROFILER_SDK_HIP_H_ */
