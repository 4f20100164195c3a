/* Argument and return-value unions of the marker kinds (MARKER_CORE_API,
 * MARKER_CONTROL_API, MARKER_NAME_API, MARKER_CORE_RANGE_API), laid out as in
 * rocprofiler-sdk. C99 and C++. */
#ifndef ROCPROFILER_SDK_MARKER_API_ARGS_H_
#define ROCPROFILER_SDK_MARKER_API_ARGS_H_

#include <stdint.h>

#include "rocprofiler-sdk-roctx/types.h"
#include "rocprofiler-sdk/defines.h"

ROCPROFILER_EXTERN_C_INIT

/* C has no empty struct; a one-byte member keeps C and C++ sizes equal. */
typedef struct rocprofiler_marker_api_no_args {
  char empty;
} rocprofiler_marker_api_no_args;

typedef union rocprofiler_marker_api_retval_t {
  int32_t int32_t_retval;
  int64_t int64_t_retval;
  roctx_range_id_t roctx_range_id_t_retval;
} rocprofiler_marker_api_retval_t;

typedef union rocprofiler_marker_api_args_t {
  struct {
    const char* message;
  } roctxMarkA;
  struct {
    const char* message;
  } roctxRangePushA;
  struct {
    rocprofiler_marker_api_no_args no_args;
  } roctxRangePop;
  struct {
    const char* message;
  } roctxRangeStartA;
  struct {
    roctx_range_id_t id;
  } roctxRangeStop;
  struct {
    roctx_thread_id_t* tid;
  } roctxGetThreadId;
  struct {
    roctx_thread_id_t tid;
  } roctxProfilerPause;
  struct {
    roctx_thread_id_t tid;
  } roctxProfilerResume;
  struct {
    const char* name;
  } roctxNameOsThread;
  struct {
    const char* name;
    const struct hsa_agent_s* agent;
  } roctxNameHsaAgent;
  struct {
    const char* name;
    int device_id;
  } roctxNameHipDevice;
  struct {
    const char* name;
    const struct ihipStream_t* stream;
  } roctxNameHipStream;
  struct {
    const char* message;
  } roctxThreadRangeA;
  struct {
    const char* message;
  } roctxProcessRangeA;
} rocprofiler_marker_api_args_t;

ROCPROFILER_EXTERN_C_FINI

#endif /* ROCPROFILER_SDK_MARKER_API_ARGS_H_ */
