// rocprofiler_configure_callback_tracing_service.
#include <pthread.h>

#include <mutex>
#include <new>

#include "rocprofiler-sdk/callback_tracing.h"
#include "sdk/config_lock.h"
#include "sdk/context.h"
#include "sdk/gpu_kinds.h"
#include "sdk/interest.h"
#include "sdk/registration.h"

namespace rocprofiler_sdk {

namespace {

// Constant-initialized (constexpr constructor), so usable from the tool
// scan whenever it runs, whatever the static init order.
std::mutex g_config_mutex;

// No tool code and no waiting ever run under the lock, so the forking
// thread never holds it, and a thread that did would hold it forever in the
// child (rocprofiler_stop_context there would block). What it guards is
// published with each context's flags last, so a change cut short by the
// fork leaves at worst extra interest.
void FreshConfigMutexInChild() noexcept { new (&g_config_mutex) std::mutex(); }

__attribute__((constructor)) void RegisterConfigMutexForkHandler() {
  pthread_atfork(nullptr, nullptr, &FreshConfigMutexInChild);
}

}  // namespace

std::mutex& ConfigMutex() noexcept { return g_config_mutex; }

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
  // GPU kinds need the SDK's observer on the GPU half's seam: registered
  // before the lock (gpu_kinds.h says why).
  const KindInfo* gpu_kind = FindKind(RawValue(kind));
  if (gpu_kind != nullptr && gpu_kind->source == Source::kGpu &&
      !EnableGpuKinds()) {
    return ROCPROFILER_STATUS_ERROR_OUT_OF_RESOURCES;
  }
  std::lock_guard<std::mutex> lock(ConfigMutex());
  Context* ctx = FindContext(context_id);
  if (ctx == nullptr) return ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND;
  const int32_t kind_value = RawValue(kind);
  const KindInfo* info = FindKind(kind_value);
  if (info == nullptr) return ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND;
  if (info->source == Source::kNone) {
    return ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED;
  }
  Service& s = ctx->services[kind_value];
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
  g_kind_mask[kind_value].fetch_or(uint64_t{1} << index,
                                   std::memory_order_release);
  if (kind_value <= kLastBufferApiKind) {
    g_api_general_mask[kind_value].fetch_or(uint64_t{1} << index,
                                            std::memory_order_release);
  }
  if (active) AddContextInterest(*ctx);
  return ROCPROFILER_STATUS_SUCCESS;
}
