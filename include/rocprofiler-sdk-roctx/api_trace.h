/* The dispatch tables rocTX hands to a profiler (rocprofiler-sdk 1.0.0's
 * layout: a leading size, then one function pointer per call), as a tool's
 * intercept-table callback receives them for ROCPROFILER_MARKER_CORE_TABLE,
 * _CONTROL_TABLE and _NAME_TABLE. C99 and C++. */
#ifndef ROCPROFILER_SDK_ROCTX_API_TRACE_H_
#define ROCPROFILER_SDK_ROCTX_API_TRACE_H_

#include <stddef.h>
#include <stdint.h>

#include "rocprofiler-sdk-roctx/types.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ROCTX_API_TABLE_VERSION_MAJOR 0
#define ROCTX_API_TABLE_VERSION_STEP 0
#define ROCTX_CORE_API_TABLE_VERSION_MAJOR 0
#define ROCTX_CORE_API_TABLE_VERSION_STEP 0
#define ROCTX_CONTROL_API_TABLE_VERSION_MAJOR 0
#define ROCTX_CONTROL_API_TABLE_VERSION_STEP 0
#define ROCTX_RESOURCE_API_TABLE_VERSION_MAJOR 0
#define ROCTX_RESOURCE_API_TABLE_VERSION_STEP 0

struct hsa_agent_s;
struct ihipStream_t;

typedef void (*roctxMarkA_fn_t)(const char* message);
typedef int (*roctxRangePushA_fn_t)(const char* message);
typedef int (*roctxRangePop_fn_t)(void);
typedef roctx_range_id_t (*roctxRangeStartA_fn_t)(const char* message);
typedef void (*roctxRangeStop_fn_t)(roctx_range_id_t id);
typedef int (*roctxProfilerPause_fn_t)(roctx_thread_id_t tid);
typedef int (*roctxProfilerResume_fn_t)(roctx_thread_id_t tid);
typedef int (*roctxNameOsThread_fn_t)(const char* name);
typedef int (*roctxNameHsaAgent_fn_t)(const char* name,
                                      const struct hsa_agent_s* agent);
typedef int (*roctxNameHipDevice_fn_t)(const char* name, int device_id);
typedef int (*roctxNameHipStream_fn_t)(const char* name,
                                       const struct ihipStream_t* stream);
typedef int (*roctxGetThreadId_fn_t)(roctx_thread_id_t* tid);

/* `size`: sizeof the table as the runtime built it (slots past it absent). */
typedef struct roctxCoreApiTable_t {
  uint64_t size;
  roctxMarkA_fn_t roctxMarkA_fn;
  roctxRangePushA_fn_t roctxRangePushA_fn;
  roctxRangePop_fn_t roctxRangePop_fn;
  roctxRangeStartA_fn_t roctxRangeStartA_fn;
  roctxRangeStop_fn_t roctxRangeStop_fn;
  roctxGetThreadId_fn_t roctxGetThreadId_fn;
} roctxCoreApiTable_t;

typedef struct roctxControlApiTable_t {
  uint64_t size;
  roctxProfilerPause_fn_t roctxProfilerPause_fn;
  roctxProfilerResume_fn_t roctxProfilerResume_fn;
} roctxControlApiTable_t;

typedef struct roctxNameApiTable_t {
  uint64_t size;
  roctxNameOsThread_fn_t roctxNameOsThread_fn;
  roctxNameHsaAgent_fn_t roctxNameHsaAgent_fn;
  roctxNameHipDevice_fn_t roctxNameHipDevice_fn;
  roctxNameHipStream_fn_t roctxNameHipStream_fn;
} roctxNameApiTable_t;

#ifdef __cplusplus
}
#endif

#endif /* ROCPROFILER_SDK_ROCTX_API_TRACE_H_ */
