#include "sdk/context.h"

#include <mutex>

#include "rocprofiler-sdk/context.h"
#include "runtime/clock/clock.h"
#include "sdk/config_lock.h"
#include "sdk/dispatch.h"
#include "sdk/interest.h"
#include "sdk/registration.h"

namespace rocprofiler_sdk {

Context g_contexts[kMaxContexts];
std::atomic<uint64_t> g_active_mask{0};
std::atomic<uint64_t> g_kind_mask[kKindCount] = {};
std::atomic<uint64_t> g_buffer_kind_mask[kBufferKindCount] = {};
std::atomic<uint64_t> g_buffer_ext_mask[kLastBufferApiKind + 1] = {};
std::atomic<uint64_t> g_request_mask[kRequestKindCount] = {};
std::atomic<uint64_t> g_api_general_mask[kLastBufferApiKind + 1] = {};
std::atomic<uint64_t> g_api_buffer_op_mask[kLastBufferApiKind + 1][kMaxOps] =
    {};
std::atomic<uint64_t> g_started_ns[kMaxContexts] = {};

namespace {

// Handles are index + 1, so a zero-initialised handle is never valid.
int IndexOf(rocprofiler_context_id_t id) noexcept {
  if (id.handle == 0 || id.handle > static_cast<uint64_t>(kMaxContexts)) {
    return -1;
  }
  return static_cast<int>(id.handle - 1);
}

uint64_t Bit(int index) noexcept { return uint64_t{1} << index; }

}  // namespace

Context* FindContext(rocprofiler_context_id_t id) noexcept {
  const int i = IndexOf(id);
  if (i < 0 || !g_contexts[i].created.load(std::memory_order_acquire)) {
    return nullptr;
  }
  return &g_contexts[i];
}

void InvalidateClientContexts(uint32_t client) noexcept {
  uint64_t stopped = 0;
  {
    std::lock_guard<std::mutex> lock(ConfigMutex());
    for (int i = 0; i < kMaxContexts; ++i) {
      Context& c = g_contexts[i];
      if (!c.created.load(std::memory_order_acquire) || c.client != client) {
        continue;
      }
      c.invalid.store(true, std::memory_order_seq_cst);
      if (g_active_mask.fetch_and(~Bit(i), std::memory_order_seq_cst) &
          Bit(i)) {
        RemoveContextInterest(c);
      }
      // A context stopped earlier may still get the completions of GPU work
      // it captured (gpu_kinds.cc) until it is invalid: waited for too.
      stopped |= Bit(i);
    }
  }
  // The tool's finalize runs next and may free what its callbacks use.
  for (int i = 0; i < kMaxContexts; ++i) {
    if (stopped & Bit(i)) WaitForDeliveries(i);
  }
}

uint64_t ContextsTracing(int kind, int buffer_kind, int32_t op,
                         bool buffer) noexcept {
  uint64_t mask = g_active_mask.load(std::memory_order_acquire) &
                  (buffer ? g_buffer_kind_mask[buffer_kind] : g_kind_mask[kind])
                      .load(std::memory_order_acquire);
  for (uint64_t m = mask; m != 0; m &= m - 1) {
    const int i = __builtin_ctzll(m);
    const bool traces =
        buffer ? g_contexts[i].buffer_services[buffer_kind].Traces(op)
               : g_contexts[i].services[kind].Traces(op);
    if (!traces) mask &= ~(uint64_t{1} << i);
  }
  return mask;
}

}  // namespace rocprofiler_sdk

using rocprofiler_sdk::Bit;
using rocprofiler_sdk::ConfigMutex;
using rocprofiler_sdk::Context;
using rocprofiler_sdk::g_active_mask;
using rocprofiler_sdk::g_contexts;
using rocprofiler_sdk::kMaxContexts;

extern "C" {

rocprofiler_status_t rocprofiler_create_context(
    rocprofiler_context_id_t* context_id) {
  if (context_id == nullptr) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
  uint32_t client = 0;
  if (!rocprofiler_sdk::InToolInitialize(&client)) {
    return ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED;
  }
  std::lock_guard<std::mutex> lock(ConfigMutex());
  for (int i = 0; i < kMaxContexts; ++i) {
    Context& c = g_contexts[i];
    if (c.created.load(std::memory_order_relaxed)) continue;
    c.client = client;
    c.created.store(true, std::memory_order_release);
    context_id->handle = static_cast<uint64_t>(i) + 1;
    return ROCPROFILER_STATUS_SUCCESS;
  }
  return ROCPROFILER_STATUS_ERROR_OUT_OF_RESOURCES;
}

rocprofiler_status_t rocprofiler_start_context(
    rocprofiler_context_id_t context_id) {
  std::lock_guard<std::mutex> lock(ConfigMutex());
  Context* c = rocprofiler_sdk::FindContext(context_id);
  if (c == nullptr) return ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND;
  if (c->invalid.load(std::memory_order_acquire)) {
    return ROCPROFILER_STATUS_ERROR_CONTEXT_INVALID;
  }
  const uint64_t bit = Bit(static_cast<int>(c - g_contexts));
  if (g_active_mask.load(std::memory_order_relaxed) & bit) {
    return ROCPROFILER_STATUS_SUCCESS;
  }
  // Interest first: the context's callbacks start with the next call that
  // sees its bit, and that call must already be intercepted.
  rocprofiler_sdk::AddContextInterest(*c);
  rocprofiler_sdk::g_started_ns[c - g_contexts].store(
      roctracer::clock::TimestampNs(), std::memory_order_relaxed);
  g_active_mask.fetch_or(bit, std::memory_order_release);
  return ROCPROFILER_STATUS_SUCCESS;
}

rocprofiler_status_t rocprofiler_stop_context(
    rocprofiler_context_id_t context_id) {
  rocprofiler_sdk::StopScope stopping;
  int index = 0;
  {
    std::lock_guard<std::mutex> lock(ConfigMutex());
    Context* c = rocprofiler_sdk::FindContext(context_id);
    if (c == nullptr) return ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND;
    index = static_cast<int>(c - g_contexts);
    const uint64_t bit = Bit(index);
    if (g_active_mask.fetch_and(~bit, std::memory_order_seq_cst) & bit) {
      rocprofiler_sdk::RemoveContextInterest(*c);
    }
  }
  // No callback of the context starts after the bit is clear; the ones other
  // threads had already started finish before we return.
  rocprofiler_sdk::WaitForDeliveries(index);
  return ROCPROFILER_STATUS_SUCCESS;
}

rocprofiler_status_t rocprofiler_context_is_active(
    rocprofiler_context_id_t context_id, int* status) {
  if (status == nullptr) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
  *status = 0;
  Context* c = rocprofiler_sdk::FindContext(context_id);
  if (c == nullptr) return ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND;
  const uint64_t bit = Bit(static_cast<int>(c - g_contexts));
  *status = (g_active_mask.load(std::memory_order_acquire) & bit) ? 1 : 0;
  return ROCPROFILER_STATUS_SUCCESS;
}

rocprofiler_status_t rocprofiler_context_is_valid(
    rocprofiler_context_id_t context_id, int* status) {
  if (status == nullptr) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
  *status = 0;
  Context* c = rocprofiler_sdk::FindContext(context_id);
  if (c == nullptr) return ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND;
  if (c->invalid.load(std::memory_order_acquire)) {
    return ROCPROFILER_STATUS_ERROR_CONTEXT_INVALID;
  }
  *status = 1;
  return ROCPROFILER_STATUS_SUCCESS;
}

}  // extern "C"
