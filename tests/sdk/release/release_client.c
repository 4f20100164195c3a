/* Checks the SDK front end against rocprofiler-sdk 1.0.0 (ROCm 7.0), the
 * release it matches: the facts below are that release's (its fwd.h,
 * callback_tracing.h, version.h and status strings), written out here
 * independently of our headers and sources. Built by the system C compiler with
 * default flags, as a tool author builds, and linked against the
 * installed-layout libroctracer64.so. Prints one line per mismatch and "N
 * passed, M failed". */
#include <rocprofiler-sdk/rocprofiler.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

static int g_passed, g_failed;

static void Check(int ok, const char* what) {
  if (ok) {
    ++g_passed;
  } else {
    ++g_failed;
    printf("FAILED: %s\n", what);
  }
}

static int SameString(const char* a, const char* b) {
  return a != NULL && b != NULL && strcmp(a, b) == 0;
}

struct Status {
  int value;
  const char* name;
  const char* text;
};

#define S(v, n, t) \
  { v, "ROCPROFILER_STATUS_" n, t }
static const struct Status kStatus[] = {
    S(0, "SUCCESS", "Success"),
    S(1, "ERROR", "General error"),
    S(2, "ERROR_CONTEXT_NOT_FOUND", "Context ID not found"),
    S(3, "ERROR_BUFFER_NOT_FOUND", "Buffer ID not found"),
    S(4, "ERROR_KIND_NOT_FOUND", "Kind ID not found"),
    S(5, "ERROR_OPERATION_NOT_FOUND", "Operation ID not found"),
    S(6, "ERROR_THREAD_NOT_FOUND", "Thread ID not found"),
    S(7, "ERROR_AGENT_NOT_FOUND", "Agent ID not found"),
    S(8, "ERROR_COUNTER_NOT_FOUND", "HW counter not found"),
    S(9, "ERROR_CONTEXT_ERROR", "General context error"),
    S(10, "ERROR_CONTEXT_INVALID", "Context configuration is not valid"),
    S(11, "ERROR_CONTEXT_NOT_STARTED", "Context failed to start"),
    S(12, "ERROR_CONTEXT_CONFLICT",
      "Context has a conflict with another context"),
    S(13, "ERROR_CONTEXT_ID_NOT_ZERO",
      "Context ID should be initialized to zero"),
    S(14, "ERROR_BUFFER_BUSY",
      "Buffer operation failed because it is currently busy handling "
      "another request"),
    S(15, "ERROR_SERVICE_ALREADY_CONFIGURED",
      "Service configuration request would overwrite existing service "
      "configuration values"),
    S(16, "ERROR_CONFIGURATION_LOCKED",
      "Configuration request occurred outside of valid rocprofiler "
      "configuration period"),
    S(17, "ERROR_NOT_IMPLEMENTED",
      "API function is defined but not implemented"),
    S(18, "ERROR_INCOMPATIBLE_ABI",
      "Data structure provided by user has a incompatible binary interface "
      "with this version of rocprofiler"),
    S(19, "ERROR_INVALID_ARGUMENT",
      "Function invoked with one or more invalid arguments"),
    S(20, "ERROR_METRIC_NOT_VALID_FOR_AGENT",
      "Metric is not valid for the agent"),
    S(21, "ERROR_FINALIZED",
      "Invalid request because rocprofiler has finalized"),
    S(22, "ERROR_HSA_NOT_LOADED", "Function call requires that HSA is loaded"),
    S(23, "ERROR_DIM_NOT_FOUND", "Dimension is not found for counter"),
    S(24, "ERROR_PROFILE_COUNTER_NOT_FOUND",
      "Profile could not find counter for GPU"),
    S(25, "ERROR_AST_GENERATION_FAILED",
      "AST could not be generated correctly"),
    S(26, "ERROR_AST_NOT_FOUND", "AST was not found"),
    S(27, "ERROR_AQL_NO_EVENT_COORD",
      "AQL Profiler was not able to find event coordinates for defined "
      "counters"),
    S(28, "ERROR_INCOMPATIBLE_KERNEL",
      "A service depends on a newer version of KFD (amdgpu kernel driver)"),
    S(29, "ERROR_OUT_OF_RESOURCES",
      "The given resources are insufficient to complete operation"),
    S(30, "ERROR_PROFILE_NOT_FOUND", "Could not find counter profile"),
    S(31, "ERROR_AGENT_DISPATCH_CONFLICT",
      "Cannot have both an agent counter collection and a dispatch counter "
      "in the same context"),
    S(32, "INTERNAL_NO_AGENT_CONTEXT",
      "No context has agent profiling enabled, error generally not returned "
      "to tools"),
    S(33, "ERROR_SAMPLE_RATE_EXCEEDED",
      "A sample is in progress and a new sample cannot be started"),
    S(34, "ERROR_NO_PROFILE_QUEUE",
      "No profile queue is available for this agent"),
    S(35, "ERROR_NO_HARDWARE_COUNTERS",
      "Counter set does not include any hardware counters"),
    S(36, "ERROR_AGENT_MISMATCH",
      "Counter profile agent does not match the agent in the context"),
    S(37, "ERROR_NOT_AVAILABLE",
      "The service is not available. Please refer to API functions that "
      "return this status code for more information."),
    S(38, "ERROR_EXCEEDS_HW_LIMIT",
      "Request exceeds the capabilities of the hardware to collect"),
    S(39, "ERROR_AGENT_ARCH_NOT_SUPPORTED",
      "Agent HW architecture is not supported, no counter metrics found."),
    S(40, "ERROR_PERMISSION_DENIED",
      "Required permission (CAP_PERFMON) is not set, permission denied"),
};
#undef S
enum { kStatusCount = sizeof(kStatus) / sizeof(kStatus[0]) };

