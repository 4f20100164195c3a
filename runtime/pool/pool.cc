// Implementation notes beyond the design note in pool.h.
//
// Memory ordering, producer -> delivery thread: a producer writes a record's
// bytes (and text), then release-stores the buffer's `committed` offset;
// sealing release-stores `state = kSealed` after the last `committed`. The
// delivery thread acquire-loads `state`, then `committed`, and reads only bytes
// below it. Delivery thread -> producer: the delivery thread finishes reading,
// then stores `state = kFree`; the producer acquire-loads kFree before reusing
// the bytes.
//
// Sleeping without locks: two Dekker handshakes, both seq_cst on each side.
// Delivery thread: `delivery_sleeping_ = 1`, re-read `wake_seq_`, futex-wait.
// Producer (once per sealed buffer): bump `wake_seq_`, read
// `delivery_sleeping_`, futex-wake if set. A producer waiting for a buffer
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

#include "runtime/platform/asymmetric_fence.h"
#include "runtime/platform/hot_tls.h"
#include "runtime/platform/thread_exit.h"
#include "runtime/pool/futex.h"
#include "runtime/pool/process_exit.h"

namespace roctracer {
namespace pool_internal {

enum BufferState : uint32_t { kFree = 0, kFilling = 1, kSealed = 2 };

struct alignas(64) Buffer {
  char* data = nullptr;
  std::atomic<uint32_t> state{kFree};
  std::atomic<uint32_t> committed{0};  // end of the published records
  uint32_t consumed = 0;  // delivery thread only: end of delivered ones
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
  bool cur_is_spill = false;  // cur is one of the pool's spill buffers
  std::atomic<uint64_t> dropped{0};

  // Bytes of delivered buffers kept for the ring's next empty position, so
  // that a busy thread reuses memory instead of allocating per buffer. Both
  // sides only try the lock: whoever finds it taken allocates or frees.
  std::atomic<uint32_t> spare_lock{0};
  uint32_t spare_count = 0;  // under spare_lock
  char* spares[Pool::kMaxBuffersPerSlot];

  // 1 while a live thread owns the slot; 0 once its owner exited.
  alignas(64) std::atomic<uint32_t> owned{1};
  Slot* next = nullptr;  // immutable once published in Pool::slots_

  // Owned by the delivery thread.
  alignas(64) uint32_t head = 0;
  uint32_t idle_sweeps = 0;  // consecutive sweeps that found nothing sealed

