// The dispatch counting service (dispatch_counting_service.h): counters
// around each kernel dispatch. Not offered here (no counters, counters.cc):
// after the checks of a configuration call, NOT_IMPLEMENTED.
#include "rocprofiler-sdk/dispatch_counting_service.h"

#include "sdk/hardware_services.h"

extern "C" {

ROCPROFILER_API rocprofiler_status_t
rocprofiler_configure_buffer_dispatch_counting_service(
    rocprofiler_context_id_t context_id, rocprofiler_buffer_id_t buffer_id,
    rocprofiler_dispatch_counting_service_cb_t callback, void*) {
  using namespace rocprofiler_sdk;
  rocprofiler_status_t status = CheckServiceContext(context_id);
  if (status != ROCPROFILER_STATUS_SUCCESS) return status;
  if (callback == nullptr) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
  status = CheckServiceBuffer(buffer_id);
  if (status != ROCPROFILER_STATUS_SUCCESS) return status;
  return ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED;
}

ROCPROFILER_API rocprofiler_status_t
rocprofiler_configure_callback_dispatch_counting_service(
    rocprofiler_context_id_t context_id,
    rocprofiler_dispatch_counting_service_cb_t dispatch_callback, void*,
    rocprofiler_dispatch_counting_record_cb_t record_callback, void*) {
  using namespace rocprofiler_sdk;
  const rocprofiler_status_t status = CheckServiceContext(context_id);
  if (status != ROCPROFILER_STATUS_SUCCESS) return status;
  if (dispatch_callback == nullptr || record_callback == nullptr) {
    return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
  }
  return ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED;
}

}  // extern "C"