/* rocprofiler_callback_tracing_kind_t: value and query name. */
static const char* const kKinds[] = {
    NULL, /* NONE */
    "HSA_CORE_API",
    "HSA_AMD_EXT_API",
    "HSA_IMAGE_EXT_API",
    "HSA_FINALIZE_EXT_API",
    "HIP_RUNTIME_API",
    "HIP_COMPILER_API",
    "MARKER_CORE_API",
    "MARKER_CONTROL_API",
    "MARKER_NAME_API",
    "CODE_OBJECT",
    "SCRATCH_MEMORY",
    "KERNEL_DISPATCH",
    "MEMORY_COPY",
    "RCCL_API",
    "OMPT",
    "MEMORY_ALLOCATION",
    "RUNTIME_INITIALIZATION",
    "ROCDECODE_API",
    "ROCJPEG_API",
    "HIP_STREAM",
    "MARKER_CORE_RANGE_API",
};
enum { kKindCount = sizeof(kKinds) / sizeof(kKinds[0]) };

static void CheckVersion(void) {
  uint32_t major = 9, minor = 9, patch = 9;
  Check(ROCPROFILER_VERSION_MAJOR == 1 && ROCPROFILER_VERSION_MINOR == 0 &&
            ROCPROFILER_VERSION_PATCH == 0,
        "ROCPROFILER_VERSION_MAJOR/MINOR/PATCH are 1/0/0");
  Check(ROCPROFILER_SDK_VERSION_MAJOR == 1 &&
            ROCPROFILER_SDK_VERSION_MINOR == 0 &&
            ROCPROFILER_SDK_VERSION_PATCH == 0,
        "ROCPROFILER_SDK_VERSION_MAJOR/MINOR/PATCH are 1/0/0");
  Check(ROCPROFILER_VERSION == 10000 && ROCPROFILER_SDK_VERSION == 10000,
        "ROCPROFILER_VERSION and ROCPROFILER_SDK_VERSION are 10000");
  Check(ROCPROFILER_SDK_COMPUTE_VERSION(6, 4, 3) == 60403,
        "ROCPROFILER_SDK_COMPUTE_VERSION(6, 4, 3) == 60403");
  Check(SameString(ROCPROFILER_VERSION_STRING, "1.0.0") &&
            SameString(ROCPROFILER_SDK_VERSION_STRING, "1.0.0"),
        "version strings are \"1.0.0\"");
  Check(ROCPROFILER_IS_ROCPROFILER_SDK == 1, "ROCPROFILER_IS_ROCPROFILER_SDK");
  Check(rocprofiler_get_version(&major, &minor, &patch) ==
            ROCPROFILER_STATUS_SUCCESS,
        "rocprofiler_get_version succeeds");
  Check(major == 1 && minor == 0 && patch == 0,
        "rocprofiler_get_version reports 1.0.0");
}

