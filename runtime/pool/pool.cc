// Implementation notes beyond the design note in pool.h.
//
// Memory ordering, producer -> consumer: a producer writes a record's bytes
// (and text), then release-stores the buffer's `committed` offset; sealing
// release-stores `state = kSealed` after the last `committed`. The consumer
// acquire-loads `state`, then `committed`, and reads only bytes below it.
// Consumer -> producer: the consumer finishes reading, then stores
// `state = kFree`; the producer acquire-loads kFree before reusing the bytes.
//
// Sleeping without locks: two Dekker handshakes, both seq_cst on each side.
// Consumer: `consumer_sleeping_ = 1`, re-read `wake_seq_`, futex-wait.
// Producer (once per sealed buffer): bump `wake_seq_`, read
// `consumer_sleeping_`, futex-wake if set. A producer waiting for a buffer
// does the mirror image with its slot's `waiting` flag and the buffer's
// `state` word. The futex re-checks the word atomically, so no wake-up is
// lost; the producer's wait also has a timeout so Close can never be held up
// by a sleeping writer.
#include "runtime/pool/pool.h"

#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <new>
#include <utility>
#include <vector>

#include "runtime/asymmetric_fence.h"
#include "runtime/hot_tls.h"
#include "runtime/pool/futex.h"
#include "runtime/thread_exit.h"

namespace roctracer {
namespace pool_internal {

enum BufferState : uint32_t { kFree = 0, kFilling = 1, kSealed = 2 };

struct alignas(64) Buffer {
  char* data = nullptr;
  std::atomic<uint32_t> state{kFree};
  std::atomic<uint32_t> committed{0};  // end of the published records
  uint32_t consumed = 0;               // consumer only: end of delivered ones
};

struct Slot {
  // Producer-owned: touched by every write of the owning thread.
  alignas(64) std::atomic<uint32_t> busy{0};  // inside Write / HandOver
  std::atomic<uint32_t> waiting{0};           // sleeping for a free buffer
  Buffer* cur = nullptr;                      // nullptr: no buffer held
  char* base = nullptr;
  uint32_t rec_end = 0;   // records grow up to here
  uint32_t text_low = 0;  // text grows down from the buffer end to here
  uint32_t next_index = 0;
  std::atomic<uint64_t> dropped{0};

  // 1 while a live thread owns the slot; 0 once its owner exited.
  alignas(64) std::atomic<uint32_t> owned{1};
  Slot* next = nullptr;  // immutable once published in Pool::slots_

  // Consumer-owned.
  alignas(64) uint32_t head = 0;

  // Sealed buffers: producer's count, and consumer's count of those freed.
  alignas(64) uint64_t sealed = 0;
  std::atomic<uint64_t> freed{0};

