#include "rocprofiler-sdk/external_correlation.h"

#include "runtime/thread_id.h"
#include "sdk/context.h"
#include "sdk/external_stack.h"

namespace rocprofiler_sdk {
namespace {

// Plain POD thread-local (no TLS constructor for the traced-call path to
// pay for): 64 contexts x 16 levels, about 8 KiB per thread.
struct Stacks {
  uint32_t depth[kMaxContexts];
  rocprofiler_user_data_t values[kMaxContexts][kMaxExternalDepth];
};
thread_local Stacks t_stacks;

}  // namespace

rocprofiler_user_data_t ExternalTop(int i) noexcept {
  const uint32_t d = t_stacks.depth[i];
  return d == 0 ? rocprofiler_user_data_t{0} : t_stacks.values[i][d - 1];
}

}  // namespace rocprofiler_sdk

using rocprofiler_sdk::Context;
using rocprofiler_sdk::t_stacks;

extern "C" {

rocprofiler_status_t rocprofiler_push_external_correlation_id(
    rocprofiler_context_id_t context, rocprofiler_thread_id_t tid,
    rocprofiler_user_data_t external_correlation_id) {
  Context* c = rocprofiler_sdk::FindContext(context);
  if (c == nullptr) return ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND;
  if (tid != roctracer::ThreadId()) {
    return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
  }
  const int i = static_cast<int>(c - rocprofiler_sdk::g_contexts);
  uint32_t& depth = t_stacks.depth[i];
  if (depth >= rocprofiler_sdk::kMaxExternalDepth) {
    return ROCPROFILER_STATUS_ERROR_OUT_OF_RESOURCES;
  }
  t_stacks.values[i][depth++] = external_correlation_id;
  return ROCPROFILER_STATUS_SUCCESS;
}

rocprofiler_status_t rocprofiler_pop_external_correlation_id(
    rocprofiler_context_id_t context, rocprofiler_thread_id_t tid,
    rocprofiler_user_data_t* external_correlation_id) {
  Context* c = rocprofiler_sdk::FindContext(context);
  if (c == nullptr) return ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND;
  if (tid != roctracer::ThreadId()) {
    return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
  }
  const int i = static_cast<int>(c - rocprofiler_sdk::g_contexts);
  uint32_t& depth = t_stacks.depth[i];
  if (depth == 0) {
    if (external_correlation_id != nullptr) external_correlation_id->value = 0;
    return ROCPROFILER_STATUS_ERROR;
  }
  const rocprofiler_user_data_t v = t_stacks.values[i][--depth];
  if (external_correlation_id != nullptr) *external_correlation_id = v;
  return ROCPROFILER_STATUS_SUCCESS;
}

}  // extern "C"
