// Version, status strings, timestamps and thread IDs.
#include <cstdint>
#include <cstring>

#include "rocprofiler-sdk/rocprofiler.h"
#include "runtime/clock/clock.h"
#include "runtime/platform/thread_id.h"

namespace {

struct StatusText {
  const char* name;
  const char* text;
};

#define ROCP_STATUS(suffix, text) \
  { "ROCPROFILER_STATUS_" #suffix, text }
// Indexed by rocprofiler_status_t.
const StatusText kStatus[] = {
    ROCP_STATUS(SUCCESS, "success"),
    ROCP_STATUS(ERROR, "general error"),
    ROCP_STATUS(ERROR_CONTEXT_NOT_FOUND, "no context has this ID"),
    ROCP_STATUS(ERROR_BUFFER_NOT_FOUND, "no buffer has this ID"),
    ROCP_STATUS(ERROR_KIND_NOT_FOUND, "unknown tracing kind"),
    ROCP_STATUS(ERROR_OPERATION_NOT_FOUND, "unknown operation for this kind"),
    ROCP_STATUS(ERROR_THREAD_NOT_FOUND, "no thread has this ID"),
    ROCP_STATUS(ERROR_AGENT_NOT_FOUND, "no agent has this ID"),
    ROCP_STATUS(ERROR_COUNTER_NOT_FOUND, "no counter has this ID"),
    ROCP_STATUS(ERROR_CONTEXT_ERROR, "context error"),
    ROCP_STATUS(ERROR_CONTEXT_INVALID, "context is not valid"),
    ROCP_STATUS(ERROR_CONTEXT_NOT_STARTED, "context could not be started"),
    ROCP_STATUS(ERROR_CONTEXT_CONFLICT, "context conflicts with another"),
    ROCP_STATUS(ERROR_CONTEXT_ID_NOT_ZERO, "context ID was not zero"),
    ROCP_STATUS(ERROR_BUFFER_BUSY, "buffer is busy"),
    ROCP_STATUS(ERROR_SERVICE_ALREADY_CONFIGURED,
                "this kind is already configured in this context"),
    ROCP_STATUS(ERROR_CONFIGURATION_LOCKED,
                "configuration is only possible inside a tool's initialize"),
    ROCP_STATUS(ERROR_NOT_IMPLEMENTED, "not implemented by this library"),
    ROCP_STATUS(ERROR_INCOMPATIBLE_ABI, "incompatible data structure ABI"),
    ROCP_STATUS(ERROR_INVALID_ARGUMENT, "invalid argument"),
    ROCP_STATUS(ERROR_METRIC_NOT_VALID_FOR_AGENT,
                "metric not valid for this agent"),
    ROCP_STATUS(ERROR_FINALIZED, "already finalized"),
    ROCP_STATUS(ERROR_HSA_NOT_LOADED, "HSA runtime not loaded"),
    ROCP_STATUS(ERROR_DIM_NOT_FOUND, "counter dimension not found"),
    ROCP_STATUS(ERROR_PROFILE_COUNTER_NOT_FOUND, "profile counter not found"),
    ROCP_STATUS(ERROR_AST_GENERATION_FAILED, "counter AST generation failed"),
    ROCP_STATUS(ERROR_AST_NOT_FOUND, "counter AST not found"),
    ROCP_STATUS(ERROR_AQL_NO_EVENT_COORD, "AQL event coordinate not found"),
    ROCP_STATUS(ERROR_INCOMPATIBLE_KERNEL, "kernel driver too old"),
    ROCP_STATUS(ERROR_OUT_OF_RESOURCES, "out of resources"),
    ROCP_STATUS(ERROR_PROFILE_NOT_FOUND, "counter profile not found"),
    ROCP_STATUS(ERROR_AGENT_DISPATCH_CONFLICT,
                "agent and dispatch counting in one context"),
    ROCP_STATUS(INTERNAL_NO_AGENT_CONTEXT, "no agent context"),
    ROCP_STATUS(ERROR_SAMPLE_RATE_EXCEEDED, "sample rate exceeded"),
    ROCP_STATUS(ERROR_NO_PROFILE_QUEUE, "profile queue creation failed"),
    ROCP_STATUS(ERROR_NO_HARDWARE_COUNTERS, "no hardware counters given"),
    ROCP_STATUS(ERROR_AGENT_MISMATCH, "agent mismatch"),
    ROCP_STATUS(ERROR_NOT_AVAILABLE, "service not available"),
    ROCP_STATUS(ERROR_EXCEEDS_HW_LIMIT, "exceeds hardware limits"),
    ROCP_STATUS(ERROR_AGENT_ARCH_NOT_SUPPORTED,
                "agent architecture not supported"),
    ROCP_STATUS(ERROR_PERMISSION_DENIED, "permission denied"),
};
#undef ROCP_STATUS
static_assert(sizeof(kStatus) / sizeof(kStatus[0]) == ROCPROFILER_STATUS_LAST,
              "one entry per status");

const StatusText* Find(const rocprofiler_status_t& s) {
  // Read as an integer: any value may arrive, and loading an enum that holds
  // none of its enumerators is undefined.
  int32_t i;
  static_assert(sizeof(s) == sizeof(i), "an int-sized enum");
  std::memcpy(&i, &s, sizeof(i));
  return i >= 0 && i < ROCPROFILER_STATUS_LAST ? &kStatus[i] : nullptr;
}

}  // namespace

extern "C" {

rocprofiler_status_t rocprofiler_get_version(uint32_t* major, uint32_t* minor,
                                             uint32_t* patch) {
  if (major != nullptr) *major = ROCPROFILER_VERSION_MAJOR;
  if (minor != nullptr) *minor = ROCPROFILER_VERSION_MINOR;
  if (patch != nullptr) *patch = ROCPROFILER_VERSION_PATCH;
  return ROCPROFILER_STATUS_SUCCESS;
}

const char* rocprofiler_get_status_name(rocprofiler_status_t status) {
  const StatusText* s = Find(status);
  return s != nullptr ? s->name : nullptr;
}

const char* rocprofiler_get_status_string(rocprofiler_status_t status) {
  const StatusText* s = Find(status);
  return s != nullptr ? s->text : nullptr;
}

rocprofiler_status_t rocprofiler_get_timestamp(rocprofiler_timestamp_t* ts) {
  if (ts == nullptr) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
  *ts = roctracer::TimestampNs();
  return ROCPROFILER_STATUS_SUCCESS;
}

rocprofiler_status_t rocprofiler_get_thread_id(rocprofiler_thread_id_t* tid) {
  if (tid == nullptr) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
  *tid = roctracer::ThreadId();
  return ROCPROFILER_STATUS_SUCCESS;
}

}  // extern "C"
