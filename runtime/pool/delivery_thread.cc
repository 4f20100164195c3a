// The delivery thread: one per pool, it walks every slot's ring in buffer
// order, hands sealed buffers (and, at a flush, the committed part of those
// being filled) to the buffer callback, gives the bytes back, and delivers
// what the callback itself wrote into its own pool (spill buffers).
#include <cstddef>
#include <mutex>
#include <thread>

#include "runtime/pool/buffer_memory.h"
#include "runtime/pool/futex.h"
#include "runtime/pool/pool.h"
#include "runtime/pool/slot.h"

namespace roctracer::pool {

using pool_internal::Buffer;
using pool_internal::kFilling;
using pool_internal::kFree;
using pool_internal::kRecordSize;
using pool_internal::Slot;

namespace {

// Delivery rounds without a sealed buffer before a slot's spares go back.
constexpr uint32_t kIdleSweepsBeforeTrim = 8;

}  // namespace

bool Pool::StartDeliveryThread() noexcept {
  try {
    delivery_ = std::thread([this] { DeliveryMain(); });
  } catch (...) {
    return false;
  }
  delivery_started_.store(1, std::memory_order_release);
  return true;
}

// A forked child starts its delivery thread on first need (see ResetInChild).
void Pool::EnsureDeliveryThread() noexcept {
  if (delivery_started_.load(std::memory_order_acquire) != 0) return;
  std::lock_guard<std::mutex> lock(control_mu_);
  if (delivery_started_.load(std::memory_order_relaxed) != 0 ||
      stop_requested_) {
    return;
  }
  (void)StartDeliveryThread();
}

void Pool::Deliver(const char* begin, const char* end) noexcept {
  if (begin == end) return;
  const uint64_t n = static_cast<uint64_t>(end - begin) / kRecordSize;
  if (callback_ == nullptr) {
    pool_dropped_.fetch_add(n, std::memory_order_relaxed);
    return;
  }
  callback_(begin, end, callback_arg_);
  delivered_.store(delivered_.load(std::memory_order_relaxed) + n,
                   std::memory_order_release);
}

void Pool::SweepSlot(Slot* slot, bool flush) noexcept {
  bool delivered_any = false;
  // Bounded so a fast producer cannot keep the delivery thread on one slot; the
  // bound still covers every buffer that was outstanding when we started.
  for (unsigned step = 0; step < 2 * buffers_per_slot_; ++step) {
    Buffer& b = slot->buffers[slot->head];
    const uint32_t state = b.state.load(std::memory_order_acquire);
    if (state == kFree) break;
    const uint32_t committed = b.committed.load(std::memory_order_acquire);
    if (state == kFilling) {
      if (flush) {
        Deliver(b.data + b.consumed, b.data + committed);
        b.consumed = committed;
      }
      break;
    }
    // Sealed: `committed` is final.
    Deliver(b.data + b.consumed, b.data + committed);
    b.consumed = 0;
    b.committed.store(0, std::memory_order_relaxed);
    // The bytes leave the ring position: a thread holds only the buffers
    // it has not had delivered, plus a few spares for its next ones.
    if (!ParkSpare(slot, b.data)) FreeBuffer(b.data);
    b.data = nullptr;
    delivered_any = true;
    b.state.store(kFree, std::memory_order_seq_cst);
    if (slot->waiting.load(std::memory_order_seq_cst) != 0) {
      pool_internal::FutexWakeAll(&b.state);
    }
    slot->freed.store(slot->freed.load(std::memory_order_relaxed) + 1,
                      std::memory_order_relaxed);
    slot->head = (slot->head + 1) % buffers_per_slot_;
  }
  // A thread that has sealed nothing for a while (or at a flush) has
  // stopped filling buffers fast: its spares go back, one stays for its
  // next buffer.
  if (delivered_any) {
    slot->idle_sweeps = 0;
  } else if (++slot->idle_sweeps >= kIdleSweepsBeforeTrim || flush) {
    TrimSpares(slot, 1);
  }
}

void Pool::TrimSpares(Slot* slot, uint32_t keep) noexcept {
  if (slot->spare_lock.exchange(1, std::memory_order_acquire) != 0) return;
  while (slot->spare_count > keep) {
    FreeBuffer(slot->spares[--slot->spare_count]);
  }
  slot->spare_lock.store(0, std::memory_order_release);
}

void Pool::Sweep(bool flush) noexcept {
  for (Slot* s = slots_.load(std::memory_order_acquire); s; s = s->next) {
    SweepSlot(s, flush);
  }
}

// Delivery thread only. Delivers the spill buffers that existed on entry
// (`all`: until none is left), the one still being filled included; the
// callbacks may add more, which the next round delivers. True when some
// remain.
bool Pool::DeliverSpill(bool all) noexcept {
  size_t limit = spill_.size();
  size_t done = 0;
  for (; done < spill_.size() && (all || done < limit); ++done) {
    Buffer* b = spill_[done];
    if (spill_slot_ != nullptr && spill_slot_->cur == b) {
      spill_slot_->cur = nullptr;
      spill_slot_->base = nullptr;
      spill_slot_->cur_is_spill = false;
    }
    Deliver(b->data, b->data + b->committed.load(std::memory_order_relaxed));
    FreeBuffer(b->data);
    delete b;
    spill_[done] = nullptr;
  }
  spill_.erase(spill_.begin(), spill_.begin() + static_cast<ptrdiff_t>(done));
  return !spill_.empty();
}

void Pool::DeliveryMain() noexcept {
  delivery_id_.store(std::this_thread::get_id(), std::memory_order_relaxed);
  for (;;) {
    const uint32_t seq = wake_seq_.load(std::memory_order_seq_cst);
    uint64_t flush_target;
    bool stop;
    {
      std::lock_guard<std::mutex> lock(control_mu_);
      flush_target = flush_requested_;
      stop = stop_requested_;
    }
    if (stop) break;
    const bool flushing = flush_target != flush_completed_;
    Sweep(flushing);
    // After the sweep: what the callback spilled is newer than the ring
    // buffers its thread had sealed, which the sweep just delivered.
    const bool more_spill = !spill_.empty() && DeliverSpill(false);
    if (flushing) {
      {
        std::lock_guard<std::mutex> lock(control_mu_);
        flush_completed_ = flush_target;
      }
      control_cv_.notify_all();
    }
    if (more_spill) continue;
    {
      std::lock_guard<std::mutex> lock(control_mu_);
      if (flush_requested_ != flush_completed_ || stop_requested_) continue;
    }
    delivery_sleeping_.store(1, std::memory_order_seq_cst);
    if (wake_seq_.load(std::memory_order_seq_cst) == seq) {
      pool_internal::FutexWait(&wake_seq_, seq, 0);
    }
    delivery_sleeping_.store(0, std::memory_order_relaxed);
  }
  FinishClose();
}

}  // namespace roctracer::pool
