#include "rocprofiler-sdk/external_correlation.h"

#include "runtime/thread_id.h"
#include "sdk/context.h"
#include "sdk/thread_state.h"

using rocprofiler_sdk::Context;

extern "C" {

rocprofiler_status_t rocprofiler_push_external_correlation_id(
    rocprofiler_context_id_t context, rocprofiler_thread_id_t tid,
    rocprofiler_user_data_t external_correlation_id) {
  Context* c = rocprofiler_sdk::FindContext(context);
  if (c == nullptr) return ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND;
  rocprofiler_sdk::ThreadState* state = rocprofiler_sdk::Tls();
  if (state == nullptr) return ROCPROFILER_STATUS_ERROR_OUT_OF_RESOURCES;
  rocprofiler_sdk::ThreadState& t = *state;
  if (tid != rocprofiler_sdk::CurrentThreadId(t)) {
    return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
  }
  const int i = static_cast<int>(c - rocprofiler_sdk::g_contexts);
  uint32_t& depth = t.external_depth[i];
  if (depth >= rocprofiler_sdk::kMaxExternalDepth) {
    return ROCPROFILER_STATUS_ERROR_OUT_OF_RESOURCES;
  }
  t.external[i][depth++] = external_correlation_id;
  return ROCPROFILER_STATUS_SUCCESS;
}

rocprofiler_status_t rocprofiler_pop_external_correlation_id(
    rocprofiler_context_id_t context, rocprofiler_thread_id_t tid,
    rocprofiler_user_data_t* external_correlation_id) {
  Context* c = rocprofiler_sdk::FindContext(context);
  if (c == nullptr) return ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND;
  rocprofiler_sdk::ThreadState* state = rocprofiler_sdk::Tls();
  if (state == nullptr) return ROCPROFILER_STATUS_ERROR_OUT_OF_RESOURCES;
  rocprofiler_sdk::ThreadState& t = *state;
  if (tid != rocprofiler_sdk::CurrentThreadId(t)) {
    return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
  }
  const int i = static_cast<int>(c - rocprofiler_sdk::g_contexts);
  uint32_t& depth = t.external_depth[i];
  if (depth == 0) {
    if (external_correlation_id != nullptr) external_correlation_id->value = 0;
    return ROCPROFILER_STATUS_ERROR;
  }
  const rocprofiler_user_data_t v = t.external[i][--depth];
  if (external_correlation_id != nullptr) *external_correlation_id = v;
  return ROCPROFILER_STATUS_SUCCESS;
}

}  // extern "C"
