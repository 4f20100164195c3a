/* RCCL's dispatch tables (one). C99 and C++. */
#ifndef ROCPROFILER_SDK_RCCL_TABLE_ID_H_
#define ROCPROFILER_SDK_RCCL_TABLE_ID_H_

typedef enum rocprofiler_rccl_table_id_t {
  ROCPROFILER_RCCL_TABLE_ID_NONE = -1,
  ROCPROFILER_RCCL_TABLE_ID = 0,
  ROCPROFILER_RCCL_TABLE_ID_LAST
} rocprofiler_rccl_table_id_t;

#endif /* ROCPROFILER_SDK_RCCL_TABLE_ID_H_ */
