// A thread's slots: warm-up (a thread's first write to a pool takes a slot,
// adopting one whose thread has exited), thread exit (the thread's partly
// filled buffers are sealed and its slots left for adoption), and freeing
// the slots of closed pools.
#include <mutex>
#include <new>

#include "runtime/platform/asymmetric_fence.h"
#include "runtime/platform/hot_tls.h"
#include "runtime/platform/thread_exit.h"
#include "runtime/pool/buffer_memory.h"
#include "runtime/pool/pool.h"
#include "runtime/pool/slot.h"

namespace roctracer::pool {

using pool_internal::Buffer;
using pool_internal::Slot;

namespace pool_internal {

ROCTRACER_HOT_TLS ThreadSlots* tl_slots = nullptr;

}  // namespace pool_internal

Slot* Pool::AcquireSlot() noexcept {
  using pool_internal::tl_slots;
  pool_internal::ThreadSlots* ts = tl_slots;
  if (ts == nullptr) {
    ts = new (std::nothrow) pool_internal::ThreadSlots;
    if (ts == nullptr) return nullptr;
    tl_slots = ts;
    // Out of keys: records of exiting threads are then delivered by the next
    // flush or close instead of at thread exit.
    (void)platform::ReleaseAtThreadExit<&pool_internal::ReleaseThreadSlots>(ts);
  } else {
    ReleaseClosedSlots(ts);
  }
  for (const auto& entry : ts->entries) {
    if (entry.first == this) {
      pool_internal::tl_hot = {this, entry.second};
      return entry.second;
    }
  }
  try {
    ts->entries.reserve(ts->entries.size() + 1);
  } catch (...) {
    return nullptr;
  }
  Slot* slot = nullptr;
  {
    std::lock_guard<std::mutex> lock(slots_mu_);
    if (closing_.load(std::memory_order_acquire) != 0) return nullptr;
    for (Slot* s = slots_.load(std::memory_order_relaxed); s; s = s->next) {
      uint32_t orphan = 0;
      if (s->owned.load(std::memory_order_relaxed) == 0 &&
          s->owned.compare_exchange_strong(orphan, 1,
                                           std::memory_order_acquire)) {
        slot = s;
        break;
      }
    }
    if (slot == nullptr) {
      slot = new (std::nothrow) Slot;
      if (slot == nullptr) return nullptr;
      slot->next = slots_.load(std::memory_order_relaxed);
      slots_.store(slot, std::memory_order_release);
    }
  }
  ts->entries.emplace_back(this, slot);
  pool_internal::tl_hot = {this, slot};
  return slot;
}

// Drops the calling thread's entries of pools whose close has finished:
// nothing else will touch those slots, so they are freed here, and the
// pool object is recycled when its last slot goes.
void Pool::ReleaseClosedSlots(void* thread_slots) noexcept {
  auto* ts = static_cast<pool_internal::ThreadSlots*>(thread_slots);
  auto& entries = ts->entries;
  size_t kept = 0;
  for (size_t i = 0; i < entries.size(); ++i) {
    Pool* const pool = entries[i].first;
    Slot* const slot = entries[i].second;
    if (!pool->finished()) {
      entries[kept++] = entries[i];
      continue;
    }
    if (pool_internal::tl_hot.slot == slot) pool_internal::tl_hot = {};
    bool recycle;
    {
      std::lock_guard<std::mutex> lock(pool->slots_mu_);
      recycle = pool->FreeSlotLocked(slot);
    }
    if (recycle) Recycle(pool);
  }
  entries.resize(kept);
}

bool Pool::FreeSlotLocked(Slot* slot) noexcept {
  Slot* head = slots_.load(std::memory_order_relaxed);
  if (head == slot) {
    slots_.store(slot->next, std::memory_order_release);
  } else {
    for (Slot* s = head; s != nullptr; s = s->next) {
      if (s->next == slot) {
        s->next = slot->next;
        break;
      }
    }
  }
  freed_slots_dropped_ += slot->dropped.load(std::memory_order_relaxed);
  for (Buffer& b : slot->buffers) FreeBuffer(b.data);
  TrimSpares(slot, 0);
  delete slot;
  if (retired_ && !recycled_ && finished() &&
      slots_.load(std::memory_order_relaxed) == nullptr) {
    recycled_ = true;
    return true;
  }
  return false;
}

void Pool::HandOver(Slot* slot) noexcept {
  platform::PublishBusy(&slot->busy);
  if (closing_.load(std::memory_order_seq_cst) == 0 && slot->cur != nullptr &&
      slot->rec_end != 0) {
    Seal(slot, /*wake_now=*/true);
  }
  slot->busy.store(0, std::memory_order_release);
  bool recycle = false;
  {
    // Under the lock FinishClose frees orphans with: either it sees this
    // slot orphaned, or this sees the close finished and frees it here.
    std::lock_guard<std::mutex> lock(slots_mu_);
    if (finished()) {
      recycle = FreeSlotLocked(slot);
    } else {
      slot->owned.store(0, std::memory_order_release);
    }
  }
  if (recycle) Recycle(this);
}

void pool_internal::ReleaseThreadSlots(void* thread_slots) noexcept {
  auto* ts = static_cast<ThreadSlots*>(thread_slots);
  tl_hot = {nullptr, nullptr};
  if (tl_slots == ts) tl_slots = nullptr;
  for (const auto& entry : ts->entries) entry.first->HandOver(entry.second);
  delete ts;
}

}  // namespace roctracer::pool
