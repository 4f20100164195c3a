// The activity record pool: where activity records go between the traced
// call that produces them and the tool's buffer callback.
//
// Design. Every producer thread owns a Slot per pool: a ring of
// buffers_per_slot() buffers of properties.buffer_size bytes each (2 for
// buffers of 512 KiB and more, up to 64 so that a slot holds ~1 MiB when
// buffers are small; ROCTRACER_POOL_THREAD_BUFFERS lowers the cap), used round
// robin. A thread writes only into its slot's current buffer: records grow up
// from the buffer's start (so roctracer_next_record's `record + 1` walks them)
// and variable-size text grows down from its end. Publishing a record is one
// release store of the buffer's `committed` offset; no lock, no
// read-modify-write on shared data, no allocation. A thread's first write to a
// pool (warm-up) allocates its slot descriptor, or adopts the slot of a thread
// that has exited.
//
// Memory. A buffer's bytes are taken (through alloc_fun) when the ring moves
// onto an empty position, and leave the position when the buffer has been
// delivered, to be kept as a spare for the thread's next buffer: a busy
// thread allocates nothing per buffer, and the spares go back (all but one)
// once the thread has sealed nothing for a few delivery thread rounds, or at a
// flush. Per writer thread and pool that is a ~4.8 KiB descriptor plus at
// most buffers_per_slot() buffers (what it has filled and not yet had
// delivered, the one it fills, and spares): one buffer for a thread that
// writes little. Create allocates one buffer to check alloc_fun and fails
// with kMemoryAllocation when it returns NULL; a later NULL drops the record
// and counts it in dropped().
//
// One delivery thread per pool calls the buffer callback, so the callback
// never runs inside a traced call. When a buffer is full the producer seals
// it and moves on to the next buffer of its slot; once a quarter of its
// slot's buffers are sealed (or it has to wait for one, or its thread exits)
// it wakes the delivery thread if that sleeps (a futex, no mutex). Batching the
// wake-ups keeps the system call off most buffer switches when buffers are
// small; the slack of the other three quarters absorbs the delivery thread's
// wake-up latency. The delivery thread walks each slot in buffer order,
// delivers sealed buffers whole and hands them back (state kFree). Because a
// slot is filled and drained in the same round-robin order by exactly one
// producer and one delivery thread, each thread's records arrive in the order
// it wrote them, exactly once. Flush makes the delivery thread also deliver the
// committed prefix of the buffers still being filled (later records of the same
// buffer follow in a later delivery); text of a delivered record always lives
// in the delivered buffer, valid at least until the callback returns.
//
// Full buffers: in lossless mode (default) a producer whose next buffer has
// not come back waits (spin, then futex) for the delivery thread: nothing is
// lost. In discard mode it drops the record instead and counts it, so that
// delivered() + dropped() == records accepted by Write. The buffer callback
// itself cannot wait for its own delivery thread: in lossless mode what it
// writes into its own pool while its ring is full goes into extra buffers,
// allocated as needed and delivered (in order) after the current callback
// returns. A pool without a buffer callback accepts records and counts each
// delivered one as dropped.
//
// Lifetime. Close sets `closing`, then uses an asymmetric barrier (see
// runtime/platform/asymmetric_fence.h) against each slot's `busy` flag to wait
// for writes in flight, lets the delivery thread deliver everything, stops it
// and frees every buffer through alloc_fun. Retire (close, then give the pool
// up) lets the memory go: slots of exited threads at once, a live thread's slot
// when that thread next warms up on any pool or exits, and the Pool object
// itself once its last slot is gone. Pool objects are recycled, never unmapped:
// a thread that loaded a pool pointer just before the close, and calls Write
// after, finds a closed pool (the write is refused) rather than freed memory. A
// recycled object is reused only after kRetiredKept others were retired after
// it, so a stale pointer meets a different open pool only after that many
// closes. Memory and time of open/close stay flat in the number of pools ever
// opened. A pool's slots are reused by new threads after their owners exit,
// so thread churn does not grow memory.
//
// Thread exit: a pthread-key destructor seals each of the thread's partially
// filled buffers (so the records are delivered without waiting for a flush)
// and marks its slots free for adoption; if the pool is already closed it
// frees them. The main thread's key destructor does not run at exit(); its
// records are delivered by the at-exit close.
//
// Process exit: Create arms the library's one exit handler
// (runtime/pool/process_exit.h), which closes every pool still open after
// the GPU work is drained and before tools finalize, so their records are
// delivered before the process ends; a thread still writing during exit
// sees a closed pool. (The tool's callback runs during that close: statics
// the tool constructed after the first Create are already destroyed by
// then.)
//
// fork(): a pool open in the parent keeps working in the child. The child
// forgets the records written before the fork (the parent delivers them) and
// every slot but the forking thread's, and starts a delivery thread of its own
// the first time it needs one (a child that only execs never starts any).
#ifndef RUNTIME_POOL_POOL_H_
#define RUNTIME_POOL_POOL_H_

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

