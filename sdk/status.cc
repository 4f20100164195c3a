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
// rocprofiler-sdk 1.0.0's strings, verbatim: rocprofiler_get_status_string
// is observable API output (tools log and compare it). Indexed by
// rocprofiler_status_t.
const StatusText kStatus[] = {
    ROCP_STATUS(SUCCESS, "Success"),
    ROCP_STATUS(ERROR, "General error"),
    ROCP_STATUS(ERROR_CONTEXT_NOT_FOUND, "Context ID not found"),
    ROCP_STATUS(ERROR_BUFFER_NOT_FOUND, "Buffer ID not found"),
    ROCP_STATUS(ERROR_KIND_NOT_FOUND, "Kind ID not found"),
    ROCP_STATUS(ERROR_OPERATION_NOT_FOUND, "Operation ID not found"),
    ROCP_STATUS(ERROR_THREAD_NOT_FOUND, "Thread ID not found"),
    ROCP_STATUS(ERROR_AGENT_NOT_FOUND, "Agent ID not found"),
    ROCP_STATUS(ERROR_COUNTER_NOT_FOUND, "HW counter not found"),
    ROCP_STATUS(ERROR_CONTEXT_ERROR, "General context error"),
    ROCP_STATUS(ERROR_CONTEXT_INVALID, "Context configuration is not valid"),
    ROCP_STATUS(ERROR_CONTEXT_NOT_STARTED, "Context failed to start"),
    ROCP_STATUS(ERROR_CONTEXT_CONFLICT,
                "Context has a conflict with another context"),
    ROCP_STATUS(ERROR_CONTEXT_ID_NOT_ZERO,
                "Context ID should be initialized to zero"),
    ROCP_STATUS(ERROR_BUFFER_BUSY,
                "Buffer operation failed because it is currently busy handling "
                "another request"),
    ROCP_STATUS(ERROR_SERVICE_ALREADY_CONFIGURED,
                "Service configuration request would overwrite existing "
                "service configuration values"),
    ROCP_STATUS(ERROR_CONFIGURATION_LOCKED,
                "Configuration request occurred outside of valid rocprofiler "
                "configuration period"),
    ROCP_STATUS(ERROR_NOT_IMPLEMENTED,
                "API function is defined but not implemented"),
    ROCP_STATUS(ERROR_INCOMPATIBLE_ABI,
                "Data structure provided by user has a incompatible binary "
                "interface with this version of rocprofiler"),
    ROCP_STATUS(ERROR_INVALID_ARGUMENT,
                "Function invoked with one or more invalid arguments"),
    ROCP_STATUS(ERROR_METRIC_NOT_VALID_FOR_AGENT,
                "Metric is not valid for the agent"),
    ROCP_STATUS(ERROR_FINALIZED,
                "Invalid request because rocprofiler has finalized"),
    ROCP_STATUS(ERROR_HSA_NOT_LOADED,
                "Function call requires that HSA is loaded"),
    ROCP_STATUS(ERROR_DIM_NOT_FOUND, "Dimension is not found for counter"),
    ROCP_STATUS(ERROR_PROFILE_COUNTER_NOT_FOUND,
                "Profile could not find counter for GPU"),
    ROCP_STATUS(ERROR_AST_GENERATION_FAILED,
                "AST could not be generated correctly"),
    ROCP_STATUS(ERROR_AST_NOT_FOUND, "AST was not found"),
    ROCP_STATUS(ERROR_AQL_NO_EVENT_COORD,
                "AQL Profiler was not able to find event coordinates for "
                "defined counters"),
    ROCP_STATUS(
        ERROR_INCOMPATIBLE_KERNEL,
        "A service depends on a newer version of KFD (amdgpu kernel driver)"),
    ROCP_STATUS(ERROR_OUT_OF_RESOURCES,
                "The given resources are insufficient to complete operation"),
    ROCP_STATUS(ERROR_PROFILE_NOT_FOUND, "Could not find counter profile"),
    ROCP_STATUS(ERROR_AGENT_DISPATCH_CONFLICT,
                "Cannot have both an agent counter collection and a dispatch "
                "counter in the same context"),
    ROCP_STATUS(INTERNAL_NO_AGENT_CONTEXT,
                "No context has agent profiling enabled, error generally not "
                "returned to tools"),
    ROCP_STATUS(ERROR_SAMPLE_RATE_EXCEEDED,
                "A sample is in progress and a new sample cannot be started"),
    ROCP_STATUS(ERROR_NO_PROFILE_QUEUE,
                "No profile queue is available for this agent"),
    ROCP_STATUS(ERROR_NO_HARDWARE_COUNTERS,
                "Counter set does not include any hardware counters"),
    ROCP_STATUS(
        ERROR_AGENT_MISMATCH,
        "Counter profile agent does not match the agent in the context"),
    ROCP_STATUS(ERROR_NOT_AVAILABLE,
                "The service is not available. Please refer to API functions "
                "that return this status code for more information."),
    ROCP_STATUS(ERROR_EXCEEDS_HW_LIMIT,
                "Request exceeds the capabilities of the hardware to collect"),
    ROCP_STATUS(
        ERROR_AGENT_ARCH_NOT_SUPPORTED,
        "Agent HW architecture is not supported, no counter metrics found."),
    ROCP_STATUS(
        ERROR_PERMISSION_DENIED,
        "Required permission (CAP_PERFMON) is not set, permission denied"),
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

rocprofiler_status_t rocprofiler_get_version_triplet(
    rocprofiler_version_triplet_t* info) {
  if (info == nullptr) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
  *info = rocprofiler_version_triplet_t{ROCPROFILER_VERSION_MAJOR,
                                        ROCPROFILER_VERSION_MINOR,
                                        ROCPROFILER_VERSION_PATCH};
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
  *ts = roctracer::clock::TimestampNs();
  return ROCPROFILER_STATUS_SUCCESS;
}

rocprofiler_status_t rocprofiler_get_thread_id(rocprofiler_thread_id_t* tid) {
  if (tid == nullptr) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
  *tid = roctracer::platform::ThreadId();
  return ROCPROFILER_STATUS_SUCCESS;
}

}  // extern "C"
