// The OMPT hand-over (ompt.h). This library is not an OpenMP tool, so its
// OMPT side is never initialized or finalized, and a tool deferring its
// ompt_start_tool to it gets NULL, the OMPT answer for "no tool".
#include "rocprofiler-sdk/ompt.h"

extern "C" {

ROCPROFILER_API rocprofiler_status_t
rocprofiler_ompt_is_initialized(int* status) {
  if (status == nullptr) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
  *status = 0;
  return ROCPROFILER_STATUS_SUCCESS;
}

ROCPROFILER_API rocprofiler_status_t
rocprofiler_ompt_is_finalized(int* status) {
  if (status == nullptr) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
  *status = 0;
  return ROCPROFILER_STATUS_SUCCESS;
}

ROCPROFILER_API ompt_start_tool_result_t* rocprofiler_ompt_start_tool(
    unsigned int, const char*) {
  return nullptr;
}

}  // extern "C"
