#include "sdk/kinds.h"

#include <cstring>

#include "ext/prof_protocol.h"
#include "hip_api_id.h"
#include "hip_api_tables.h"
#include "hsa_api_id.h"
#include "hsa_api_tables.h"
#include "rocprofiler-sdk/hip/api_id.h"
#include "rocprofiler-sdk/hsa/api_id.h"
#include "rocprofiler-sdk/marker/api_id.h"
#include "rocprofiler-sdk/ompt/api_id.h"
#include "rocprofiler-sdk/rccl/api_id.h"
#include "rocprofiler-sdk/rocdecode/api_id.h"
#include "rocprofiler-sdk/rocjpeg/api_id.h"
#include "roctracer_roctx.h"
#include "runtime/intercept/api_consumer.h"
#include "runtime/private/roctx_link.h"
#include "sdk_op_tables.h"

namespace rocprofiler_sdk {
namespace {

// The generated tables and the enums in the public headers come from the
// same generator run; a mismatch would mean a stale header.
static_assert(ROCPROFILER_HSA_CORE_API_ID_LAST < kMaxOps &&
                  ROCPROFILER_HSA_AMD_EXT_API_ID_LAST < kMaxOps &&
                  ROCPROFILER_HIP_RUNTIME_API_ID_LAST < kMaxOps &&
                  ROCPROFILER_HIP_COMPILER_API_ID_LAST < kMaxOps,
              "raise kMaxOps");
static_assert(int{ROCTX_API_ID_roctxMarkA} ==
                      int{ROCPROFILER_MARKER_CORE_API_ID_roctxMarkA} &&
                  int{ROCTX_API_ID_roctxRangePushA} ==
                      int{ROCPROFILER_MARKER_CORE_API_ID_roctxRangePushA} &&
                  int{ROCTX_API_ID_roctxRangePop} ==
                      int{ROCPROFILER_MARKER_CORE_API_ID_roctxRangePop} &&
                  int{ROCTX_API_ID_roctxRangeStartA} ==
                      int{ROCPROFILER_MARKER_CORE_API_ID_roctxRangeStartA} &&
                  int{ROCTX_API_ID_roctxRangeStop} ==
                      int{ROCPROFILER_MARKER_CORE_API_ID_roctxRangeStop},
              "rocTX IDs double as MARKER_CORE operations");

const uint32_t kMarkerCoreIds[] = {
    ROCTX_API_ID_roctxMarkA,     ROCTX_API_ID_roctxRangePushA,
    ROCTX_API_ID_roctxRangePop,  ROCTX_API_ID_roctxRangeStartA,
    ROCTX_API_ID_roctxRangeStop,
    ROCTX_API_ID_NUMBER,  // roctxGetThreadId: a request, mapped in Tables()
};
// MARKER_CONTROL / MARKER_NAME operation -> rocTX request, in the order of
// the SDK's operation enums.
const uint32_t kMarkerControlIds[] = {roctracer::kRoctxProfilerPause,
                                      roctracer::kRoctxProfilerResume};
const uint32_t kMarkerNameIds[] = {
    roctracer::kRoctxNameOsThread, roctracer::kRoctxNameHsaAgent,
    roctracer::kRoctxNameHipDevice, roctracer::kRoctxNameHipStream};
static_assert(sizeof(kMarkerControlIds) / sizeof(kMarkerControlIds[0]) ==
                      ROCPROFILER_MARKER_CONTROL_API_ID_LAST &&
                  sizeof(kMarkerNameIds) / sizeof(kMarkerNameIds[0]) ==
                      ROCPROFILER_MARKER_NAME_API_ID_LAST,
              "one request per marker operation");
const char* const kMarkerCoreNames[] = {"roctxMarkA",     "roctxRangePushA",
                                        "roctxRangePop",  "roctxRangeStartA",
                                        "roctxRangeStop", "roctxGetThreadId"};
const char* const kMarkerControlNames[] = {"roctxProfilerPause",
                                           "roctxProfilerResume"};
const char* const kMarkerNameNames[] = {
    "roctxNameOsThread", "roctxNameHsaAgent", "roctxNameHipDevice",
    "roctxNameHipStream"};
const char* const kCodeObjectNames[] = {
    "CODE_OBJECT_LOAD", "CODE_OBJECT_DEVICE_KERNEL_SYMBOL_REGISTER",
    "CODE_OBJECT_HOST_KERNEL_SYMBOL_REGISTER"};
const char* const kScratchNames[] = {"SCRATCH_MEMORY_ALLOC",
                                     "SCRATCH_MEMORY_FREE",
                                     "SCRATCH_MEMORY_ASYNC_RECLAIM"};
const char* const kDispatchNames[] = {"KERNEL_DISPATCH_ENQUEUE",
                                      "KERNEL_DISPATCH_COMPLETE"};
const char* const kCopyNames[] = {
    "MEMORY_COPY_HOST_TO_HOST", "MEMORY_COPY_HOST_TO_DEVICE",
    "MEMORY_COPY_DEVICE_TO_HOST", "MEMORY_COPY_DEVICE_TO_DEVICE"};
const char* const kAllocNames[] = {
    "MEMORY_ALLOCATION_ALLOCATE", "MEMORY_ALLOCATION_VMEM_ALLOCATE",
    "MEMORY_ALLOCATION_FREE", "MEMORY_ALLOCATION_VMEM_FREE"};
const char* const kRuntimeInitNames[] = {
    "RUNTIME_INITIALIZATION_HSA",       "RUNTIME_INITIALIZATION_HIP",
    "RUNTIME_INITIALIZATION_MARKER",    "RUNTIME_INITIALIZATION_RCCL",
    "RUNTIME_INITIALIZATION_ROCDECODE", "RUNTIME_INITIALIZATION_ROCJPEG"};
// MARKER_CORE_RANGE_API's operations number from 0, as the marker API IDs.
const char* const kMarkerCoreRangeNames[] = {"roctxMarkA", "roctxThreadRangeA",
                                             "roctxProcessRangeA",
                                             "roctxGetThreadId"};
const char* const kStreamNames[] = {"HIP_STREAM_CREATE", "HIP_STREAM_DESTROY",
                                    "HIP_STREAM_SET"};
// RCCL's traced functions, numbered from 0 as rocprofiler_rccl_api_id_t
// (<rocprofiler-sdk/rccl/api_id.h>).
const char* const kRcclNames[] = {"ncclAllGather",
                                  "ncclAllReduce",
                                  "ncclAllToAll",
                                  "ncclAllToAllv",
                                  "ncclBroadcast",
                                  "ncclGather",
                                  "ncclReduce",
                                  "ncclReduceScatter",
                                  "ncclScatter",
                                  "ncclSend",
                                  "ncclRecv",
                                  "ncclRedOpCreatePreMulSum",
                                  "ncclRedOpDestroy",
                                  "ncclGroupStart",
                                  "ncclGroupEnd",
                                  "ncclGetVersion",
                                  "ncclGetUniqueId",
                                  "ncclCommInitRank",
                                  "ncclCommInitAll",
                                  "ncclCommInitRankConfig",
                                  "ncclCommFinalize",
                                  "ncclCommDestroy",
                                  "ncclCommAbort",
                                  "ncclCommSplit",
                                  "ncclGetErrorString",
                                  "ncclGetLastError",
                                  "ncclCommGetAsyncError",
                                  "ncclCommCount",
                                  "ncclCommCuDevice",
                                  "ncclCommUserRank",
                                  "ncclMemAlloc",
                                  "ncclMemFree",
                                  "mscclLoadAlgo",
                                  "mscclRunAlgo",
                                  "mscclUnloadAlgo",
                                  "ncclCommRegister",
                                  "ncclCommDeregister"};
static_assert(sizeof(kRcclNames) / sizeof(kRcclNames[0]) ==
                  ROCPROFILER_RCCL_API_ID_LAST,
              "one name per RCCL operation");
// The OpenMP tools callbacks, numbered from 0 as
// rocprofiler_ompt_operation_t (<rocprofiler-sdk/ompt/api_id.h>); the names
// are the callbacks' with "omp_" in front, as rocprofiler-sdk 1.0.0 names
// them.
const char* const kOmptNames[] = {"omp_thread_begin",
                                  "omp_thread_end",
                                  "omp_parallel_begin",
                                  "omp_parallel_end",
                                  "omp_task_create",
                                  "omp_task_schedule",
                                  "omp_implicit_task",
                                  "omp_device_initialize",
                                  "omp_device_finalize",
                                  "omp_device_load",
                                  "omp_sync_region_wait",
                                  "omp_mutex_released",
                                  "omp_dependences",
                                  "omp_task_dependence",
                                  "omp_work",
                                  "omp_masked",
                                  "omp_sync_region",
                                  "omp_lock_init",
                                  "omp_lock_destroy",
                                  "omp_mutex_acquire",
                                  "omp_mutex_acquired",
                                  "omp_nest_lock",
                                  "omp_flush",
                                  "omp_cancel",
                                  "omp_reduction",
                                  "omp_dispatch",
                                  "omp_target_emi",
                                  "omp_target_data_op_emi",
                                  "omp_target_submit_emi",
                                  "omp_error",
                                  "omp_callback_functions"};
static_assert(sizeof(kOmptNames) / sizeof(kOmptNames[0]) ==
                  ROCPROFILER_OMPT_ID_LAST,
              "one name per OMPT operation");
// rocDecode's functions, numbered from 0 as rocprofiler_rocdecode_api_id_t
// (<rocprofiler-sdk/rocdecode/api_id.h>).
const char* const kRocdecodeNames[] = {
    "rocDecCreateVideoParser",     "rocDecParseVideoData",
    "rocDecDestroyVideoParser",    "rocDecCreateDecoder",
    "rocDecDestroyDecoder",        "rocDecGetDecoderCaps",
    "rocDecDecodeFrame",           "rocDecGetDecodeStatus",
    "rocDecReconfigureDecoder",    "rocDecGetVideoFrame",
    "rocDecGetErrorName",          "rocDecCreateBitstreamReader",
    "rocDecGetBitstreamCodecType", "rocDecGetBitstreamBitDepth",
    "rocDecGetBitstreamPicData",   "rocDecDestroyBitstreamReader"};
static_assert(sizeof(kRocdecodeNames) / sizeof(kRocdecodeNames[0]) ==
                  ROCPROFILER_ROCDECODE_API_ID_LAST,
              "one name per rocDecode operation");
// rocJPEG's functions, numbered from 0 as rocprofiler_rocjpeg_api_id_t
// (<rocprofiler-sdk/rocjpeg/api_id.h>).
const char* const kRocjpegNames[] = {
    "rocJpegStreamCreate", "rocJpegStreamParse",   "rocJpegStreamDestroy",
    "rocJpegCreate",       "rocJpegDestroy",       "rocJpegGetImageInfo",
    "rocJpegDecode",       "rocJpegDecodeBatched", "rocJpegGetErrorName"};
static_assert(sizeof(kRocjpegNames) / sizeof(kRocjpegNames[0]) ==
                  ROCPROFILER_ROCJPEG_API_ID_LAST,
              "one name per rocJPEG operation");

constexpr uint32_t kHsaDomain = ACTIVITY_DOMAIN_HSA_API;
constexpr uint32_t kHipDomain = ACTIVITY_DOMAIN_HIP_API;
constexpr uint32_t kRoctxDomain = ACTIVITY_DOMAIN_ROCTX;
constexpr uint32_t kRequestDomain = roctracer::kRoctxRequestDomain;
static_assert(kHsaDomain < kCallMapDomains - 1 &&
                  kHipDomain < kCallMapDomains - 1 &&
                  kRoctxDomain < kCallMapDomains - 1 &&
                  kRequestDomain >= kCallMapDomains,
              "MapCall's domain index");

KindInfo Api(const gen::KindOps& t, Source s) {
  return KindInfo{t.kind, s, 0, static_cast<int32_t>(t.count), t.ids, t.names};
}

// A kind whose operations are the SDK's enum (NONE = 0 not an operation).
template <size_t N>
KindInfo Named(const char* name, const char* const (&names)[N],
               Source source = Source::kNone) {
  return KindInfo{name, source, 1, static_cast<int32_t>(N + 1), nullptr, names};
}

struct Tables {
  KindInfo kinds[kKindCount];
  KindOp hsa[HSA_API_ID_NUMBER];
  KindOp hip[HIP_API_ID_NUMBER];
  KindOp roctx[ROCTX_API_ID_NUMBER];
  KindOp request[roctracer::kRoctxRequestCount];