static void CheckStatus(void) {
  char what[256];
  int i;
  Check(ROCPROFILER_STATUS_LAST == kStatusCount,
        "ROCPROFILER_STATUS_LAST == 41");
  Check(ROCPROFILER_STATUS_ERROR_PERMISSION_DENIED == 40 &&
            ROCPROFILER_STATUS_ERROR_PROFILE_NOT_FOUND == 30 &&
            ROCPROFILER_STATUS_INTERNAL_NO_AGENT_CONTEXT == 32 &&
            ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT == 19,
        "status enumerators have 1.0.0's values");
  for (i = 0; i < kStatusCount; ++i) {
    const rocprofiler_status_t s = (rocprofiler_status_t)kStatus[i].value;
    snprintf(what, sizeof(what), "rocprofiler_get_status_name(%d) is %s",
             kStatus[i].value, kStatus[i].name);
    Check(SameString(rocprofiler_get_status_name(s), kStatus[i].name), what);
    snprintf(what, sizeof(what), "rocprofiler_get_status_string(%d) is \"%s\"",
             kStatus[i].value, kStatus[i].text);
    Check(SameString(rocprofiler_get_status_string(s), kStatus[i].text), what);
  }
  Check(
      rocprofiler_get_status_name((rocprofiler_status_t)kStatusCount) == NULL &&
          rocprofiler_get_status_string((rocprofiler_status_t)-1) == NULL,
      "no name or string outside the enum");
}

static void CheckKinds(void) {
  char what[256];
  int k;
  Check(ROCPROFILER_CALLBACK_TRACING_LAST == kKindCount,
        "ROCPROFILER_CALLBACK_TRACING_LAST == 22");
  Check(ROCPROFILER_CALLBACK_TRACING_HIP_STREAM == 20 &&
            ROCPROFILER_CALLBACK_TRACING_ROCJPEG_API == 19 &&
            ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_API == 7 &&
            ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_RANGE_API == 21,
        "kind enumerators have 1.0.0's values");
  for (k = 1; k < kKindCount; ++k) {
    const char* name = NULL;
    uint64_t len = 0;
    snprintf(what, sizeof(what), "kind %d is named %s", k, kKinds[k]);
    Check(rocprofiler_query_callback_tracing_kind_name(
              (rocprofiler_callback_tracing_kind_t)k, &name, &len) ==
                  ROCPROFILER_STATUS_SUCCESS &&
              SameString(name, kKinds[k]) && len == strlen(kKinds[k]),
          what);
  }
}

/* The GPU kinds' records as rocprofiler-sdk 1.0.0 lays them out on x86-64
 * (its fwd.h and callback_tracing.h): a tool reads them by offset. */