  Buffer buffers[Pool::kMaxBuffersPerSlot];
};

namespace {

inline void CpuRelax() noexcept { __builtin_ia32_pause(); }

}  // namespace

// The hot lookup: the last pool this thread wrote to (hot_tls.h: one
// %fs-relative load even inside a shared library).
struct HotEntry {
  const Pool* pool;
  Slot* slot;
};
ROCTRACER_HOT_TLS HotEntry tl_hot = {nullptr, nullptr};

// Every (pool, slot) pair of this thread. Heap-allocated on warm-up and
// released by a pthread key destructor rather than a thread_local
// destructor, so a Write made from some other thread_local destructor after
// ours ran still works (the key destructor is simply run again).
struct ThreadSlots {
  std::vector<std::pair<Pool*, Slot*>> entries;
};
ROCTRACER_HOT_TLS ThreadSlots* tl_slots = nullptr;

namespace {

// Process-wide list of every pool ever created (see Pool::Retire). Trivially
// destructible on purpose: it must outlive all static destructors.
std::atomic<Pool*> g_pools{nullptr};

}  // namespace

}  // namespace pool_internal

using pool_internal::Buffer;
using pool_internal::kFilling;
using pool_internal::kFree;
using pool_internal::kSealed;
using pool_internal::Slot;

namespace {

constexpr uint32_t kRecordSize = sizeof(activity_record_t);
// A waiting producer re-checks for Close at least this often.
constexpr uint64_t kWaitSliceNs = 10 * 1000 * 1000;
constexpr int kSpinsBeforeSleep = 256;

}  // namespace

Pool::Pool(const roctracer_properties_t& properties, OverflowPolicy policy)
    : policy_(policy),
      buffer_size_(properties.buffer_size),
      buffers_per_slot_(static_cast<unsigned>(std::min<size_t>(
          kMaxBuffersPerSlot,
          std::max<size_t>(2, kSlotBytesTarget / properties.buffer_size)))),
      wake_batch_(std::max(1u, buffers_per_slot_ / 4)),
      alloc_fun_(properties.alloc_fun),
      alloc_arg_(properties.alloc_arg),
      callback_(properties.buffer_callback_fun),
      callback_arg_(properties.buffer_callback_arg) {}

Pool* Pool::Create(const roctracer_properties_t& properties,
                   OverflowPolicy policy, PoolStatus* status) noexcept {
  PoolStatus ignored;
  if (status == nullptr) status = &ignored;
  if (properties.buffer_callback_fun == nullptr ||
      properties.buffer_size < kMinBufferSize ||
      properties.buffer_size > kMaxBufferSize ||
      (policy != OverflowPolicy::kLossless &&
       policy != OverflowPolicy::kDiscard)) {
    *status = PoolStatus::kInvalidArgument;
    return nullptr;
  }
  InitAsymmetricFence();
  (void)ThreadExitKey<&pool_internal::ReleaseThreadSlots>();
  Pool* pool = new (std::nothrow) Pool(properties, policy);
  if (pool == nullptr) {
    *status = PoolStatus::kMemoryAllocation;
    return nullptr;
  }
  try {
    pool->consumer_ = std::thread([pool] { pool->ConsumerMain(); });
  } catch (...) {
    // Never started, so never published: nothing else can refer to it.
    ::operator delete (static_cast<void*>(pool),
                       std::align_val_t{alignof(Pool)});
    *status = PoolStatus::kMemoryAllocation;
    return nullptr;
  }
  pool->Register();
  *status = PoolStatus::kOk;
  return pool;
}

void Pool::Register() noexcept {
  static const bool registered = [] {
    std::atexit(&Pool::CloseAllAtExit);
    pthread_atfork(nullptr, nullptr, &Pool::ForgetAllInChild);
    return true;
  }();
  (void)registered;
  Pool* head = pool_internal::g_pools.load(std::memory_order_relaxed);
  do {
    next_pool_ = head;
  } while (!pool_internal::g_pools.compare_exchange_weak(
      head, this, std::memory_order_release, std::memory_order_relaxed));
}

// Runs before static destructors of objects constructed before the first
// Create; ours have none, so nothing it touches is gone.
void Pool::CloseAllAtExit() noexcept {
  for (Pool* p = pool_internal::g_pools.load(std::memory_order_acquire); p;
       p = p->next_pool_) {
    p->Close();
  }
}

// A forked child has no consumer threads: left as they are, its pools would
// block lossless writers and hang the at-exit close. The child is single-
// threaded here, so it may rebuild the locks (another thread may have held
// them at fork time) and mark every pool closed and finished. Records
// written before the fork are the parent's to deliver.
void Pool::ForgetAllInChild() noexcept {
  for (Pool* p = pool_internal::g_pools.load(std::memory_order_acquire); p;
       p = p->next_pool_) {
    new (&p->slots_mu_) std::mutex;
    new (&p->control_mu_) std::mutex;
    new (&p->control_cv_) std::condition_variable;
    p->closing_.store(1, std::memory_order_relaxed);
    p->stop_requested_ = true;
    p->finished_ = true;
    p->joined_ = true;  // the std::thread names a thread of the parent
    p->consumer_id_.store(std::thread::id(), std::memory_order_relaxed);
  }
}

void Pool::Retire(Pool* pool) noexcept {
  if (pool != nullptr) pool->Close();
}

// ---------------------------------------------------------------- producers

// The common case (known thread, room in the buffer) touches only this
// thread's slot and makes no call but memcpy, so it needs no callee-saved
// registers; everything else tail-calls WriteCold, which starts over. A tag
// and its record share one reservation and one publishing store, so the
// consumer sees both or neither, and a full pool drops both.
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
  PublishBusy(&slot->busy);
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
  PublishBusy(&slot->busy);
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
        if (next == Next::kFull) {
          slot->dropped.fetch_add(records, std::memory_order_relaxed);
        } else {
          refused_.fetch_add(records, std::memory_order_relaxed);
        }
        return false;
      }
    }
    if (size_t{slot->rec_end} + record_bytes + text_bytes <=
        size_t{slot->text_low}) {
      break;
    }
    Seal(slot, /*wake_now=*/false);
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

