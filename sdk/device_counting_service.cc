// The device counting service (device_counting_service.h): counters of a
// whole agent. Not offered here (no counters, counters.cc): after the
// checks of a configuration call, NOT_IMPLEMENTED.
#include "rocprofiler-sdk/device_counting_service.h"

#include <mutex>

#include "rocprofiler-sdk/context.h"
#include "sdk/config_lock.h"
#include "sdk/context.h"
#include "sdk/hardware_services.h"

extern "C" {

ROCPROFILER_API rocprofiler_status_t
rocprofiler_configure_device_counting_service(
    rocprofiler_context_id_t context_id, rocprofiler_buffer_id_t buffer_id,
    rocprofiler_agent_id_t agent_id,
    rocprofiler_device_counting_service_cb_t cb, void*) {
  using namespace rocprofiler_sdk;
  rocprofiler_status_t status = CheckServiceContext(context_id);
  if (status != ROCPROFILER_STATUS_SUCCESS) return status;
  if (cb == nullptr) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
  if ((status = CheckServiceBuffer(buffer_id)) != ROCPROFILER_STATUS_SUCCESS ||
      (status = CheckServiceAgent(agent_id)) != ROCPROFILER_STATUS_SUCCESS) {
    return status;
  }
  return ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED;
}

ROCPROFILER_API rocprofiler_status_t rocprofiler_sample_device_counting_service(
    rocprofiler_context_id_t context_id, rocprofiler_user_data_t,
    rocprofiler_counter_flag_t, rocprofiler_counter_record_t* output_records,
    size_t* rec_count) {
  // Any thread may sample, at any time: the context is only looked up.
  {
    std::lock_guard<std::mutex> lock(rocprofiler_sdk::ConfigMutex());
    if (context_id.handle == ROCPROFILER_CONTEXT_NONE.handle ||
        rocprofiler_sdk::FindContext(context_id) == nullptr) {
      return ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND;
    }
  }
  if (output_records != nullptr && rec_count == nullptr) {
    return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
  }
  return ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED;
}

}  // extern "C"