#include "runtime/pool/pool_types.h"

namespace roctracer::pool {

enum class OverflowPolicy { kLossless, kDiscard };

enum class PoolStatus {
  kOk = 0,
  kInvalidArgument,   // NULL buffer callback, buffer_size out of range
  kMemoryAllocation,  // allocation failed (alloc_fun returned NULL for the
                      // first buffer), or the delivery thread could not be
                      // started
};

namespace pool_internal {
struct Buffer;
struct Slot;
void ReleaseThreadSlots(void* thread_slots) noexcept;
}  // namespace pool_internal

class Pool {
 public:
  // A buffer must hold at least a record, the EXT_API tag written with it
  // (WriteTagged) and this much of its text.
  static constexpr size_t kMinTextBytes = 64;
  static constexpr size_t kMinBufferSize =
      2 * sizeof(activity_record_t) + kMinTextBytes;
  // Offsets inside a buffer are 32-bit.
  static constexpr size_t kMaxBufferSize = size_t{1} << 31;
  static constexpr unsigned kMaxBuffersPerSlot = 64;
  static constexpr size_t kSlotBytesTarget = size_t{1} << 20;
  // Retired Pool objects waiting before they may be recycled.
  static constexpr unsigned kRetiredKept = 64;

  // Validates `properties` and starts the delivery thread. Returns nullptr
  // with *status set on failure (status may be NULL). buffer_size must be in
  // [kMinBufferSize, kMaxBufferSize] (roctracer's own sample uses 0x1000; the
  // spec's illustrative `12` cannot hold one 64-byte record and is rejected).
  // properties.mode is ignored, as roctracer does. A NULL alloc_fun means
  // malloc/free. Buffers from alloc_fun must be 8-byte aligned. A NULL
  // buffer callback is accepted: records are then dropped and counted.
  // ROCTRACER_POOL_THREAD_BUFFERS (2..64) in the environment caps the buffers
  // a writer thread may hold in one pool. `thread_buffers` (0: the default
  // above) sets that number instead, at least 2 and within the same caps: a
  // caller whose room is given as a byte count (rocprofiler-sdk's buffer
  // size) asks for that many bytes per writer thread.
  static Pool* Create(const roctracer_properties_t& properties,
                      OverflowPolicy policy, PoolStatus* status,
                      unsigned thread_buffers = 0) noexcept;

  // Closes every pool not closed yet (process exit's step 2, see
  // runtime/pool/process_exit.h).
  static void CloseAll() noexcept;

  // Gives up a pool that will no longer be used: closes it, and its memory
  // is released once no thread can touch it (see the design note above).
  // The pointer must not be used after this call. Use this instead of
  // delete. NULL is ignored.
  static void Retire(Pool* pool) noexcept;

