// The producer path: Write and what a writer does when its buffer is full
// (seal it, take the ring's next buffer, wait for it or drop, or spill from
// inside the buffer callback), and waking the delivery thread.
//
// The thread's hot lookup (tl_hot) is defined here, next to the one function
// that must stay a few instructions: WriteTagged.
#include <cstddef>
#include <cstring>
#include <new>

#include "runtime/platform/asymmetric_fence.h"
#include "runtime/platform/cpu_relax.h"
#include "runtime/platform/hot_tls.h"
#include "runtime/pool/buffer_memory.h"
#include "runtime/pool/futex.h"
#include "runtime/pool/pool.h"
#include "runtime/pool/slot.h"
#include "runtime/pool/write_in_place.h"

namespace roctracer::pool {

using pool_internal::Buffer;
using pool_internal::kFilling;
using pool_internal::kFree;
using pool_internal::kRecordSize;
using pool_internal::kSealed;
using pool_internal::Slot;

namespace {

using platform::CpuRelax;

// A waiting producer re-checks for Close at least this often.
constexpr uint64_t kWaitSliceNs = 10 * 1000 * 1000;
constexpr int kSpinsBeforeSleep = 256;

}  // namespace

namespace pool_internal {

ROCTRACER_HOT_TLS HotEntry tl_hot = {nullptr, nullptr};

}  // namespace pool_internal

// The common case (known thread, room in the buffer) touches only this
// thread's slot and makes no call but memcpy; everything else tail-calls
// WriteCold, which starts over. A tag
// and its record share one reservation and one publishing store, so the
// delivery thread sees both or neither, and a full pool drops both.
bool Pool::WriteTagged(const activity_record_t* tag,
                       const activity_record_t& record, const char* text,
                       size_t text_len) noexcept {
  const pool_internal::HotEntry hot = pool_internal::tl_hot;
  // Text longer than 1 KiB always takes the slow path, which truncates it
  // when it cannot fit an empty buffer.
  if (__builtin_expect(hot.pool != this || text_len > 1024, 0)) {
    return WriteCold(tag, record, text, text_len);
  }
  const uint32_t text_bytes =
      text != nullptr ? static_cast<uint32_t>(text_len) + 1 : 0;
  const uint32_t record_bytes = tag != nullptr ? 2 * kRecordSize : kRecordSize;
  Slot* const slot = hot.slot;
  platform::PublishBusy(&slot->busy);
  const uint32_t end = slot->rec_end + record_bytes;
  if (__builtin_expect(closing_.load(std::memory_order_seq_cst) != 0 ||
                           slot->cur == nullptr ||
                           end + text_bytes > slot->text_low,
                       0)) {
    slot->busy.store(0, std::memory_order_release);
    return WriteCold(tag, record, text, text_len);
  }
  char* dst = slot->base + slot->rec_end;
  if (tag != nullptr) {
    std::memcpy(dst, tag, kRecordSize);
    dst += kRecordSize;
  }
  std::memcpy(dst, &record, kRecordSize);
  if (text != nullptr) {
    slot->text_low -= text_bytes;
    char* const copy = slot->base + slot->text_low;
    std::memcpy(copy, text, text_len);
    copy[text_len] = '\0';
    std::memcpy(dst + offsetof(activity_record_t, mark_message), &copy,
                sizeof(copy));
  }
  slot->rec_end = end;
  slot->cur->committed.store(end, std::memory_order_release);
  slot->busy.store(0, std::memory_order_release);
  return true;
}

bool Pool::Write(const activity_record_t& record) noexcept {
  return WriteInPlace([&record](void* dst) noexcept {
    std::memcpy(dst, &record, kRecordSize);
  });
}

bool Pool::WriteCold(const activity_record_t* tag,
                     const activity_record_t& record, const char* text,
                     size_t text_len) noexcept {
  using pool_internal::tl_hot;
  const uint64_t records = tag != nullptr ? 2 : 1;
  Slot* slot = tl_hot.pool == this ? tl_hot.slot : AcquireSlot();
  if (slot == nullptr) {
    refused_.fetch_add(records, std::memory_order_relaxed);
    return false;
  }
  platform::PublishBusy(&slot->busy);
  if (closing_.load(std::memory_order_seq_cst) != 0) {
    slot->busy.store(0, std::memory_order_release);
    refused_.fetch_add(records, std::memory_order_relaxed);
    return false;
  }
  const bool ok = WriteSlow(slot, tag, record, text, text_len);
  slot->busy.store(0, std::memory_order_release);
  return ok;
}

static_assert(Pool::kMinBufferSize > 2 * kRecordSize,
              "an empty buffer must hold a tagged record and its text's NUL");

bool Pool::WriteSlow(Slot* slot, const activity_record_t* tag,
                     const activity_record_t& record, const char* text,
                     size_t text_len) noexcept {
  const uint64_t records = tag != nullptr ? 2 : 1;
  const size_t record_bytes = records * kRecordSize;
  // Text longer than an empty buffer can hold is cut, never dropped.
  const size_t max_text = buffer_size_ - record_bytes;  // includes the NUL
  size_t text_bytes = 0;
  if (text != nullptr) {
    if (text_len > max_text - 1) text_len = max_text - 1;
    text_bytes = text_len + 1;
  }
  for (;;) {
    if (slot->cur == nullptr) {
      Next next = NextBuffer(slot);
      if (next != Next::kOk) {
        if (next == Next::kClosed) {
          refused_.fetch_add(records, std::memory_order_relaxed);
        } else {
          slot->dropped.fetch_add(records, std::memory_order_relaxed);
        }
        return false;
      }
    }
    if (size_t{slot->rec_end} + record_bytes + text_bytes <=
        size_t{slot->text_low}) {
      break;
    }
    SealCurrent(slot);
  }
  char* dst = slot->base + slot->rec_end;
  if (tag != nullptr) {
    std::memcpy(dst, tag, kRecordSize);
    dst += kRecordSize;
  }
  activity_record_t copy = record;
  if (text != nullptr) {
    slot->text_low -= static_cast<uint32_t>(text_bytes);
    char* text_copy = slot->base + slot->text_low;
    std::memcpy(text_copy, text, text_len);
    text_copy[text_len] = '\0';
    copy.mark_message = text_copy;
  }
  std::memcpy(dst, &copy, kRecordSize);
  slot->rec_end += static_cast<uint32_t>(record_bytes);
  slot->cur->committed.store(slot->rec_end, std::memory_order_release);
  return true;
}

void Pool::SealCurrent(Slot* slot) noexcept {
  if (slot->cur_is_spill) {
    // Delivered by DeliverSpill, on this very thread: no counting, no wake.
    slot->cur->state.store(kSealed, std::memory_order_relaxed);
    slot->cur = nullptr;
    slot->base = nullptr;
    slot->cur_is_spill = false;
    return;
  }
  Seal(slot, /*wake_now=*/false);
}

// The buffer callback writing into its own pool (delivery thread only): the
// delivery thread cannot wait for itself, so a lossless pool takes an extra
// buffer. Once one exists, later writes follow it until DeliverSpill has
// drained them all, which keeps this thread's records in write order.
Pool::Next Pool::SpillBuffer(Slot* slot) noexcept {
  auto* b = new (std::nothrow) Buffer;
  if (b == nullptr) return Next::kNoMemory;
  b->data = AllocBuffer();
  if (b->data == nullptr) {
    delete b;
    return Next::kNoMemory;
  }
  try {
    spill_.push_back(b);
  } catch (...) {
    FreeBuffer(b->data);
    delete b;
    return Next::kNoMemory;
  }
  spill_slot_ = slot;
  b->state.store(kFilling, std::memory_order_relaxed);
  slot->cur = b;
  slot->cur_is_spill = true;
  slot->base = b->data;
  slot->rec_end = 0;
  slot->text_low = static_cast<uint32_t>(buffer_size_);
  return Next::kOk;
}

Pool::Next Pool::NextBuffer(Slot* slot) noexcept {
  const bool on_delivery_thread = OnDeliveryThread();
  if (on_delivery_thread && !spill_.empty()) return SpillBuffer(slot);
  Buffer& b = slot->buffers[slot->next_index];
  if (b.state.load(std::memory_order_acquire) != kFree) {
    // Whatever the batching deferred, the delivery thread is needed now.
    WakeDeliveryThread();
    if (policy_ == OverflowPolicy::kDiscard) return Next::kFull;
    if (on_delivery_thread) return SpillBuffer(slot);
    for (int i = 0; i < kSpinsBeforeSleep &&
                    b.state.load(std::memory_order_acquire) != kFree;
         ++i) {
      CpuRelax();
    }
    while (b.state.load(std::memory_order_acquire) != kFree) {
      slot->waiting.store(1, std::memory_order_seq_cst);
      const uint32_t seen = b.state.load(std::memory_order_seq_cst);
      if (seen != kFree) {
        if (closing_.load(std::memory_order_acquire) != 0) {
          slot->waiting.store(0, std::memory_order_relaxed);
          return Next::kClosed;
        }
        pool_internal::FutexWait(&b.state, seen, kWaitSliceNs);
      }
      slot->waiting.store(0, std::memory_order_relaxed);
    }
  }
  if (b.data == nullptr) {
    b.data = TakeSpare(slot);
    if (b.data == nullptr) b.data = AllocBuffer();
    if (b.data == nullptr) return Next::kNoMemory;
  }
  b.state.store(kFilling, std::memory_order_release);
  slot->cur = &b;
  slot->base = b.data;
  slot->rec_end = 0;
  slot->text_low = static_cast<uint32_t>(buffer_size_);
  slot->next_index = (slot->next_index + 1) % buffers_per_slot_;
  return Next::kOk;
}

void Pool::Seal(Slot* slot, bool wake_now) noexcept {
  slot->cur->state.store(kSealed, std::memory_order_release);
  slot->cur = nullptr;
  slot->base = nullptr;
  ++slot->sealed;
  if (wake_now || slot->sealed - slot->freed.load(std::memory_order_relaxed) >=
                      wake_batch_) {
    WakeDeliveryThread();
  }
}

void Pool::WakeDeliveryThread() noexcept {
  if (__builtin_expect(delivery_started_.load(std::memory_order_relaxed) == 0,
                       0)) {
    EnsureDeliveryThread();
  }
  wake_seq_.fetch_add(1, std::memory_order_seq_cst);
  if (delivery_sleeping_.load(std::memory_order_seq_cst) != 0) {
    pool_internal::FutexWakeAll(&wake_seq_);
  }
}

}  // namespace roctracer::pool
