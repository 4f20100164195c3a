/* rocDecode's dispatch tables (one). C99 and C++. */
#ifndef ROCPROFILER_SDK_ROCDECODE_TABLE_ID_H_
#define ROCPROFILER_SDK_ROCDECODE_TABLE_ID_H_

typedef enum rocprofiler_rocdecode_table_id_t {
  ROCPROFILER_ROCDECODE_TABLE_ID_NONE = -1,
  ROCPROFILER_ROCDECODE_TABLE_ID_CORE = 0,
  ROCPROFILER_ROCDECODE_TABLE_ID_LAST
} rocprofiler_rocdecode_table_id_t;

#endif /* ROCPROFILER_SDK_ROCDECODE_TABLE_ID_H_ */
