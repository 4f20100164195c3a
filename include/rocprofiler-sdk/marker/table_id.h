/* The rocTX dispatch tables, as the intercept-table service numbers them.
 * C99 and C++. */
#ifndef ROCPROFILER_SDK_MARKER_TABLE_ID_H_
#define ROCPROFILER_SDK_MARKER_TABLE_ID_H_

typedef enum rocprofiler_marker_table_id_t {
  ROCPROFILER_MARKER_TABLE_ID_NONE = -1,
  ROCPROFILER_MARKER_TABLE_ID_RoctxCore = 0,
  ROCPROFILER_MARKER_TABLE_ID_RoctxControl,
  ROCPROFILER_MARKER_TABLE_ID_RoctxName,
  ROCPROFILER_MARKER_TABLE_ID_RoctxCoreRange,
  ROCPROFILER_MARKER_TABLE_ID_LAST
} rocprofiler_marker_table_id_t;

#endif /* ROCPROFILER_SDK_MARKER_TABLE_ID_H_ */
