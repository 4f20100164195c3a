/* Arguments and return value of each traced RCCL function, as the RCCL_API
 * callback payload holds them: one member per function, named after it,
 * holding its parameters by value in order (array parameters as
 * pointers). C99 and C++. */
#ifndef ROCPROFILER_SDK_RCCL_API_ARGS_H_
#define ROCPROFILER_SDK_RCCL_API_ARGS_H_

#include <stddef.h>
#include <stdint.h>

#include "rocprofiler-sdk/defines.h"
#include "rocprofiler-sdk/rccl/details/rccl_select.h"

ROCPROFILER_EXTERN_C_INIT

/* One byte, so that C and C++ agree on the size of a member without
 * arguments. */
typedef struct rocprofiler_rccl_api_no_args {
  char empty;
} rocprofiler_rccl_api_no_args;

typedef union rocprofiler_rccl_api_retval_t {
  int32_t ncclResult_t_retval;
  const char* const_charp_retval;
} rocprofiler_rccl_api_retval_t;

typedef union rocprofiler_rccl_api_args_t {
  struct {
    const void* sendbuff;
    void* recvbuff;
    size_t sendcount;
    ncclDataType_t datatype;
    ncclComm_t comm;
    hipStream_t stream;
  } ncclAllGather;
  struct {
    const void* sendbuff;
    void* recvbuff;
    size_t count;
    ncclDataType_t datatype;
    ncclRedOp_t op;
    struct ncclComm* comm;
    hipStream_t stream;
  } ncclAllReduce;
  struct {
    const void* sendbuff;
    void* recvbuff;
    size_t count;
    ncclDataType_t datatype;
    ncclComm_t comm;
    hipStream_t stream;
  } ncclAllToAll;
  struct {
    const void* sendbuff;
    const size_t* sendcounts;
    const size_t* sdispls;
    void* recvbuff;
    const size_t* recvcounts;
    const size_t* rdispls;
    ncclDataType_t datatype;
    ncclComm_t comm;
    hipStream_t stream;
  } ncclAllToAllv;
  struct {
    const void* sendbuff;
    void* recvbuff;
    size_t count;
    ncclDataType_t datatype;
    int root;
    ncclComm_t comm;
    hipStream_t stream;
  } ncclBroadcast;
  struct {
    const void* sendbuff;
    void* recvbuff;
    size_t sendcount;
    ncclDataType_t datatype;
    int root;
    ncclComm_t comm;
    hipStream_t stream;
  } ncclGather;
  struct {
    const void* sendbuff;
    void* recvbuff;
    size_t count;
    ncclDataType_t datatype;
    ncclRedOp_t op;
    int root;
    ncclComm_t comm;
    hipStream_t stream;
  } ncclReduce;
  struct {
    const void* sendbuff;
    void* recvbuff;
    size_t recvcount;
    ncclDataType_t datatype;
    ncclRedOp_t op;
    struct ncclComm* comm;
    hipStream_t stream;
  } ncclReduceScatter;
  struct {
    const void* sendbuff;
    void* recvbuff;
    size_t recvcount;
    ncclDataType_t datatype;
    int root;
    ncclComm_t comm;
    hipStream_t stream;
  } ncclScatter;
  struct {
    const void* sendbuff;
    size_t count;
    ncclDataType_t datatype;
    int peer;
    ncclComm_t comm;
    hipStream_t stream;
  } ncclSend;
  struct {
    void* recvbuff;
    size_t count;
    ncclDataType_t datatype;
    int peer;
    ncclComm_t comm;
    hipStream_t stream;
  } ncclRecv;
  struct {
    ncclRedOp_t* op;
    void* scalar;
    ncclDataType_t datatype;
    ncclScalarResidence_t residence;
    ncclComm_t comm;
  } ncclRedOpCreatePreMulSum;
  struct {
    ncclRedOp_t op;
    ncclComm_t comm;
  } ncclRedOpDestroy;
  struct {
    rocprofiler_rccl_api_no_args no_args;
  } ncclGroupStart;
  struct {
    rocprofiler_rccl_api_no_args no_args;
  } ncclGroupEnd;
  struct {
    int* version;
  } ncclGetVersion;
  struct {
    ncclUniqueId* out;
  } ncclGetUniqueId;
  struct {
    ncclComm_t* newcomm;
    int nranks;
    ncclUniqueId commId;
    int myrank;
  } ncclCommInitRank;
  struct {
    ncclComm_t* comms;
    int ndev;
    const int* devlist;
  } ncclCommInitAll;
  struct {
    ncclComm_t* comm;
    int nranks;
    ncclUniqueId commId;
    int myrank;
    ncclConfig_t* config;
  } ncclCommInitRankConfig;
  struct {
    ncclComm_t comm;
  } ncclCommFinalize;
  struct {
    ncclComm_t comm;
  } ncclCommDestroy;
  struct {
    ncclComm_t comm;
  } ncclCommAbort;
  struct {
    ncclComm_t comm;
    int color;
    int key;
    ncclComm_t* newcomm;
    ncclConfig_t* config;
  } ncclCommSplit;
  struct {
    ncclResult_t code;
  } ncclGetErrorString;
  struct {
    ncclComm_t comm;
  } ncclGetLastError;
  struct {
    ncclComm_t comm;
    ncclResult_t* asyncError;
  } ncclCommGetAsyncError;
  struct {
    ncclComm_t comm;
    int* count;
  } ncclCommCount;
  struct {
    ncclComm_t comm;
    int* devid;
  } ncclCommCuDevice;
  struct {
    ncclComm_t comm;
    int* rank;
  } ncclCommUserRank;
  struct {
    void** ptr;
    size_t size;
  } ncclMemAlloc;
  struct {
    void* ptr;
  } ncclMemFree;
  struct {
    const char* mscclAlgoFilePath;
    mscclAlgoHandle_t* mscclAlgoHandle;
    int rank;
  } mscclLoadAlgo;
  struct {
    const void* sendBuff;
    const size_t* sendCounts;
    const size_t* sDisPls;
    void* recvBuff;
    const size_t* recvCounts;
    const size_t* rDisPls;
    size_t count;
    ncclDataType_t dataType;
    int root;
    int peer;
    ncclRedOp_t op;
    mscclAlgoHandle_t mscclAlgoHandle;
    ncclComm_t comm;
    hipStream_t stream;
  } mscclRunAlgo;
  struct {
    mscclAlgoHandle_t mscclAlgoHandle;
  } mscclUnloadAlgo;
  struct {
    ncclComm_t comm;
    void* buff;
    size_t size;
    void** handle;
  } ncclCommRegister;
  struct {
    ncclComm_t comm;
    void* handle;
  } ncclCommDeregister;
} rocprofiler_rccl_api_args_t;

ROCPROFILER_EXTERN_C_FINI

#endif /* ROCPROFILER_SDK_RCCL_API_ARGS_H_ */
