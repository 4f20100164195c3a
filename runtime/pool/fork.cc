// fork(): a pool open in the parent keeps working in the child (see the
// design note in pool.h). ForgetAllInChild (pool_list.cc) calls this for
// every pool, in the child, before it returns from fork().
#include <condition_variable>
#include <mutex>
#include <new>
#include <thread>

#include "runtime/pool/buffer_memory.h"
#include "runtime/pool/pool.h"
#include "runtime/pool/slot.h"

namespace roctracer::pool {

using pool_internal::Buffer;
using pool_internal::kFree;
using pool_internal::Slot;

// The child is single-threaded here: it may rebuild locks another thread
// held at fork time. Records written before the fork are the parent's to
// deliver, so every buffer is emptied; slots of the threads that did not
// come along become orphans for adoption; the delivery thread starts on first
// need.
void Pool::ResetInChild() noexcept {
  new (&slots_mu_) std::mutex;
  new (&control_mu_) std::mutex;
  new (&control_cv_) std::condition_variable;
  if (closing_.load(std::memory_order_relaxed) != 0) {
    // Closed, or closing in the parent: finished as far as the child goes.
    stop_requested_ = finished_ = joined_ = true;
    finished_flag_.store(1, std::memory_order_relaxed);
    delivery_started_.store(1, std::memory_order_relaxed);
    delivery_id_.store(std::thread::id(), std::memory_order_relaxed);
    waiters_ = 0;
    return;
  }
  for (Slot* s = slots_.load(std::memory_order_relaxed); s; s = s->next) {
    for (unsigned i = 0; i < buffers_per_slot_; ++i) {
      Buffer& b = s->buffers[i];
      b.state.store(kFree, std::memory_order_relaxed);
      b.committed.store(0, std::memory_order_relaxed);
      b.consumed = 0;
    }
    s->busy.store(0, std::memory_order_relaxed);
    s->waiting.store(0, std::memory_order_relaxed);
    s->spare_lock.store(0, std::memory_order_relaxed);
    s->cur = nullptr;
    s->base = nullptr;
    s->cur_is_spill = false;
    s->rec_end = s->text_low = s->next_index = s->head = s->idle_sweeps = 0;
    s->sealed = 0;
    s->freed.store(0, std::memory_order_relaxed);
    s->dropped.store(0, std::memory_order_relaxed);
    s->owned.store(0, std::memory_order_relaxed);
  }
  // The forking thread keeps its own slots.
  if (pool_internal::tl_slots != nullptr) {
    for (const auto& entry : pool_internal::tl_slots->entries) {
      if (entry.first == this) entry.second->owned.store(1);
    }
  }
  // Spill buffers hold the parent's records (its delivery thread is not here).
  for (Buffer* b : spill_) {
    FreeBuffer(b->data);
    delete b;
  }
  spill_.clear();
  spill_slot_ = nullptr;
  // The std::thread names a thread of the parent: forget it unjoined.
  new (&delivery_) std::thread;
  delivery_id_.store(std::thread::id(), std::memory_order_relaxed);
  delivery_started_.store(0, std::memory_order_relaxed);
  delivery_sleeping_.store(0, std::memory_order_relaxed);
  delivered_.store(0, std::memory_order_relaxed);
  refused_.store(0, std::memory_order_relaxed);
  pool_dropped_.store(0, std::memory_order_relaxed);
  freed_slots_dropped_ = 0;
  flush_requested_ = flush_completed_ = 0;
  stop_requested_ = finished_ = joined_ = false;
  waiters_ = 0;
}

}  // namespace roctracer::pool
