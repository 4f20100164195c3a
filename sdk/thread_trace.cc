// Thread trace (experimental/thread-trace/). The services need a GPU:
// NOT_IMPLEMENTED after the checks of a configuration call. The decoder is
// AMD's separate decoder library, which rocprofiler-sdk loads from a
// directory and which this project does not have: creating a decoder
// answers NOT_AVAILABLE, rocprofiler-sdk's status when that library is
// absent, so no decoder handle exists and every call taking one answers as
// rocprofiler-sdk does for an unknown handle.
#include "rocprofiler-sdk/experimental/thread_trace.h"

#include "sdk/hardware_services.h"

namespace {

rocprofiler_status_t CheckThreadTraceService(
    rocprofiler_context_id_t context_id, rocprofiler_agent_id_t agent_id,
    const rocprofiler_thread_trace_parameter_t* parameters,
    size_t num_parameters, bool callbacks_given) noexcept {
  using namespace rocprofiler_sdk;
  rocprofiler_status_t status = CheckServiceContext(context_id);
  if (status != ROCPROFILER_STATUS_SUCCESS) return status;
  if (!callbacks_given || (parameters == nullptr && num_parameters > 0)) {
    return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
  }
  status = CheckServiceAgent(agent_id);
  if (status != ROCPROFILER_STATUS_SUCCESS) return status;
  return ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED;
}

}  // namespace

extern "C" {

ROCPROFILER_API rocprofiler_status_t
rocprofiler_configure_device_thread_trace_service(
    rocprofiler_context_id_t context_id, rocprofiler_agent_id_t agent_id,
    rocprofiler_thread_trace_parameter_t* parameters, size_t num_parameters,
    rocprofiler_thread_trace_shader_data_callback_t shader_callback,
    rocprofiler_user_data_t) {
  return CheckThreadTraceService(context_id, agent_id, parameters,
                                 num_parameters, shader_callback != nullptr);
}

ROCPROFILER_API rocprofiler_status_t
rocprofiler_configure_dispatch_thread_trace_service(
    rocprofiler_context_id_t context_id, rocprofiler_agent_id_t agent_id,
    rocprofiler_thread_trace_parameter_t* parameters, size_t num_parameters,
    rocprofiler_thread_trace_dispatch_callback_t dispatch_callback,
    rocprofiler_thread_trace_shader_data_callback_t shader_callback, void*) {
  return CheckThreadTraceService(
      context_id, agent_id, parameters, num_parameters,
      dispatch_callback != nullptr && shader_callback != nullptr);
}

ROCPROFILER_API rocprofiler_status_t rocprofiler_thread_trace_decoder_create(
    rocprofiler_thread_trace_decoder_handle_t* handle, const char* path) {
  if (handle == nullptr || path == nullptr) {
    return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
  }
  return ROCPROFILER_STATUS_ERROR_NOT_AVAILABLE;
}

ROCPROFILER_API void rocprofiler_thread_trace_decoder_destroy(
    rocprofiler_thread_trace_decoder_handle_t) {}

ROCPROFILER_API rocprofiler_status_t
rocprofiler_thread_trace_decoder_codeobj_load(
    rocprofiler_thread_trace_decoder_handle_t, uint64_t, uint64_t, uint64_t,
    const void*, uint64_t) {
  return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
}

ROCPROFILER_API rocprofiler_status_t
rocprofiler_thread_trace_decoder_codeobj_unload(
    rocprofiler_thread_trace_decoder_handle_t, uint64_t) {
  return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
}

ROCPROFILER_API rocprofiler_status_t rocprofiler_trace_decode(
    rocprofiler_thread_trace_decoder_handle_t,
    rocprofiler_thread_trace_decoder_callback_t, void*, uint64_t, void*) {
  return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
}

ROCPROFILER_API const char* rocprofiler_thread_trace_decoder_info_string(
    rocprofiler_thread_trace_decoder_handle_t,
    rocprofiler_thread_trace_decoder_info_t) {
  return nullptr;
}

}  // extern "C"
