// Where a buffer's bytes come from and go back to: the pool's alloc_fun (or
// malloc/free), and the slot's spares, bytes of delivered buffers kept for
// the ring's next empty position so that a busy thread does not allocate per
// buffer (private to runtime/pool). Inline: the write path, the delivery
// thread and close each take or give back bytes in their own loops.
// TrimSpares, which lets spares go once a thread has slowed down, is not on
// any loop's common path: it stays out of line, in delivery_thread.cc.
#ifndef RUNTIME_POOL_BUFFER_MEMORY_H_
#define RUNTIME_POOL_BUFFER_MEMORY_H_

#include <atomic>
#include <cstdint>
#include <cstdlib>

#include "runtime/pool/pool.h"
#include "runtime/pool/slot.h"

namespace roctracer::pool {

inline char* Pool::AllocBuffer() noexcept {
  char* p = nullptr;
  if (alloc_fun_ != nullptr) {
    alloc_fun_(&p, buffer_size_, alloc_arg_);
  } else {
    p = static_cast<char*>(std::malloc(buffer_size_));
  }
  return p;
}

inline void Pool::FreeBuffer(char* buffer) noexcept {
  if (buffer == nullptr) return;
  if (alloc_fun_ != nullptr) {
    alloc_fun_(&buffer, 0, alloc_arg_);
  } else {
    std::free(buffer);
  }
}

inline char* Pool::TakeSpare(pool_internal::Slot* slot) noexcept {
  if (slot->spare_lock.exchange(1, std::memory_order_acquire) != 0) {
    return nullptr;
  }
  char* data =
      slot->spare_count != 0 ? slot->spares[--slot->spare_count] : nullptr;
  slot->spare_lock.store(0, std::memory_order_release);
  return data;
}

inline bool Pool::ParkSpare(pool_internal::Slot* slot, char* data) noexcept {
  if (slot->spare_lock.exchange(1, std::memory_order_acquire) != 0) {
    return false;
  }
  const bool parked = slot->spare_count < buffers_per_slot_;
  if (parked) slot->spares[slot->spare_count++] = data;
  slot->spare_lock.store(0, std::memory_order_release);
  return parked;
}

}  // namespace roctracer::pool

#endif  // RUNTIME_POOL_BUFFER_MEMORY_H_
