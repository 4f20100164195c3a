/* Operations of the RCCL_API kinds: one per traced RCCL function, numbered
 * as rocprofiler-sdk 1.0.0 numbers them (its rcclApiFuncTable order). C99
 * and C++. */
#ifndef ROCPROFILER_SDK_RCCL_API_ID_H_
#define ROCPROFILER_SDK_RCCL_API_ID_H_

typedef enum rocprofiler_rccl_api_id_t {
  ROCPROFILER_RCCL_API_ID_NONE = -1,
  ROCPROFILER_RCCL_API_ID_ncclAllGather = 0,
  ROCPROFILER_RCCL_API_ID_ncclAllReduce,
  ROCPROFILER_RCCL_API_ID_ncclAllToAll,
  ROCPROFILER_RCCL_API_ID_ncclAllToAllv,
  ROCPROFILER_RCCL_API_ID_ncclBroadcast,
  ROCPROFILER_RCCL_API_ID_ncclGather,
  ROCPROFILER_RCCL_API_ID_ncclReduce,
  ROCPROFILER_RCCL_API_ID_ncclReduceScatter,
  ROCPROFILER_RCCL_API_ID_ncclScatter,
  ROCPROFILER_RCCL_API_ID_ncclSend,
  ROCPROFILER_RCCL_API_ID_ncclRecv,
  ROCPROFILER_RCCL_API_ID_ncclRedOpCreatePreMulSum,
  ROCPROFILER_RCCL_API_ID_ncclRedOpDestroy,
  ROCPROFILER_RCCL_API_ID_ncclGroupStart,
  ROCPROFILER_RCCL_API_ID_ncclGroupEnd,
  ROCPROFILER_RCCL_API_ID_ncclGetVersion,
  ROCPROFILER_RCCL_API_ID_ncclGetUniqueId,
  ROCPROFILER_RCCL_API_ID_ncclCommInitRank,
  ROCPROFILER_RCCL_API_ID_ncclCommInitAll,
  ROCPROFILER_RCCL_API_ID_ncclCommInitRankConfig,
  ROCPROFILER_RCCL_API_ID_ncclCommFinalize,
  ROCPROFILER_RCCL_API_ID_ncclCommDestroy,
  ROCPROFILER_RCCL_API_ID_ncclCommAbort,
  ROCPROFILER_RCCL_API_ID_ncclCommSplit,
  ROCPROFILER_RCCL_API_ID_ncclGetErrorString,
  ROCPROFILER_RCCL_API_ID_ncclGetLastError,
  ROCPROFILER_RCCL_API_ID_ncclCommGetAsyncError,
  ROCPROFILER_RCCL_API_ID_ncclCommCount,
  ROCPROFILER_RCCL_API_ID_ncclCommCuDevice,
  ROCPROFILER_RCCL_API_ID_ncclCommUserRank,
  ROCPROFILER_RCCL_API_ID_ncclMemAlloc,
  ROCPROFILER_RCCL_API_ID_ncclMemFree,
  ROCPROFILER_RCCL_API_ID_mscclLoadAlgo,
  ROCPROFILER_RCCL_API_ID_mscclRunAlgo,
  ROCPROFILER_RCCL_API_ID_mscclUnloadAlgo,
  ROCPROFILER_RCCL_API_ID_ncclCommRegister,
  ROCPROFILER_RCCL_API_ID_ncclCommDeregister,
  ROCPROFILER_RCCL_API_ID_LAST
} rocprofiler_rccl_api_id_t;

#endif /* ROCPROFILER_SDK_RCCL_API_ID_H_ */