Pool::Next Pool::NextBuffer(Slot* slot) noexcept {
  Buffer& b = slot->buffers[slot->next_index];
  if (b.state.load(std::memory_order_acquire) != kFree) {
    // The consumer cannot wait for itself (a callback writing into its own
    // pool): treat that like discard mode.
    // Whatever the batching deferred, the consumer is needed now.
    WakeConsumer();
    if (policy_ == OverflowPolicy::kDiscard || OnConsumerThread()) {
      return Next::kFull;
    }
    for (int i = 0; i < kSpinsBeforeSleep &&
                    b.state.load(std::memory_order_acquire) != kFree;
         ++i) {
      pool_internal::CpuRelax();
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
    WakeConsumer();
  }
}

void Pool::WakeConsumer() noexcept {
  wake_seq_.fetch_add(1, std::memory_order_seq_cst);
  if (consumer_sleeping_.load(std::memory_order_seq_cst) != 0) {
    pool_internal::FutexWakeAll(&wake_seq_);
  }
}

// ----------------------------------------------------------------- warm-up

Slot* Pool::AcquireSlot() noexcept {
  using pool_internal::tl_slots;
  pool_internal::ThreadSlots* ts = tl_slots;
  if (ts == nullptr) {
    ts = new (std::nothrow) pool_internal::ThreadSlots;
    if (ts == nullptr) return nullptr;
    tl_slots = ts;
    // Out of keys: records of exiting threads are then delivered by the next
    // flush or close instead of at thread exit.
    (void)ReleaseAtThreadExit<&pool_internal::ReleaseThreadSlots>(ts);
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
      slot = NewSlot();
      if (slot == nullptr) return nullptr;
      slot->next = slots_.load(std::memory_order_relaxed);
      slots_.store(slot, std::memory_order_release);
    }
  }
  ts->entries.emplace_back(this, slot);
  pool_internal::tl_hot = {this, slot};
  return slot;
}

Slot* Pool::NewSlot() noexcept {
  Slot* slot = new (std::nothrow) Slot;
  if (slot == nullptr) return nullptr;
  for (Buffer& b : slot->buffers) {
    b.data = AllocBuffer();
    if (b.data == nullptr) {
      for (Buffer& f : slot->buffers) FreeBuffer(f.data);
      delete slot;
      return nullptr;
    }
  }
  return slot;
}

char* Pool::AllocBuffer() noexcept {
  char* p = nullptr;
  if (alloc_fun_ != nullptr) {
    alloc_fun_(&p, buffer_size_, alloc_arg_);
  } else {
    p = static_cast<char*>(std::malloc(buffer_size_));
  }
  return p;
}

void Pool::FreeBuffer(char* buffer) noexcept {
  if (buffer == nullptr) return;
  if (alloc_fun_ != nullptr) {
    alloc_fun_(&buffer, 0, alloc_arg_);
  } else {
    std::free(buffer);
  }
}

void Pool::HandOver(Slot* slot) noexcept {
  PublishBusy(&slot->busy);
  if (closing_.load(std::memory_order_seq_cst) == 0 && slot->cur != nullptr &&
      slot->rec_end != 0) {
    Seal(slot, /*wake_now=*/true);
  }
  slot->busy.store(0, std::memory_order_release);
  slot->owned.store(0, std::memory_order_release);
}

void pool_internal::ReleaseThreadSlots(void* thread_slots) noexcept {
  auto* ts = static_cast<ThreadSlots*>(thread_slots);
  tl_hot = {nullptr, nullptr};
  if (tl_slots == ts) tl_slots = nullptr;
  for (const auto& entry : ts->entries) entry.first->HandOver(entry.second);
  delete ts;
}

// ---------------------------------------------------------------- consumer

bool Pool::OnConsumerThread() const noexcept {
  return consumer_id_.load(std::memory_order_relaxed) ==
         std::this_thread::get_id();
}

void Pool::Deliver(const char* begin, const char* end) noexcept {
  if (begin == end) return;
  callback_(begin, end, callback_arg_);
  delivered_.store(delivered_.load(std::memory_order_relaxed) +
                       static_cast<uint64_t>(end - begin) / kRecordSize,
                   std::memory_order_release);
}

void Pool::SweepSlot(Slot* slot, bool flush) noexcept {
  // Bounded so a fast producer cannot keep the consumer on one slot; the
  // bound still covers every buffer that was outstanding when we started.
  for (unsigned step = 0; step < 2 * buffers_per_slot_; ++step) {
    Buffer& b = slot->buffers[slot->head];
    const uint32_t state = b.state.load(std::memory_order_acquire);
    if (state == kFree) return;
    const uint32_t committed = b.committed.load(std::memory_order_acquire);
    if (state == kFilling) {
      if (flush) {
        Deliver(b.data + b.consumed, b.data + committed);
        b.consumed = committed;
      }
      return;
    }
    // Sealed: `committed` is final.
    Deliver(b.data + b.consumed, b.data + committed);
    b.consumed = 0;
    b.committed.store(0, std::memory_order_relaxed);
    b.state.store(kFree, std::memory_order_seq_cst);
    if (slot->waiting.load(std::memory_order_seq_cst) != 0) {
      pool_internal::FutexWakeAll(&b.state);
    }
    slot->freed.store(slot->freed.load(std::memory_order_relaxed) + 1,
                      std::memory_order_relaxed);
    slot->head = (slot->head + 1) % buffers_per_slot_;
  }
}

