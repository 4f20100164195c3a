// Pool::WriteInPlace (pool.h): the record-only write, inline in its callers,
// with the record made in the buffer it is published from.
//
// An API call's record is made of values the caller holds in registers (IDs,
// timestamps, the returned status). Made on the caller's stack, it costs its
// stores there, a call, and a 64-byte copy into the buffer; made here, it is
// 8 stores into the buffer. What is written, and when it becomes visible to
// the delivery thread, is what Pool::Write does (slot.h's memory ordering);
// anything but the common case (this thread's slot known, the pool open, room
// in the current buffer) goes to the same out-of-line path as Write.
#ifndef RUNTIME_POOL_WRITE_IN_PLACE_H_
#define RUNTIME_POOL_WRITE_IN_PLACE_H_

#include <atomic>
#include <cstdint>
#include <cstring>

#include "runtime/platform/asymmetric_fence.h"
#include "runtime/pool/pool.h"
#include "runtime/pool/slot.h"

namespace roctracer::pool {

template <class Fill>
[[gnu::always_inline]] inline bool Pool::WriteInPlace(
    const Fill& fill) noexcept {
  const pool_internal::HotEntry hot = pool_internal::tl_hot;
  if (__builtin_expect(hot.pool == this, 1)) {
    pool_internal::Slot* const slot = hot.slot;
    platform::PublishBusy(&slot->busy);
    const uint32_t end = slot->rec_end + pool_internal::kRecordSize;
    if (__builtin_expect(closing_.load(std::memory_order_seq_cst) == 0 &&
                             slot->cur != nullptr && end <= slot->text_low,
                         1)) {
      fill(slot->base + slot->rec_end);
      slot->rec_end = end;
      slot->cur->committed.store(end, std::memory_order_release);
      slot->busy.store(0, std::memory_order_release);
      return true;
    }
    slot->busy.store(0, std::memory_order_release);
  }
  activity_record_t record;
  fill(&record);
  return WriteCold(nullptr, record, nullptr, 0);
}

}  // namespace roctracer::pool

#endif  // RUNTIME_POOL_WRITE_IN_PLACE_H_
