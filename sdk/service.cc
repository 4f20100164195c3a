// rocprofiler_configure_callback_tracing_service.
#include <mutex>

#include "rocprofiler-sdk/callback_tracing.h"
#include "sdk/config_lock.h"
#include "sdk/context.h"
#include "sdk/interest.h"
#include "sdk/registration.h"

namespace rocprofiler_sdk {

std::mutex& ConfigMutex() noexcept {
  static std::mutex m;
  return m;
}

}  // namespace rocprofiler_sdk

extern "C" rocprofiler_status_t rocprofiler_configure_callback_tracing_service(
    rocprofiler_context_id_t context_id,
    rocprofiler_callback_tracing_kind_t kind,
    const rocprofiler_tracing_operation_t* operations,
    unsigned long operations_count, rocprofiler_callback_tracing_cb_t callback,
    void* callback_args) {
  using namespace rocprofiler_sdk;
  uint32_t client = 0;
  if (!InToolInitialize(&client)) {
    return ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED;
  }
  std::lock_guard<std::mutex> lock(ConfigMutex());
  Context* ctx = FindContext(context_id);
  if (ctx == nullptr) return ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND;
  const KindInfo* info = FindKind(kind);
  if (info == nullptr) return ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND;
  if (info->source == Source::kNone) {
    return ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED;
  }
  Service& s = ctx->services[kind];
  if (s.configured.load(std::memory_order_relaxed)) {
    return ROCPROFILER_STATUS_ERROR_SERVICE_ALREADY_CONFIGURED;
  }
  if (callback == nullptr || (operations != nullptr && operations_count == 0)) {
    return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
  }
  uint64_t bits[kOpWords] = {};
  if (operations == nullptr) {
    for (int32_t op = info->first_op; op < info->last_op; ++op) {
      bits[op >> 6] |= uint64_t{1} << (op & 63);
    }
  } else {
    for (unsigned long i = 0; i < operations_count; ++i) {
      const int32_t op = operations[i];
      if (!ValidOp(*info, op)) {
        return ROCPROFILER_STATUS_ERROR_OPERATION_NOT_FOUND;
      }
      bits[op >> 6] |= uint64_t{1} << (op & 63);
    }
  }
  for (int w = 0; w < kOpWords; ++w) {
    s.ops[w].store(bits[w], std::memory_order_relaxed);
  }
  s.callback = callback;
  s.callback_data = callback_args;
  const int index = static_cast<int>(ctx - g_contexts);
  // The context may already be active (started earlier in initialize):
  // its interest is refreshed around the publication.
  const bool active =
      g_active_mask.load(std::memory_order_relaxed) & (uint64_t{1} << index);
  if (active) RemoveContextInterest(*ctx);
  s.configured.store(true, std::memory_order_release);
  g_kind_mask[kind].fetch_or(uint64_t{1} << index, std::memory_order_release);
  if (active) AddContextInterest(*ctx);
  return ROCPROFILER_STATUS_SUCCESS;
}
