#include "runtime/activity/correlation.h"

#include <atomic>

namespace roctracer {
namespace {

std::atomic<uint64_t> g_next_id{1};

}  // namespace

namespace correlation_internal {

ROCTRACER_HOT_TLS IdBlock t_id_block = {0, 0};

uint64_t TakeBlock() noexcept {
  const uint64_t first =
      g_next_id.fetch_add(kCorrelationIdBlock, std::memory_order_relaxed);
  t_id_block.next = first + 1;
  t_id_block.end = first + kCorrelationIdBlock;
  return first;
}

}  // namespace correlation_internal

}  // namespace roctracer
