// Streaming performance monitors (spm.h). rocprofiler-sdk 1.0.0 declares
// the service but does not implement it either; here it is
// NOT_IMPLEMENTED after the checks of a configuration call.
#include "rocprofiler-sdk/spm.h"

#include "sdk/hardware_services.h"

extern "C" {

ROCPROFILER_API rocprofiler_status_t rocprofiler_configure_spm_service(
    rocprofiler_context_id_t context_id, rocprofiler_buffer_id_t buffer_id,
    rocprofiler_counter_config_id_t, uint64_t) {
  using namespace rocprofiler_sdk;
  rocprofiler_status_t status = CheckServiceContext(context_id);
  if (status != ROCPROFILER_STATUS_SUCCESS) return status;
  status = CheckServiceBuffer(buffer_id);
  if (status != ROCPROFILER_STATUS_SUCCESS) return status;
  return ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED;
}

}  // extern "C"
