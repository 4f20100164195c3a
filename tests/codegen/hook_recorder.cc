#include "tests/codegen/hook_recorder.h"

#include <mutex>

#include "hip_api_id.h"
#include "hsa_api_id.h"
#include "kfd_api_id.h"
#include "runtime/intercept/api_hook.h"

namespace hook_recorder {
namespace {

std::mutex g_mutex;
std::vector<Call>* g_calls =
    new std::vector<Call>();  // never destroyed: stubs may run at exit

void Record(bool enter, uint32_t domain, uint32_t op, void* data,
            roctracer::hook::CallFrame* frame) {
  Call c{};
  c.enter = enter;
  c.domain = domain;
  c.op = op;
  if (domain == roctracer::hook::kDomainHsaApi) {
    std::memcpy(c.hsa, data, sizeof(hsa_api_data_t));
  } else if (domain == roctracer::hook::kDomainKfdApi) {
    std::memcpy(c.kfd, data, sizeof(kfd_api_data_t));
  } else {
    std::memcpy(c.hip, data, sizeof(hip_api_data_t));
  }
  c.data_address = data;
  c.frame_address = frame;
  std::lock_guard<std::mutex> lock(g_mutex);
  g_calls->push_back(c);
}

}  // namespace

std::vector<Call> Take() {
  std::lock_guard<std::mutex> lock(g_mutex);
  std::vector<Call> out;
  out.swap(*g_calls);
  return out;
}

void SetActive(uint32_t domain, uint32_t op, bool on) {
  roctracer::hook::ActiveFlags(domain)[op].store(on ? 1 : 0,
                                                 std::memory_order_relaxed);
}

void DisableAll() {
  for (uint32_t i = 0; i < HSA_API_ID_NUMBER; ++i) {
    SetActive(roctracer::hook::kDomainHsaApi, i, false);
  }
  for (uint32_t i = 0; i < HIP_API_ID_NUMBER; ++i) {
    SetActive(roctracer::hook::kDomainHipApi, i, false);
  }
  for (uint32_t i = 0; i < KFD_API_ID_NUMBER; ++i) {
    SetActive(roctracer::hook::kDomainKfdApi, i, false);
  }
}

}  // namespace hook_recorder

// The runtime's hook, as the stubs see it: api_hook.h's inline Enter/Exit
// call these with their domain.
namespace roctracer::hook {

// The frame comes uninitialised; its route (api_hook.h) says "on to
// ExitDomain", as the runtime's Enter leaves it for a call it traces.
template <uint32_t kDomain>
void EnterDomain(uint32_t op, void* data, CallFrame* frame) noexcept {
  frame->slots[0] = 0;
  hook_recorder::Record(true, kDomain, op, data, frame);
}

template <uint32_t kDomain>
void ExitDomain(uint32_t op, void* data, CallFrame* frame) noexcept {
  hook_recorder::Record(false, kDomain, op, data, frame);
}

// The recorder sets active bytes to 1 (SetActive), never to
// kActiveConsumerOnly: these record as the others do.
template <uint32_t kDomain>
void EnterConsumerDomain(uint32_t op, void* data, CallFrame* frame) noexcept {
  EnterDomain<kDomain>(op, data, frame);
}

template <uint32_t kDomain>
void ExitConsumerDomain(uint32_t op, void* data, CallFrame* frame) noexcept {
  ExitDomain<kDomain>(op, data, frame);
}

#define HOOK_RECORDER_INSTANTIATE(d, value)                               \
  template void EnterDomain<value>(uint32_t, void*, CallFrame*) noexcept; \
  template void ExitDomain<value>(uint32_t, void*, CallFrame*) noexcept;  \
  template void EnterConsumerDomain<value>(uint32_t, void*,               \
                                           CallFrame*) noexcept;          \
  template void ExitConsumerDomain<value>(uint32_t, void*, CallFrame*) noexcept;
ROCTRACER_FOR_EACH_API_DOMAIN(HOOK_RECORDER_INSTANTIATE)
#undef HOOK_RECORDER_INSTANTIATE

void EnterUnknownDomain(CallFrame*) noexcept {}

}  // namespace roctracer::hook
