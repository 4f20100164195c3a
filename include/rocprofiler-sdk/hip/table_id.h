/* The HIP runtime's dispatch tables. C99 and C++. */
#ifndef ROCPROFILER_SDK_HIP_TABLE_ID_H_
#define ROCPROFILER_SDK_HIP_TABLE_ID_H_

typedef enum rocprofiler_hip_table_id_t {
  ROCPROFILER_HIP_TABLE_ID_NONE = -1,
  ROCPROFILER_HIP_TABLE_ID_Compiler = 0,
  ROCPROFILER_HIP_TABLE_ID_Runtime,
  ROCPROFILER_HIP_TABLE_ID_LAST
} rocprofiler_hip_table_id_t;

#endif /* ROCPROFILER_SDK_HIP_TABLE_ID_H_ */
