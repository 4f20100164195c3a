/* Linked against librocprofiler-sdk.so as rocprofiler-sdk's tools are:
 * every rocprofiler_* call must reach libroctracer64.so.4's implementation
 * (one tracer), and the program must name librocprofiler-sdk.so.1. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <rocprofiler-sdk/hip/compiler_api_id.h>
#include <rocprofiler-sdk/hip/runtime_api_id.h>
#include <rocprofiler-sdk/hip/table_id.h>
#include <rocprofiler-sdk/hsa/amd_ext_api_id.h>
#include <rocprofiler-sdk/hsa/core_api_id.h>
#include <rocprofiler-sdk/hsa/finalize_ext_api_id.h>
#include <rocprofiler-sdk/hsa/image_ext_api_id.h>
#include <rocprofiler-sdk/hsa/table_id.h>
#include <rocprofiler-sdk/marker/table_id.h>
#include <rocprofiler-sdk/rocprofiler.h>
#include <stdio.h>
#include <string.h>

static int failures = 0;
static void Check(int ok, const char* what) {
  printf("%s: %s\n", ok ? "ok" : "FAILED", what);
  if (!ok) ++failures;
}

int main(void) {
  /* 1.0.0's header names for the per-release operation IDs exist. */
  Check(ROCPROFILER_HSA_CORE_API_ID_hsa_init == 0 &&
            ROCPROFILER_HIP_TABLE_ID_Runtime == 1 &&
            ROCPROFILER_HSA_TABLE_ID_Core == 0 &&
            ROCPROFILER_MARKER_TABLE_ID_RoctxCoreRange == 3,
        "operation and table IDs under 1.0.0's header names");
  rocprofiler_version_triplet_t v = {0, 0, 0};
  Check(rocprofiler_get_version_triplet(&v) == ROCPROFILER_STATUS_SUCCESS &&
            v.major == 1 && v.minor == 0 && v.patch == 0,
        "rocprofiler_get_version_triplet is 1.0.0");
  rocprofiler_context_id_t ctx = {0};
  Check(rocprofiler_create_context(&ctx) ==
            ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED,
        "rocprofiler_create_context outside a tool's initialize is locked");
  Check(rocprofiler_flush_buffer((rocprofiler_buffer_id_t){12345}) ==
            ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND,
        "rocprofiler_flush_buffer of an unknown buffer");
  /* The program's own reference and libroctracer64's definition are one. */
  void* tracer = dlopen("libroctracer64.so.4", RTLD_NOW | RTLD_NOLOAD);
  Check(tracer != NULL, "libroctracer64.so.4 is loaded");
  if (tracer != NULL) {
    void* theirs = dlsym(tracer, "rocprofiler_create_buffer");
    Check(theirs == (void*)&rocprofiler_create_buffer,
          "rocprofiler_create_buffer resolves into libroctracer64.so.4");
    Dl_info info;
    Check(dladdr((void*)&rocprofiler_query_available_agents, &info) != 0 &&
              strstr(info.dli_fname, "libroctracer64.so.4") != NULL,
          "rocprofiler_query_available_agents is libroctracer64.so.4's");
  }
  return failures == 0 ? 0 : 1;
}
