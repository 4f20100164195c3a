/* The HSA finalizer extension API operation IDs under rocprofiler-sdk 1.0.0's
 * file name. This library generates every HSA kind's IDs into one header,
 * <rocprofiler-sdk/hsa/api_id.h>, from the ROCm headers it is built against
 * (sdk/README.md, "Kinds and operation numbering"). C99 and C++. */
#ifndef ROCPROFILER_SDK_HSA_FINALIZE_EXT_API_ID_H_
#define ROCPROFILER_SDK_HSA_FINALIZE_EXT_API_ID_H_

#include "rocprofiler-sdk/hsa/api_id.h"

#endif /* ROCPROFILER_SDK_HSA_FINALIZE_EXT_API_ID_H_ */
