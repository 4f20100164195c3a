// Flush and Close: the handshake with the delivery thread (never on the
// producer path), and the close's last step, which frees every buffer.
#include <sched.h>

#include <mutex>
#include <thread>
#include <utility>

#include "runtime/platform/asymmetric_fence.h"
#include "runtime/pool/buffer_memory.h"
#include "runtime/pool/futex.h"
#include "runtime/pool/pool.h"
#include "runtime/pool/slot.h"

namespace roctracer::pool {

using pool_internal::Buffer;
using pool_internal::Slot;

void Pool::Flush() noexcept {
  std::unique_lock<std::mutex> lock(control_mu_);
  if (OnDeliveryThread()) {
    // Runs after the current callback returns (see DeliveryMain's re-check).
    if (!stop_requested_) ++flush_requested_;
    return;
  }
  ++waiters_;
  if (stop_requested_) {
    // A close in progress delivers everything; wait for it like a flush.
    control_cv_.wait(lock, [this] { return finished_; });
    --waiters_;
    return;
  }
  const uint64_t ticket = ++flush_requested_;
  lock.unlock();
  WakeDeliveryThread();
  lock.lock();
  control_cv_.wait(
      lock, [this, ticket] { return flush_completed_ >= ticket || finished_; });
  --waiters_;
}

void Pool::Close() noexcept {
  if (closing_.exchange(1, std::memory_order_seq_cst) == 0) {
    // After this, every producer either sees `closing_` or is seen busy.
    platform::HeavyFence();
    {
      // Writers asleep waiting for a buffer: let them see `closing_` now.
      std::lock_guard<std::mutex> lock(slots_mu_);
      for (Slot* s = slots_.load(std::memory_order_relaxed); s; s = s->next) {
        if (s->waiting.load(std::memory_order_seq_cst) != 0) {
          for (Buffer& b : s->buffers) pool_internal::FutexWakeAll(&b.state);
        }
      }
    }
    bool run_here = false;
    {
      std::lock_guard<std::mutex> lock(control_mu_);
      stop_requested_ = true;
      // A forked child that never needed its delivery thread: no thread to
      // stop, the closing thread delivers.
      if (delivery_started_.load(std::memory_order_relaxed) == 0) {
        delivery_started_.store(1, std::memory_order_relaxed);
        joined_ = true;
        run_here = true;
      }
    }
    if (run_here) {
      FinishClose();
      return;
    }
    WakeDeliveryThread();
  }
  if (OnDeliveryThread()) return;  // DeliveryMain finishes after the callback
  std::unique_lock<std::mutex> lock(control_mu_);
  ++waiters_;
  control_cv_.wait(lock, [this] { return finished_; });
  if (!joined_ && delivery_.joinable()) {
    joined_ = true;
    std::thread delivery = std::move(delivery_);
    lock.unlock();
    delivery.join();
    lock.lock();
  }
  --waiters_;
}

// Delivery thread (or the closing thread when there is none), after Close:
// wait out writes in flight, deliver the rest, free every buffer, and the
// slots no live thread owns.
void Pool::FinishClose() noexcept {
  {
    std::lock_guard<std::mutex> lock(slots_mu_);
    for (Slot* s = slots_.load(std::memory_order_relaxed); s; s = s->next) {
      // Writers in flight finish quickly; one waiting for a buffer gives up
      // within kWaitSliceNs because `closing_` is set.
      while (s->busy.load(std::memory_order_seq_cst) != 0) sched_yield();
    }
  }
  // Nothing moves any more: one pass delivers every committed record, the
  // ring buffers before what the callback spilled after them.
  Sweep(/*flush=*/true);
  DeliverSpill(/*all=*/true);
  bool recycle = false;
  {
    std::lock_guard<std::mutex> lock(slots_mu_);
    Slot* s = slots_.load(std::memory_order_relaxed);
    while (s != nullptr) {
      Slot* const next = s->next;
      for (Buffer& b : s->buffers) {
        FreeBuffer(b.data);
        b.data = nullptr;
      }
      TrimSpares(s, 0);
      s->cur = nullptr;
      s->cur_is_spill = false;
      s = next;
    }
    finished_flag_.store(1, std::memory_order_release);
    // Orphans: their threads are gone, nothing refers to them any more.
    s = slots_.load(std::memory_order_relaxed);
    while (s != nullptr) {
      Slot* const next = s->next;
      if (s->owned.load(std::memory_order_acquire) == 0) {
        recycle = FreeSlotLocked(s) || recycle;
      }
      s = next;
    }
  }
  {
    std::lock_guard<std::mutex> lock(control_mu_);
    finished_ = true;
    flush_completed_ = flush_requested_;
  }
  control_cv_.notify_all();
  // Retire waits for this close (it calls Close first), so a pool can only
  // become recyclable here when the last orphan went after Retire gave up:
  // never in practice, but handled.
  if (recycle) Recycle(this);
}

}  // namespace roctracer::pool
