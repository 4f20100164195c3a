#include "rocprofiler-sdk/external_correlation.h"

#include "runtime/platform/thread_id.h"
#include "sdk/context.h"
#include "sdk/thread_state.h"

namespace {

// The calling thread's external-ID stack of `context`: what push and pop
// both validate first (the context exists, `tid` is the caller's own thread,
// the thread's block could be allocated).
struct ExternalStack {
  rocprofiler_status_t status;
  uint32_t* depth;
  rocprofiler_user_data_t* ids;
};

ExternalStack Resolve(rocprofiler_context_id_t context,
                      rocprofiler_thread_id_t tid) {
  rocprofiler_sdk::Context* c = rocprofiler_sdk::FindContext(context);
  if (c == nullptr) {
    return {ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND, nullptr, nullptr};
  }
  rocprofiler_sdk::ThreadState* t = rocprofiler_sdk::Tls();
  if (t == nullptr) {
    return {ROCPROFILER_STATUS_ERROR_OUT_OF_RESOURCES, nullptr, nullptr};
  }
  if (tid != roctracer::ThreadId()) {
    return {ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT, nullptr, nullptr};
  }
  const int i = static_cast<int>(c - rocprofiler_sdk::g_contexts);
  return {ROCPROFILER_STATUS_SUCCESS, &t->external_depth[i], t->external[i]};
}

}  // namespace

extern "C" {

rocprofiler_status_t rocprofiler_push_external_correlation_id(
    rocprofiler_context_id_t context, rocprofiler_thread_id_t tid,
    rocprofiler_user_data_t external_correlation_id) {
  const ExternalStack stack = Resolve(context, tid);
  if (stack.status != ROCPROFILER_STATUS_SUCCESS) return stack.status;
  if (*stack.depth >= rocprofiler_sdk::kMaxExternalDepth) {
    return ROCPROFILER_STATUS_ERROR_OUT_OF_RESOURCES;
  }
  stack.ids[(*stack.depth)++] = external_correlation_id;
  return ROCPROFILER_STATUS_SUCCESS;
}

rocprofiler_status_t rocprofiler_pop_external_correlation_id(
    rocprofiler_context_id_t context, rocprofiler_thread_id_t tid,
    rocprofiler_user_data_t* external_correlation_id) {
  const ExternalStack stack = Resolve(context, tid);
  if (stack.status != ROCPROFILER_STATUS_SUCCESS) return stack.status;
  if (*stack.depth == 0) {
    if (external_correlation_id != nullptr) external_correlation_id->value = 0;
    return ROCPROFILER_STATUS_ERROR;
  }
  const rocprofiler_user_data_t v = stack.ids[--(*stack.depth)];
  if (external_correlation_id != nullptr) *external_correlation_id = v;
  return ROCPROFILER_STATUS_SUCCESS;
}

}  // extern "C"
