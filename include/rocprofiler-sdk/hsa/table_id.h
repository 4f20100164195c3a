/* The HSA runtime's dispatch tables (the sub-tables of HsaApiTable). C99
 * and C++. */
#ifndef ROCPROFILER_SDK_HSA_TABLE_ID_H_
#define ROCPROFILER_SDK_HSA_TABLE_ID_H_

typedef enum rocprofiler_hsa_table_id_t {
  ROCPROFILER_HSA_TABLE_ID_NONE = -1,
  ROCPROFILER_HSA_TABLE_ID_Core = 0,
  ROCPROFILER_HSA_TABLE_ID_AmdExt,
  ROCPROFILER_HSA_TABLE_ID_ImageExt,
  ROCPROFILER_HSA_TABLE_ID_FinalizeExt,
  ROCPROFILER_HSA_TABLE_ID_AmdTool,
  ROCPROFILER_HSA_TABLE_ID_PcSamplingExt,
  ROCPROFILER_HSA_TABLE_ID_LAST
} rocprofiler_hsa_table_id_t;

#endif /* ROCPROFILER_SDK_HSA_TABLE_ID_H_ */
