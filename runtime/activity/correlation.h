// Correlation IDs tie a traced API call's callbacks and activity records
// together. One process-wide counter starting at 1 (0 means "none"), from
// which each thread takes a block of IDs at a time. (The per-thread stack of
// calls in progress, which gives a nested call its parent's ID, is the
// interception layer's: runtime/intercept/trace_guard.h.)
//
// Why blocks: an atomic increment of a shared counter per traced call costs
// ~14 ns here (the locked instruction waits for the record stores before it
// to drain), and with many threads every increment also moves the counter's
// cache line between cores. A thread's first block has kFirstIdBlock IDs and
// each next one twice as many, up to kMaxIdBlock: a thread that makes a few
// calls uses few IDs, and one that makes millions takes the shared line once
// per 4096 calls (at 64 a block, 16 threads spent 6% of their time there).
// The price: IDs are unique and increase along each thread, but IDs of
// different threads are not in time order (timestamps are), and a thread's
// unused IDs are skipped when it exits.
#ifndef RUNTIME_ACTIVITY_CORRELATION_H_
#define RUNTIME_ACTIVITY_CORRELATION_H_

#include <cstdint>

#include "runtime/platform/hot_tls.h"

namespace roctracer::activity {

constexpr uint64_t kFirstIdBlock = 64;
constexpr uint64_t kMaxIdBlock = 4096;

namespace correlation_internal {
// This thread's block: [next, end), and the size of the next one. All 0
// before its first ID.
struct IdBlock {
  uint64_t next;
  uint64_t end;
  uint64_t next_size;
};
ROCTRACER_HOT_TLS_EXTERN IdBlock t_id_block;
uint64_t TakeBlock() noexcept;  // refills t_id_block, returns its first ID
}  // namespace correlation_internal

// A fresh ID; never 0, unique in the process, larger than every ID this
// thread got before.
inline uint64_t NextCorrelationId() noexcept {
  correlation_internal::IdBlock& block = correlation_internal::t_id_block;
  if (__builtin_expect(block.next == block.end, 0)) {
    return correlation_internal::TakeBlock();
  }
  return block.next++;
}

}  // namespace roctracer::activity

#endif  // RUNTIME_ACTIVITY_CORRELATION_H_
