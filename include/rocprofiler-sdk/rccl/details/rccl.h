/* RCCL's public types, as far as the RCCL_API callback payloads and RCCL's
 * dispatch table use them (the RCCL rocprofiler-sdk 1.0.0 describes, FP8
 * data types included). Declared here so that tools compile without RCCL
 * installed; rccl/api_args.h uses the system's <rccl/rccl.h> instead where
 * there is one. This library does not trace RCCL. C99 and C++. */
#ifndef ROCPROFILER_SDK_RCCL_DETAILS_RCCL_H_
#define ROCPROFILER_SDK_RCCL_DETAILS_RCCL_H_

#include <limits.h>
#include <stddef.h>

/* hipStream_t, as the HIP API kinds declare it. */
#include "rocprofiler-sdk/hip.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A communicator (opaque). */
typedef const struct ncclComm* ncclComm_t;
#define NCCL_COMM_NULL NULL

#define NCCL_UNIQUE_ID_BYTES 128
typedef struct {
  char internal[NCCL_UNIQUE_ID_BYTES];
} ncclUniqueId;

typedef enum {
  ncclSuccess = 0,
  ncclUnhandledCudaError = 1,
  ncclSystemError = 2,
  ncclInternalError = 3,
  ncclInvalidArgument = 4,
  ncclInvalidUsage = 5,
  ncclRemoteError = 6,
  ncclInProgress = 7,
  ncclNumResults = 8
} ncclResult_t;

#define NCCL_CONFIG_UNDEF_INT INT_MIN
#define NCCL_CONFIG_UNDEF_PTR NULL
#define NCCL_SPLIT_NOCOLOR -1

/* A communicator's configuration (ncclCommInitRankConfig, ncclCommSplit). */
typedef struct ncclConfig_v21700 {
  size_t size;
  unsigned int magic;
  unsigned int version;
  int blocking;
  int cgaClusterSize;
  int minCTAs;
  int maxCTAs;
  const char* netName;
  int splitShare;
} ncclConfig_t;

/* Sizes ncclRedOp_t: ncclMaxRedOp is the largest value of its size. */
typedef enum { ncclNumOps_dummy = 5 } ncclRedOp_dummy_t;

typedef enum {
  ncclSum = 0,
  ncclProd = 1,
  ncclMax = 2,
  ncclMin = 3,
  ncclAvg = 4,
  ncclNumOps = 5,
  ncclMaxRedOp = 0x7fffffff >> (32 - 8 * sizeof(ncclRedOp_dummy_t))
} ncclRedOp_t;

typedef enum {
  ncclInt8 = 0,
  ncclChar = 0,
  ncclUint8 = 1,
  ncclInt32 = 2,
  ncclInt = 2,
  ncclUint32 = 3,
  ncclInt64 = 4,
  ncclUint64 = 5,
  ncclFloat16 = 6,
  ncclHalf = 6,
  ncclFloat32 = 7,
  ncclFloat = 7,
  ncclFloat64 = 8,
  ncclDouble = 8,
  ncclBfloat16 = 9,
  ncclFp8E4M3 = 10,
  ncclFp8E5M2 = 11,
  ncclNumTypes = 12
} ncclDataType_t;

/* Where a pre-multiplying reduction's scalar lives. */
typedef enum {
  ncclScalarDevice = 0,
  ncclScalarHostImmediate = 1
} ncclScalarResidence_t;

/* An MSCCL algorithm loaded by mscclLoadAlgo. */
typedef int mscclAlgoHandle_t;

#ifdef __cplusplus
}
#endif

#endif /* ROCPROFILER_SDK_RCCL_DETAILS_RCCL_H_ */