  // Sealed buffers: producer's count, and delivery thread's count of those
  // freed.
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
// ours ran still works (the key destructor is simply run again). Entries of
// finished pools are dropped (and their slots freed) at the next warm-up, so
// the list holds the pools this thread uses, not every pool it ever used.
struct ThreadSlots {
  std::vector<std::pair<Pool*, Slot*>> entries;
};
ROCTRACER_HOT_TLS ThreadSlots* tl_slots = nullptr;

namespace {

// Process-wide list of every Pool object ever made (see Pool::Retire), and
// the retired ones waiting to be reused, oldest first. Trivially
// destructible or leaked on purpose: they must outlive all static
// destructors.
std::atomic<Pool*> g_pools{nullptr};
std::atomic<uint64_t> g_next_pool_id{1};
std::mutex& RetiredMutex() {
  static std::mutex* mu = new std::mutex;
  return *mu;
}
std::vector<Pool*>& Retired() {  // under RetiredMutex()
  static auto* retired = new std::vector<Pool*>;
  return *retired;
}

// ROCTRACER_POOL_THREAD_BUFFERS: the most buffers one thread may hold in one
// pool (2..64); unset or unreadable means no cap beyond the default.
unsigned ThreadBufferCap() noexcept {
  static const unsigned cap = [] {
    const char* env = std::getenv("ROCTRACER_POOL_THREAD_BUFFERS");
    if (env == nullptr || *env == '\0') return Pool::kMaxBuffersPerSlot;
    char* end = nullptr;
    const unsigned long v = std::strtoul(env, &end, 10);
    if (*end != '\0' || v == 0) return Pool::kMaxBuffersPerSlot;
    return static_cast<unsigned>(
        std::min<unsigned long>(Pool::kMaxBuffersPerSlot, std::max(2ul, v)));
  }();
  return cap;
}

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
// Delivery rounds without a sealed buffer before a slot's spares go back.
constexpr uint32_t kIdleSweepsBeforeTrim = 8;

}  // namespace

Pool::Pool(const roctracer_properties_t& properties, OverflowPolicy policy)
    : policy_(policy),
      buffer_size_(properties.buffer_size),
      buffers_per_slot_(static_cast<unsigned>(std::min<size_t>(
          pool_internal::ThreadBufferCap(),
          std::max<size_t>(2, kSlotBytesTarget / properties.buffer_size)))),
      id_(pool_internal::g_next_pool_id.fetch_add(1,
                                                  std::memory_order_relaxed)),
      wake_batch_(std::max(1u, buffers_per_slot_ / 4)),
      alloc_fun_(properties.alloc_fun),
      alloc_arg_(properties.alloc_arg),
      callback_(properties.buffer_callback_fun),
      callback_arg_(properties.buffer_callback_arg) {}

Pool* Pool::Create(const roctracer_properties_t& properties,
                   OverflowPolicy policy, PoolStatus* status) noexcept {
  PoolStatus ignored;
  if (status == nullptr) status = &ignored;
  if (properties.buffer_size < kMinBufferSize ||
      properties.buffer_size > kMaxBufferSize ||
      (policy != OverflowPolicy::kLossless &&
       policy != OverflowPolicy::kDiscard)) {
    *status = PoolStatus::kInvalidArgument;
    return nullptr;
  }
  platform::InitAsymmetricFence();
  (void)platform::ThreadExitKey<&pool_internal::ReleaseThreadSlots>();
  Pool* pool = NewShell(properties, policy);
  if (pool == nullptr) {
    *status = PoolStatus::kMemoryAllocation;
    return nullptr;
  }
  // An allocator that cannot give one buffer now would lose every record
  // later: say so now.
  char* probe = pool->AllocBuffer();
  if (probe == nullptr || !pool->StartDeliveryThread()) {
    pool->FreeBuffer(probe);
    // Never started: closing it runs nothing and delivers nothing.
    pool->closing_.store(1, std::memory_order_relaxed);
    {
      std::lock_guard<std::mutex> lock(pool->control_mu_);
      pool->stop_requested_ = pool->finished_ = pool->joined_ = true;
    }
    pool->finished_flag_.store(1, std::memory_order_release);
    Retire(pool);
    *status = PoolStatus::kMemoryAllocation;
    return nullptr;
  }
  pool->FreeBuffer(probe);
  // Closed (and delivered) at exit if nobody closes it before.
  process_exit::Arm();
  *status = PoolStatus::kOk;
  return pool;
}

// A retired Pool object is reused once kRetiredKept others were retired
// after it and nobody waits inside its Flush/Close; otherwise a new one is
// made and added to the list of all of them.
Pool* Pool::NewShell(const roctracer_properties_t& properties,
                     OverflowPolicy policy) noexcept {
  Pool* reuse = nullptr;
  {
    std::lock_guard<std::mutex> lock(pool_internal::RetiredMutex());
    auto& retired = pool_internal::Retired();
    if (retired.size() > kRetiredKept) {
      Pool* oldest = retired.front();
      std::unique_lock<std::mutex> control(oldest->control_mu_);
      if (oldest->waiters_ == 0 &&
          !(oldest->delivery_.joinable() &&
            oldest->delivery_.get_id() == std::this_thread::get_id())) {
        reuse = oldest;
        retired.erase(retired.begin());
      }
    }
  }
  if (reuse != nullptr) {
    if (reuse->delivery_.joinable()) reuse->delivery_.join();
    Pool* const next = reuse->next_pool_;
    reuse->~Pool();
    new (reuse) Pool(properties, policy);
    reuse->next_pool_ = next;
    return reuse;
  }
  Pool* pool = new (std::nothrow) Pool(properties, policy);
  if (pool != nullptr) pool->Register();
  return pool;
}

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

void Pool::Register() noexcept {
  static const bool registered = [] {
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

void Pool::CloseAll() noexcept {
  for (Pool* p = pool_internal::g_pools.load(std::memory_order_acquire); p;
       p = p->next_pool_) {
    p->Close();
  }
}

// A forked child has no delivery threads: see ResetInChild.
void Pool::ForgetAllInChild() noexcept {
  new (&pool_internal::RetiredMutex()) std::mutex;
  for (Pool* p = pool_internal::g_pools.load(std::memory_order_acquire); p;
       p = p->next_pool_) {
    p->ResetInChild();
  }
}

void Pool::Retire(Pool* pool) noexcept {
  if (pool == nullptr) return;
  pool->Close();
  bool recycle = false;
  {
    std::lock_guard<std::mutex> lock(pool->slots_mu_);
    if (pool->retired_) return;
    pool->retired_ = true;
    recycle = pool->finished() &&
              pool->slots_.load(std::memory_order_relaxed) == nullptr;
    pool->recycled_ = recycle;
  }
  if (recycle) Recycle(pool);
}

void Pool::Recycle(Pool* pool) noexcept {
  std::lock_guard<std::mutex> lock(pool_internal::RetiredMutex());
  try {
    pool_internal::Retired().push_back(pool);
  } catch (...) {
    // Not reusable then, but still a valid closed pool: nothing breaks.
  }
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

// ---------------------------------------------------------------- producers

// The common case (known thread, room in the buffer) touches only this
// thread's slot and makes no call but memcpy, so it needs no callee-saved
// registers; everything else tail-calls WriteCold, which starts over. A tag
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

// ------------------------------------------------------- delivery thread

bool Pool::OnDeliveryThread() const noexcept {
  return delivery_id_.load(std::memory_order_relaxed) ==
         std::this_thread::get_id();
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

char* Pool::TakeSpare(Slot* slot) noexcept {
  if (slot->spare_lock.exchange(1, std::memory_order_acquire) != 0) {
    return nullptr;
  }
  char* data =
      slot->spare_count != 0 ? slot->spares[--slot->spare_count] : nullptr;
  slot->spare_lock.store(0, std::memory_order_release);
  return data;
}

bool Pool::ParkSpare(Slot* slot, char* data) noexcept {
  if (slot->spare_lock.exchange(1, std::memory_order_acquire) != 0) {
    return false;
  }
  const bool parked = slot->spare_count < buffers_per_slot_;
  if (parked) slot->spares[slot->spare_count++] = data;
  slot->spare_lock.store(0, std::memory_order_release);
  return parked;
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

// ------------------------------------------------------------ flush, close

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

uint64_t Pool::dropped() const noexcept {
  auto& mu = const_cast<std::mutex&>(slots_mu_);
  std::lock_guard<std::mutex> lock(mu);
  uint64_t total =
      freed_slots_dropped_ + pool_dropped_.load(std::memory_order_relaxed);
  for (Slot* s = slots_.load(std::memory_order_acquire); s; s = s->next) {
    total += s->dropped.load(std::memory_order_relaxed);
  }
  return total;
}

// ------------------------------------------------------------------- fork

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

}  // namespace roctracer
