#include "runtime/intercept/trace_guard.h"

#include <atomic>

namespace roctracer::hook {

ROCTRACER_HOT_TLS ThreadState t_thread_state = {};

}  // namespace roctracer::hook

namespace roctracer {
namespace {
std::atomic<InnermostCallFn> g_innermost_call{nullptr};
std::atomic<InnermostStreamFn> g_innermost_stream{nullptr};
}  // namespace

bool InnermostCallOf(uint32_t domain, uint32_t* op, uint64_t* id) noexcept {
  InnermostCallFn fn = g_innermost_call.load(std::memory_order_acquire);
  return fn != nullptr && fn(domain, op, id);
}

void SetInnermostCallFn(InnermostCallFn fn) noexcept {
  g_innermost_call.store(fn, std::memory_order_release);
}

uint64_t InnermostStream() noexcept {
  InnermostStreamFn fn = g_innermost_stream.load(std::memory_order_acquire);
  return fn != nullptr ? fn() : 0;
}

void SetInnermostStreamFn(InnermostStreamFn fn) noexcept {
  g_innermost_stream.store(fn, std::memory_order_release);
}

}  // namespace roctracer
