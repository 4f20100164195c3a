#include "runtime/activity/correlation.h"

#include <atomic>

namespace roctracer::activity {
namespace {

// Every thread writes it once per block: alone on its cache line, so that
// the read-only state every traced call reads (the started flag, the domain
// table) is not invalidated on every core each time one thread takes a
// block. Beside such a flag it made a callback's cost grow with the threads
// (BENCHMARKS.md, "Scaling with threads").
struct alignas(64) NextId {
  std::atomic<uint64_t> value{1};
};
static_assert(sizeof(NextId) == 64, "NextId fills its cache line");
NextId g_next_id;

}  // namespace

namespace correlation_internal {

ROCTRACER_HOT_TLS IdBlock t_id_block = {0, 0, 0};

uint64_t TakeBlock() noexcept {
  const uint64_t size =
      t_id_block.next_size != 0 ? t_id_block.next_size : kFirstIdBlock;
  const uint64_t first =
      g_next_id.value.fetch_add(size, std::memory_order_relaxed);
  t_id_block.next = first + 1;
  t_id_block.end = first + size;
  t_id_block.next_size = size < kMaxIdBlock ? 2 * size : kMaxIdBlock;
  return first;
}

}  // namespace correlation_internal

}  // namespace roctracer::activity
