#include "runtime/correlation.h"

#include <atomic>

namespace roctracer {
namespace {

std::atomic<uint64_t> g_next_id{1};
thread_local CorrelationScope* t_innermost = nullptr;

}  // namespace

uint64_t NextCorrelationId() noexcept {
  return g_next_id.fetch_add(1, std::memory_order_relaxed);
}

uint64_t CurrentCorrelationId() noexcept {
  return t_innermost == nullptr ? 0 : t_innermost->id();
}

CorrelationScope::CorrelationScope() noexcept
    : id_(NextCorrelationId()),
      parent_(CurrentCorrelationId()),
      enclosing_(t_innermost) {
  t_innermost = this;
}

CorrelationScope::~CorrelationScope() { t_innermost = enclosing_; }

}  // namespace roctracer
