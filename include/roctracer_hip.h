/* The HIP domains as a tracer sees them: HIP_API operation IDs and callback
 * data (generated from the installed HIP headers into hip_api_id.h and
 * hip_api_data.h), HIP_OPS operations, and what ROCm's roctracer_hip.h gives
 * its clients with them: HIP's hip_prof_str.h helpers on this library's data
 * (hip_api_name, hipApiIdByName; hipApiArgsInit and, in C++, hipApiString
 * where HIP_PROF_HIP_API_STRING is set non-zero; hip_api_helpers.h) and C++
 * stream operators for HIP's structs (hip_ostream_ops.h).
 *
 * HIP's own hip/amd_detail/hip_prof_str.h may be included beside this, in
 * either order: included after, it adds nothing; included before, its enum,
 * record and helpers are the definitions (the same IDs up to
 * HIP_API_ID_LAST and the same record up to the end of `args`, without this
 * library's extensions). */

#ifndef ROCTRACER_HIP_H_
#define ROCTRACER_HIP_H_

#include <hip/hip_runtime.h>

#include "hip_api_data.h"    /* hip_api_data_t, generated */
#include "hip_api_helpers.h" /* hip_api_name, hipApiString, ..., generated */
#include "hip_api_id.h"      /* enum hip_api_id_t, generated */
#include "hip_ostream_ops.h" /* operator<< for HIP's structs, generated */
#include "roctracer.h"

/* ROCm's roctracer_hip.h pulls in its C++ stream printers, and with them
 * <iostream> and <string>: code written against it (roctracer's own test
 * tools) uses std::cout without including anything else. */
#ifdef __cplusplus
#include <iostream>
#include <string>
#else
#include <stdbool.h>
#endif

typedef enum {
  HIP_OP_ID_DISPATCH = 0,
  HIP_OP_ID_COPY = 1,
  HIP_OP_ID_BARRIER = 2,
  HIP_OP_ID_NUMBER = 3
} hip_op_id_t;

#ifdef __cplusplus
extern "C" {
#endif

/* roctracer 5.2-5.3's name of the HIP_API op type. */
typedef enum hip_api_id_t roctracer_hip_api_cid_t;

/* roctracer 5.3's types of HIP's asynchronous-activity hooks. */
typedef void(hipInitAsyncActivityCallback_t)(void* id_callback,
                                             void* op_callback, void* arg);
typedef bool(hipEnableAsyncActivityCallback_t)(unsigned op, bool enable);
typedef const char*(hipGetOpName_t)(unsigned op);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* ROCTRACER_HIP_H_ */