void Pool::Sweep(bool flush) noexcept {
  for (Slot* s = slots_.load(std::memory_order_acquire); s; s = s->next) {
    SweepSlot(s, flush);
  }
}

void Pool::ConsumerMain() noexcept {
  consumer_id_.store(std::this_thread::get_id(), std::memory_order_relaxed);
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
    if (flushing) {
      {
        std::lock_guard<std::mutex> lock(control_mu_);
        flush_completed_ = flush_target;
      }
      control_cv_.notify_all();
    }
    {
      std::lock_guard<std::mutex> lock(control_mu_);
      if (flush_requested_ != flush_completed_ || stop_requested_) continue;
    }
    consumer_sleeping_.store(1, std::memory_order_seq_cst);
    if (wake_seq_.load(std::memory_order_seq_cst) == seq) {
      pool_internal::FutexWait(&wake_seq_, seq, 0);
    }
    consumer_sleeping_.store(0, std::memory_order_relaxed);
  }
  FinishClose();
}

// ------------------------------------------------------------ flush, close

void Pool::Flush() noexcept {
  std::unique_lock<std::mutex> lock(control_mu_);
  if (OnConsumerThread()) {
    // Runs after the current callback returns (see ConsumerMain's re-check).
    if (!stop_requested_) ++flush_requested_;
    return;
  }
  if (stop_requested_) {
    // A close in progress delivers everything; wait for it like a flush.
    control_cv_.wait(lock, [this] { return finished_; });
    return;
  }
  const uint64_t ticket = ++flush_requested_;
  lock.unlock();
  WakeConsumer();
  lock.lock();
  control_cv_.wait(
      lock, [this, ticket] { return flush_completed_ >= ticket || finished_; });
}

void Pool::Close() noexcept {
  if (closing_.exchange(1, std::memory_order_seq_cst) == 0) {
    // After this, every producer either sees `closing_` or is seen busy.
    HeavyFence();
    {
      // Writers asleep waiting for a buffer: let them see `closing_` now.
      std::lock_guard<std::mutex> lock(slots_mu_);
      for (Slot* s = slots_.load(std::memory_order_relaxed); s; s = s->next) {
        if (s->waiting.load(std::memory_order_seq_cst) != 0) {
          for (Buffer& b : s->buffers) pool_internal::FutexWakeAll(&b.state);
        }
      }
    }
    {
      std::lock_guard<std::mutex> lock(control_mu_);
      stop_requested_ = true;
    }
    WakeConsumer();
  }
  if (OnConsumerThread()) return;  // ConsumerMain finishes after the callback
  std::unique_lock<std::mutex> lock(control_mu_);
  control_cv_.wait(lock, [this] { return finished_; });
  if (!joined_ && consumer_.joinable()) {
    joined_ = true;
    std::thread consumer = std::move(consumer_);
    lock.unlock();
    consumer.join();
  }
}

// Consumer thread, after Close: wait out writes in flight, deliver the rest,
// free every buffer.
void Pool::FinishClose() noexcept {
  {
    std::lock_guard<std::mutex> lock(slots_mu_);
    for (Slot* s = slots_.load(std::memory_order_relaxed); s; s = s->next) {
      // Writers in flight finish quickly; one waiting for a buffer gives up
      // within kWaitSliceNs because `closing_` is set.
      while (s->busy.load(std::memory_order_seq_cst) != 0) sched_yield();
    }
  }
  // Nothing moves any more: one pass delivers every committed record.
  Sweep(/*flush=*/true);
  {
    std::lock_guard<std::mutex> lock(slots_mu_);
    for (Slot* s = slots_.load(std::memory_order_relaxed); s; s = s->next) {
      for (Buffer& b : s->buffers) {
        FreeBuffer(b.data);
        b.data = nullptr;
      }
    }
  }
  {
    std::lock_guard<std::mutex> lock(control_mu_);
    finished_ = true;
    flush_completed_ = flush_requested_;
  }
  control_cv_.notify_all();
}

uint64_t Pool::dropped() const noexcept {
  uint64_t total = 0;
  for (Slot* s = slots_.load(std::memory_order_acquire); s; s = s->next) {
    total += s->dropped.load(std::memory_order_relaxed);
  }
  return total;
}

}  // namespace roctracer