  // Producer path, any thread. Copies the record; when text != nullptr also
  // copies text_len bytes plus a NUL into the same buffer and points the copy's
  // mark_message (== kernel_name) at it. Text that cannot fit in an empty
  // buffer is truncated to what fits; exactly text_len bytes are read (no
  // NUL needed in the source). Returns false when the record was dropped:
  // discard mode with no free buffer, or alloc_fun returned NULL (counted
  // in dropped()); pool closed (counted in refused()). A write made from
  // inside the buffer callback into the same pool never waits: in lossless
  // mode it goes into an extra buffer delivered after the callback returns.
  bool Write(const activity_record_t& record, const char* text,
             size_t text_len = 0) noexcept {
    return WriteTagged(nullptr, record, text, text_len);
  }
  // Same, with no text: the hot path of an API call's record, without the
  // tag's and the text's tests.
  bool Write(const activity_record_t& record) noexcept;

  // Same, with the record made by `fill(void* dst)`, which must write all
  // sizeof(activity_record_t) bytes at dst (padding too: the buffer's bytes
  // are reused), straight into this thread's current buffer when it has
  // room, so the record is not built on the caller's stack and copied.
  // `fill` runs once and must not write into a pool; dst is 8-byte aligned.
  // Defined in
  // write_in_place.h, which its callers include.
  template <class Fill>
  bool WriteInPlace(const Fill& fill) noexcept;

  // Same, preceded by `tag` (NULL: none) in the same buffer: the two are
  // delivered together or dropped together (counted as two records), and
  // text is cut to what fits next to both.
  bool WriteTagged(const activity_record_t* tag,
                   const activity_record_t& record, const char* text = nullptr,
                   size_t text_len = 0) noexcept;

  // Blocks until every record whose Write returned before this call has been
  // delivered and its callback has returned. From inside the buffer callback
  // (the delivery thread) it cannot wait for itself: it schedules a flush
  // that runs right after the current callback returns, and returns at once.
  // No-op on a closed pool.
  void Flush() noexcept;

  // Stops accepting writes, waits for writes in flight, delivers every
  // record, stops the delivery thread and frees every buffer through alloc_fun.
  // Idempotent and thread-safe; concurrent callers all return after the
  // close completed. Called from inside the buffer callback it does all of
  // that after the callback returns and itself returns at once.
  void Close() noexcept;

  bool closed() const noexcept {
    return closing_.load(std::memory_order_acquire) != 0;
  }
  // Records lost while the pool was open: discard mode with no free buffer,
  // alloc_fun returning NULL, and records delivered to a pool without a
  // buffer callback. (Writes refused because the pool was closed are in
  // refused().)
  uint64_t dropped() const noexcept;
  uint64_t delivered() const noexcept {
    return delivered_.load(std::memory_order_acquire);
  }
  uint64_t refused() const noexcept {
    return refused_.load(std::memory_order_relaxed);
  }
  OverflowPolicy policy() const noexcept { return policy_; }
  size_t buffer_size() const noexcept { return buffer_size_; }
  unsigned buffers_per_slot() const noexcept { return buffers_per_slot_; }

  Pool(const Pool&) = delete;
  Pool& operator=(const Pool&) = delete;

 private:
  Pool(const roctracer_properties_t& properties, OverflowPolicy policy,
       unsigned thread_buffers);
  ~Pool() = default;  // Only through Recycle; see Retire.

  enum class Next { kOk, kFull, kClosed, kNoMemory };
  static Pool* NewShell(const roctracer_properties_t& properties,
                        OverflowPolicy policy,
                        unsigned thread_buffers) noexcept;
  static void Recycle(Pool* pool) noexcept;
  bool StartDeliveryThread() noexcept;
  void EnsureDeliveryThread() noexcept;
  void SealCurrent(pool_internal::Slot* slot) noexcept;
  char* TakeSpare(pool_internal::Slot* slot) noexcept;
  bool ParkSpare(pool_internal::Slot* slot, char* data) noexcept;
  void TrimSpares(pool_internal::Slot* slot, uint32_t keep) noexcept;
  Next SpillBuffer(pool_internal::Slot* slot) noexcept;
  bool DeliverSpill(bool all) noexcept;
  bool finished() const noexcept {
    return finished_flag_.load(std::memory_order_acquire) != 0;
  }
  // slots_mu_ held: unlinks and frees `slot`; true when the pool object
  // can now be recycled.
  bool FreeSlotLocked(pool_internal::Slot* slot) noexcept;
  static void ReleaseClosedSlots(void* thread_slots) noexcept;
  void ResetInChild() noexcept;

