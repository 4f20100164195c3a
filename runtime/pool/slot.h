// A producer thread's slot in one pool: its ring of buffers, and how the
// producer and the delivery thread hand each buffer to the other (private
// to runtime/pool; the design note is in pool.h).
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
#ifndef RUNTIME_POOL_SLOT_H_
#define RUNTIME_POOL_SLOT_H_

#include <atomic>
#include <cstdint>
#include <utility>
#include <vector>

#include "runtime/platform/hot_tls.h"
#include "runtime/pool/pool.h"

namespace roctracer::pool {
namespace pool_internal {

constexpr uint32_t kRecordSize = sizeof(activity_record_t);

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
  // sides only try the lock: whoever finds it taken allocates or frees. On
  // lines of their own: the delivery thread writes them for every buffer it
  // delivers, and must not take the line every write of the producer uses.
  alignas(64) std::atomic<uint32_t> spare_lock{0};
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

// The hot lookup: the last pool this thread wrote to (hot_tls.h: one
// %fs-relative load even inside a shared library).
struct HotEntry {
  const Pool* pool;
  Slot* slot;
};
// Defined in write_path.cc, beside WriteTagged, its one hot reader.
ROCTRACER_HOT_TLS_EXTERN HotEntry tl_hot;

// Every (pool, slot) pair of this thread. Heap-allocated on warm-up and
// released by a pthread key destructor rather than a thread_local
// destructor, so a Write made from some other thread_local destructor after
// ours ran still works (the key destructor is simply run again). Entries of
// finished pools are dropped (and their slots freed) at the next warm-up, so
// the list holds the pools this thread uses, not every pool it ever used.
struct ThreadSlots {
  std::vector<std::pair<Pool*, Slot*>> entries;
};
// Defined in thread_slots.cc.
ROCTRACER_HOT_TLS_EXTERN ThreadSlots* tl_slots;

}  // namespace pool_internal
}  // namespace roctracer::pool

#endif  // RUNTIME_POOL_SLOT_H_
