#include "rocprofiler-sdk/external_correlation.h"

#include <cstring>
#include <mutex>

#include "runtime/platform/thread_id.h"
#include "sdk/config_lock.h"
#include "sdk/context.h"
#include "sdk/kinds.h"
#include "sdk/registration.h"
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
  if (tid != roctracer::platform::ThreadId()) {
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

rocprofiler_status_t
rocprofiler_query_external_correlation_id_request_kind_name(
    rocprofiler_external_correlation_id_request_kind_t kind, const char** name,
    uint64_t* name_len) {
  // Indexed by the enum; the names are the enumerators without their prefix.
  static const char* const kNames[] = {nullptr,
                                       "HSA_CORE_API",
                                       "HSA_AMD_EXT_API",
                                       "HSA_IMAGE_EXT_API",
                                       "HSA_FINALIZE_EXT_API",
                                       "HIP_RUNTIME_API",
                                       "HIP_COMPILER_API",
                                       "MARKER_CORE_API",
                                       "MARKER_CONTROL_API",
                                       "MARKER_NAME_API",
                                       "MEMORY_COPY",
                                       "KERNEL_DISPATCH",
                                       "SCRATCH_MEMORY",
                                       "RCCL_API",
                                       "OMPT",
                                       "MEMORY_ALLOCATION",
                                       "ROCDECODE_API",
                                       "ROCJPEG_API",
                                       "MARKER_CORE_RANGE_API"};
  static_assert(sizeof(kNames) / sizeof(kNames[0]) ==
                    ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_LAST,
                "one name per request kind");
  const int32_t k = rocprofiler_sdk::RawValue(kind);
  if (k <= ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_NONE ||
      k >= ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_LAST) {
    return ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND;
  }
  if (name != nullptr) *name = kNames[k];
  if (name_len != nullptr) *name_len = std::strlen(kNames[k]);
  return ROCPROFILER_STATUS_SUCCESS;
}

rocprofiler_status_t
rocprofiler_configure_external_correlation_id_request_service(
    rocprofiler_context_id_t context_id,
    const rocprofiler_external_correlation_id_request_kind_t* kinds,
    size_t kinds_count,
    rocprofiler_external_correlation_id_request_cb_t callback,
    void* callback_args) {
  using namespace rocprofiler_sdk;
  uint32_t client = 0;
  if (!InToolInitialize(&client)) {
    return ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED;
  }
  std::lock_guard<std::mutex> lock(ConfigMutex());
  Context* ctx = FindContext(context_id);
  if (ctx == nullptr) return ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND;
  ExternalRequestService& s = ctx->request;
  if (s.configured.load(std::memory_order_relaxed)) {
    return ROCPROFILER_STATUS_ERROR_SERVICE_ALREADY_CONFIGURED;
  }
  if (callback == nullptr || (kinds == nullptr) != (kinds_count == 0)) {
    return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
  }
  uint32_t bits = 0;
  if (kinds == nullptr) {
    bits = ((uint32_t{1} << kRequestKindCount) - 1) & ~uint32_t{1};
  }
  for (size_t i = 0; i < kinds_count; ++i) {
    const int32_t k = RawValue(kinds[i]);
    if (k <= ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_NONE ||
        k >= ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_LAST) {
      return ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND;
    }
    bits |= uint32_t{1} << k;
  }
  s.kinds = bits;
  s.callback = callback;
  s.callback_data = callback_args;
  s.configured.store(true, std::memory_order_release);
  // Asked only for the API kinds (numbered as the callback kinds); the
  // others are accepted and never asked (sdk/README.md).
  const uint64_t bit = uint64_t{1} << (ctx - g_contexts);
  for (int k = 1; k < kRequestKindCount; ++k) {
    if ((bits >> k) & 1u) {
      g_request_mask[k].fetch_or(bit, std::memory_order_release);
      if (k <= kLastBufferApiKind) {
        g_api_general_mask[k].fetch_or(bit, std::memory_order_release);
      }
    }
  }
  return ROCPROFILER_STATUS_SUCCESS;
}

}  // extern "C"
