/* The HIP domains as a tracer sees them: HIP_API operation IDs and callback
 * data (generated from the installed HIP headers into hip_api_id.h and
 * hip_api_data.h) and HIP_OPS operations. */

#ifndef ROCTRACER_HIP_H_
#define ROCTRACER_HIP_H_

#include <hip/hip_runtime.h>

#include "hip_api_data.h" /* hip_api_data_t, generated */
#include "hip_api_id.h"   /* enum hip_api_id_t, generated */
#include "roctracer.h"

/* ROCm's roctracer_hip.h pulls in its C++ stream printers, and with them
 * <iostream> and <string>: code written against it (roctracer's own test
 * tools) uses std::cout without including anything else. */
#ifdef __cplusplus
#include <iostream>
#include <string>
#endif

typedef enum {
  HIP_OP_ID_DISPATCH = 0,
  HIP_OP_ID_COPY = 1,
  HIP_OP_ID_BARRIER = 2,
  HIP_OP_ID_NUMBER = 3
} hip_op_id_t;

#endif /* ROCTRACER_HIP_H_ */