#define AT(type, field, offset) \
  Check(offsetof(type, field) == (offset), #type "." #field " at " #offset)
#define SYMBOL \
  rocprofiler_callback_tracing_code_object_kernel_symbol_register_data_t
static void CheckGpuRecords(void) {
  Check(sizeof(rocprofiler_kernel_dispatch_info_t) == 128,
        "sizeof(rocprofiler_kernel_dispatch_info_t) == 128");
  AT(rocprofiler_kernel_dispatch_info_t, agent_id, 8);
  AT(rocprofiler_kernel_dispatch_info_t, queue_id, 16);
  AT(rocprofiler_kernel_dispatch_info_t, kernel_id, 24);
  AT(rocprofiler_kernel_dispatch_info_t, dispatch_id, 32);
  AT(rocprofiler_kernel_dispatch_info_t, private_segment_size, 40);
  AT(rocprofiler_kernel_dispatch_info_t, group_segment_size, 44);
  AT(rocprofiler_kernel_dispatch_info_t, workgroup_size, 48);
  AT(rocprofiler_kernel_dispatch_info_t, grid_size, 60);
  AT(rocprofiler_kernel_dispatch_info_t, reserved_padding, 72);
  AT(rocprofiler_callback_tracing_kernel_dispatch_data_t, start_timestamp, 8);
  AT(rocprofiler_callback_tracing_kernel_dispatch_data_t, end_timestamp, 16);
  AT(rocprofiler_callback_tracing_kernel_dispatch_data_t, dispatch_info, 24);
  Check(sizeof(rocprofiler_callback_tracing_memory_copy_data_t) == 64,
        "sizeof(rocprofiler_callback_tracing_memory_copy_data_t) == 64");
  AT(rocprofiler_callback_tracing_memory_copy_data_t, dst_agent_id, 24);
  AT(rocprofiler_callback_tracing_memory_copy_data_t, src_agent_id, 32);
  AT(rocprofiler_callback_tracing_memory_copy_data_t, bytes, 40);
  AT(rocprofiler_callback_tracing_memory_copy_data_t, dst_address, 48);
  AT(rocprofiler_callback_tracing_memory_copy_data_t, src_address, 56);
  Check(sizeof(rocprofiler_callback_tracing_code_object_load_data_t) == 88,
        "sizeof(rocprofiler_callback_tracing_code_object_load_data_t) == 88");
  AT(rocprofiler_callback_tracing_code_object_load_data_t, code_object_id, 8);
  AT(rocprofiler_callback_tracing_code_object_load_data_t, agent_id, 16);
  AT(rocprofiler_callback_tracing_code_object_load_data_t, rocp_agent, 16);
  AT(rocprofiler_callback_tracing_code_object_load_data_t, hsa_agent, 24);
  AT(rocprofiler_callback_tracing_code_object_load_data_t, uri, 32);
  AT(rocprofiler_callback_tracing_code_object_load_data_t, load_delta, 56);
  AT(rocprofiler_callback_tracing_code_object_load_data_t, storage_type, 64);
  AT(rocprofiler_callback_tracing_code_object_load_data_t, storage_file, 72);
  AT(rocprofiler_callback_tracing_code_object_load_data_t, memory_base, 72);
  AT(rocprofiler_callback_tracing_code_object_load_data_t, memory_size, 80);
  Check(sizeof(SYMBOL) == 88,
        "sizeof(..._kernel_symbol_register_data_t) == 88");
  AT(SYMBOL, kernel_id, 8);
  AT(SYMBOL, code_object_id, 16);
  AT(SYMBOL, kernel_name, 24);
  AT(SYMBOL, kernel_object, 32);
  AT(SYMBOL, kernarg_segment_alignment, 44);
  AT(SYMBOL, private_segment_size, 52);
  AT(SYMBOL, accum_vgpr_count, 64);
  AT(SYMBOL, kernel_code_entry_byte_offset, 72);
  AT(SYMBOL, kernel_address, 80);
  Check(ROCPROFILER_KERNEL_DISPATCH_ENQUEUE == 1 &&
            ROCPROFILER_KERNEL_DISPATCH_COMPLETE == 2 &&
            ROCPROFILER_MEMORY_COPY_HOST_TO_DEVICE == 2 &&
            ROCPROFILER_CODE_OBJECT_DEVICE_KERNEL_SYMBOL_REGISTER == 2 &&
            ROCPROFILER_CODE_OBJECT_STORAGE_TYPE_FILE == 1 &&
            ROCPROFILER_CODE_OBJECT_STORAGE_TYPE_MEMORY == 2 &&
            ROCPROFILER_CALLBACK_PHASE_UNLOAD == 2,
        "GPU kinds' operation, phase and storage values");
}

int main(void) {
  CheckVersion();
  CheckStatus();
  CheckKinds();
  CheckGpuRecords();
  printf("%d passed, %d failed\n", g_passed, g_failed);
  return g_failed == 0 ? 0 : 1;
}
