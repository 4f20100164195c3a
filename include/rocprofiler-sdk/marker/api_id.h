/* rocprofiler-sdk operation IDs of the marker (rocTX) kinds. Values as in
 * rocprofiler-sdk; MARKER_CORE's first five equal roctracer's ROCTX_API_ID_*.
 * roctxGetThreadId and the CONTROL and NAME operations are the functions of
 * rocprofiler-sdk-roctx/roctx.h. C99 and C++. */
#ifndef ROCPROFILER_SDK_MARKER_API_ID_H_
#define ROCPROFILER_SDK_MARKER_API_ID_H_

typedef enum rocprofiler_marker_core_api_id_t {
  ROCPROFILER_MARKER_CORE_API_ID_NONE = -1,
  ROCPROFILER_MARKER_CORE_API_ID_roctxMarkA = 0,
  ROCPROFILER_MARKER_CORE_API_ID_roctxRangePushA,
  ROCPROFILER_MARKER_CORE_API_ID_roctxRangePop,
  ROCPROFILER_MARKER_CORE_API_ID_roctxRangeStartA,
  ROCPROFILER_MARKER_CORE_API_ID_roctxRangeStop,
  ROCPROFILER_MARKER_CORE_API_ID_roctxGetThreadId,
  ROCPROFILER_MARKER_CORE_API_ID_LAST
} rocprofiler_marker_core_api_id_t;

typedef enum rocprofiler_marker_control_api_id_t {
  ROCPROFILER_MARKER_CONTROL_API_ID_NONE = -1,
  ROCPROFILER_MARKER_CONTROL_API_ID_roctxProfilerPause = 0,
  ROCPROFILER_MARKER_CONTROL_API_ID_roctxProfilerResume,
  ROCPROFILER_MARKER_CONTROL_API_ID_LAST
} rocprofiler_marker_control_api_id_t;

typedef enum rocprofiler_marker_name_api_id_t {
  ROCPROFILER_MARKER_NAME_API_ID_NONE = -1,
  ROCPROFILER_MARKER_NAME_API_ID_roctxNameOsThread = 0,
  ROCPROFILER_MARKER_NAME_API_ID_roctxNameHsaAgent,
  ROCPROFILER_MARKER_NAME_API_ID_roctxNameHipDevice,
  ROCPROFILER_MARKER_NAME_API_ID_roctxNameHipStream,
  ROCPROFILER_MARKER_NAME_API_ID_LAST
} rocprofiler_marker_name_api_id_t;

/* MARKER_CORE_RANGE_API: rocTX's ranges as one operation each (a thread's
 * push/pop pair, a process-wide start/stop pair) besides marks and thread
 * IDs. This library reports the marker kinds per call (MARKER_CORE_API);
 * the kind is declared for tools that name it. */
typedef enum rocprofiler_marker_core_range_api_id_t {
  ROCPROFILER_MARKER_CORE_RANGE_API_ID_NONE = -1,
  ROCPROFILER_MARKER_CORE_RANGE_API_ID_roctxMarkA = 0,
  ROCPROFILER_MARKER_CORE_RANGE_API_ID_roctxThreadRangeA,
  ROCPROFILER_MARKER_CORE_RANGE_API_ID_roctxProcessRangeA,
  ROCPROFILER_MARKER_CORE_RANGE_API_ID_roctxGetThreadId,
  ROCPROFILER_MARKER_CORE_RANGE_API_ID_LAST
} rocprofiler_marker_core_range_api_id_t;

#endif /* ROCPROFILER_SDK_MARKER_API_ID_H_ */