  Tables() {
    std::memset(static_cast<void*>(this), 0, sizeof(*this));
    using gen::kHipKinds;
    using gen::kHsaKinds;
    kinds[ROCPROFILER_CALLBACK_TRACING_HSA_CORE_API] =
        Api(kHsaKinds[0], Source::kHsa);
    kinds[ROCPROFILER_CALLBACK_TRACING_HSA_AMD_EXT_API] =
        Api(kHsaKinds[1], Source::kHsa);
    kinds[ROCPROFILER_CALLBACK_TRACING_HSA_IMAGE_EXT_API] =
        Api(kHsaKinds[2], Source::kHsa);
    kinds[ROCPROFILER_CALLBACK_TRACING_HSA_FINALIZE_EXT_API] =
        Api(kHsaKinds[3], Source::kHsa);
    kinds[ROCPROFILER_CALLBACK_TRACING_HIP_RUNTIME_API] =
        Api(kHipKinds[0], Source::kHip);
    kinds[ROCPROFILER_CALLBACK_TRACING_HIP_COMPILER_API] =
        Api(kHipKinds[1], Source::kHip);
    kinds[ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_API] =
        KindInfo{"MARKER_CORE_API",
                 Source::kRoctx,
                 0,
                 ROCPROFILER_MARKER_CORE_API_ID_LAST,
                 kMarkerCoreIds,
                 kMarkerCoreNames};
    kinds[ROCPROFILER_CALLBACK_TRACING_MARKER_CONTROL_API] =
        KindInfo{"MARKER_CONTROL_API",
                 Source::kRoctxRequest,
                 0,
                 ROCPROFILER_MARKER_CONTROL_API_ID_LAST,
                 kMarkerControlIds,
                 kMarkerControlNames};
    kinds[ROCPROFILER_CALLBACK_TRACING_MARKER_NAME_API] =
        KindInfo{"MARKER_NAME_API",
                 Source::kRoctxRequest,
                 0,
                 ROCPROFILER_MARKER_NAME_API_ID_LAST,
                 kMarkerNameIds,
                 kMarkerNameNames};
    kinds[ROCPROFILER_CALLBACK_TRACING_CODE_OBJECT] =
        Named("CODE_OBJECT", kCodeObjectNames, Source::kGpu);
    kinds[ROCPROFILER_CALLBACK_TRACING_SCRATCH_MEMORY] =
        Named("SCRATCH_MEMORY", kScratchNames, Source::kGpu);
    kinds[ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH] =
        Named("KERNEL_DISPATCH", kDispatchNames, Source::kGpu);
    kinds[ROCPROFILER_CALLBACK_TRACING_MEMORY_COPY] =
        Named("MEMORY_COPY", kCopyNames, Source::kGpu);
    // Named (the operations are rocprofiler-sdk's RCCL API IDs), not traced.
    kinds[ROCPROFILER_CALLBACK_TRACING_RCCL_API] =
        KindInfo{"RCCL_API", Source::kNone, 0, ROCPROFILER_RCCL_API_ID_LAST,
                 nullptr,    kRcclNames};
    // Named (the operations are rocprofiler-sdk's OMPT IDs); this library
    // is not an OpenMP tool.
    kinds[ROCPROFILER_CALLBACK_TRACING_OMPT] =
        KindInfo{"OMPT",  Source::kNone, 0, ROCPROFILER_OMPT_ID_LAST,
                 nullptr, kOmptNames};
    kinds[ROCPROFILER_CALLBACK_TRACING_MEMORY_ALLOCATION] =
        Named("MEMORY_ALLOCATION", kAllocNames, Source::kMemory);
    kinds[ROCPROFILER_CALLBACK_TRACING_RUNTIME_INITIALIZATION] = Named(
        "RUNTIME_INITIALIZATION", kRuntimeInitNames, Source::kRuntimeInit);
    // Named (the operations are rocprofiler-sdk's rocDecode API IDs), not
    // traced.
    kinds[ROCPROFILER_CALLBACK_TRACING_ROCDECODE_API] = KindInfo{
        "ROCDECODE_API", Source::kNone,  0, ROCPROFILER_ROCDECODE_API_ID_LAST,
        nullptr,         kRocdecodeNames};
    // Named (the operations are rocprofiler-sdk's rocJPEG API IDs), not
    // traced.
    kinds[ROCPROFILER_CALLBACK_TRACING_ROCJPEG_API] = KindInfo{
        "ROCJPEG_API", Source::kNone, 0, ROCPROFILER_ROCJPEG_API_ID_LAST,
        nullptr,       kRocjpegNames};
    kinds[ROCPROFILER_CALLBACK_TRACING_HIP_STREAM] =
        Named("HIP_STREAM", kStreamNames, Source::kHipStream);
    // The same rocTX calls as MARKER_CORE_API, a push and its pop (a start
    // and its stop) reported as one range.
    kinds[ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_RANGE_API] =
        KindInfo{"MARKER_CORE_RANGE_API",
                 Source::kRoctxRange,
                 0,
                 ROCPROFILER_MARKER_CORE_RANGE_API_ID_LAST,
                 nullptr,
                 kMarkerCoreRangeNames};

    for (int k = 1; k < kKindCount; ++k) {
      const KindInfo& info = kinds[k];
      if (info.ids == nullptr) continue;  // not an API kind
      for (int32_t op = info.first_op; op < info.last_op; ++op) {
        const uint32_t id = info.ids[op];
        KindOp* slot = nullptr;
        if (info.source == Source::kHsa && id < HSA_API_ID_NUMBER) {
          slot = &hsa[id];
        } else if (info.source == Source::kHip && id < HIP_API_ID_NUMBER) {
          slot = &hip[id];
        } else if (info.source == Source::kRoctx && id < ROCTX_API_ID_NUMBER) {
          slot = &roctx[id];
        } else if (info.source == Source::kRoctxRequest &&
                   id < roctracer::kRoctxRequestCount) {
          slot = &request[id];
        }
        if (slot == nullptr) continue;
        size_t args = 0;
        if (info.source == Source::kHsa)
          args = roctracer::hsa_api::ArgsSize(id);
        if (info.source == Source::kHip)
          args = roctracer::hip_api::ArgsSize(id);
        *slot =
            KindOp{static_cast<uint16_t>(k), static_cast<uint16_t>(args), op};
      }
    }
    request[roctracer::kRoctxGetThreadId] =
        KindOp{ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_API, 0,
               ROCPROFILER_MARKER_CORE_API_ID_roctxGetThreadId};
    g_call_maps[kHsaDomain] = CallMap{hsa, HSA_API_ID_NUMBER};
    g_call_maps[kHipDomain] = CallMap{hip, HIP_API_ID_NUMBER};
    g_call_maps[kRoctxDomain] = CallMap{roctx, ROCTX_API_ID_NUMBER};
    g_call_maps[kCallMapDomains - 1] =
        CallMap{request, roctracer::kRoctxRequestCount};
    g_call_maps_ready.store(true, std::memory_order_release);
  }
};

// Built on first use (a function-local static: callers may run during other
// objects' static initialisation).
const Tables& T() noexcept {
  static const Tables tables;
  return tables;
}

}  // namespace

const KindInfo* FindKind(int32_t kind) noexcept {
  if (kind <= ROCPROFILER_CALLBACK_TRACING_NONE || kind >= kKindCount) {
    return nullptr;
  }
  return &T().kinds[kind];
}

const char* OperationName(const KindInfo& k, int32_t op) noexcept {
  if (!ValidOp(k, op)) return nullptr;
  return k.op_names != nullptr ? k.op_names[op - k.first_op] : nullptr;
}

CallMap g_call_maps[kCallMapDomains] = {};
std::atomic<bool> g_call_maps_ready{false};

KindOp MapCallSlow(uint32_t domain, uint32_t id) noexcept {
  const Tables& t = T();
  if (domain == kHsaDomain) {
    return id < HSA_API_ID_NUMBER ? t.hsa[id] : KindOp{0, 0, 0};
  }
  if (domain == kHipDomain) {
    return id < HIP_API_ID_NUMBER ? t.hip[id] : KindOp{0, 0, 0};
  }
  if (domain == kRoctxDomain) {
    return id < ROCTX_API_ID_NUMBER ? t.roctx[id] : KindOp{0, 0, 0};
  }
  if (domain == kRequestDomain) {
    return id < roctracer::kRoctxRequestCount ? t.request[id] : KindOp{0, 0, 0};
  }
  return KindOp{0, 0, 0};
}

bool DomainIdOf(int32_t kind, int32_t op, uint32_t* domain,
                uint32_t* id) noexcept {
  const KindInfo* k = FindKind(kind);
  if (k == nullptr || k->ids == nullptr || !ValidOp(*k, op) ||
      k->ids[op] == gen::kUntraced) {
    return false;
  }
  *domain = k->source == Source::kHsa     ? kHsaDomain
            : k->source == Source::kHip   ? kHipDomain
            : k->source == Source::kRoctx ? kRoctxDomain
                                          : kRequestDomain;
  *id = k->ids[op];
  return true;
}

}  // namespace rocprofiler_sdk