  bool WriteCold(const activity_record_t* tag, const activity_record_t& record,
                 const char* text, size_t text_len) noexcept;
  pool_internal::Slot* AcquireSlot() noexcept;
  bool WriteSlow(pool_internal::Slot* slot, const activity_record_t* tag,
                 const activity_record_t& record, const char* text,
                 size_t text_len) noexcept;
  Next NextBuffer(pool_internal::Slot* slot) noexcept;
  void Seal(pool_internal::Slot* slot, bool wake_now) noexcept;
  void WakeDeliveryThread() noexcept;
  void DeliveryMain() noexcept;
  void Sweep(bool flush) noexcept;
  void SweepSlot(pool_internal::Slot* slot, bool flush) noexcept;
  void Deliver(const char* begin, const char* end) noexcept;
  void FinishClose() noexcept;
  void Register() noexcept;
  static void ForgetAllInChild() noexcept;
  char* AllocBuffer() noexcept;
  void FreeBuffer(char* buffer) noexcept;
  void HandOver(pool_internal::Slot* slot) noexcept;
  // Inline: the write path asks it each time a buffer is full.
  bool OnDeliveryThread() const noexcept {
    return delivery_id_.load(std::memory_order_relaxed) ==
           std::this_thread::get_id();
  }

  friend void pool_internal::ReleaseThreadSlots(void*) noexcept;

  // Read by every producer on every write: keep apart from written fields.
  alignas(64) std::atomic<uint32_t> closing_{0};
  const OverflowPolicy policy_;
  const size_t buffer_size_;
  const unsigned buffers_per_slot_;
  const uint64_t id_;          // unique per incarnation, for thread caches
  const unsigned wake_batch_;  // sealed buffers per slot before a wake-up
  const roctracer_allocator_t alloc_fun_;
  void* const alloc_arg_;
  const roctracer_buffer_callback_t callback_;
  void* const callback_arg_;

  // Bumped once per sealed buffer; the delivery thread sleeps on it.
  alignas(64) std::atomic<uint32_t> wake_seq_{0};
  std::atomic<uint32_t> delivery_sleeping_{0};

  alignas(64) std::atomic<pool_internal::Slot*> slots_{nullptr};
  std::mutex slots_mu_;  // warm-up and close only, never per record
  uint64_t freed_slots_dropped_ = 0;       // under slots_mu_
  bool retired_ = false;                   // under slots_mu_
  bool recycled_ = false;                  // under slots_mu_
  std::atomic<uint64_t> pool_dropped_{0};  // drops not tied to a slot

  // Delivery-side state.
  alignas(64) std::atomic<uint64_t> delivered_{0};
  std::atomic<uint64_t> refused_{0};
  std::thread delivery_;
  std::atomic<std::thread::id> delivery_id_{};
  std::atomic<uint32_t> delivery_started_{0};
  // Delivery thread only: extra buffers the buffer callback filled while
  // its own slot's ring was full, in write order (see Write).
  std::vector<pool_internal::Buffer*> spill_;
  pool_internal::Slot* spill_slot_ = nullptr;

  // Flush and close handshake (never on the producer path).
  std::mutex control_mu_;
  std::condition_variable control_cv_;
  uint64_t flush_requested_ = 0;  // under control_mu_
  uint64_t flush_completed_ = 0;  // under control_mu_
  bool stop_requested_ = false;   // under control_mu_
  bool finished_ = false;         // under control_mu_
  bool joined_ = false;           // under control_mu_
  uint32_t waiters_ = 0;          // under control_mu_: in Flush or Close
  std::atomic<uint32_t> finished_flag_{0};  // finished_, readable lock-free

  Pool* next_pool_ = nullptr;  // every Pool object ever made, see Retire
};

}  // namespace roctracer::pool

#endif  // RUNTIME_POOL_POOL_H_
