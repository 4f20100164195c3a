// A pool's making and its counters: Create checks the properties, takes a
// Pool object (pool_list.cc), checks alloc_fun and starts the delivery
// thread. The rest of Pool lives in files named after what it does; see
// README.md.
#include "runtime/pool/pool.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <mutex>

#include "runtime/platform/asymmetric_fence.h"
#include "runtime/platform/thread_exit.h"
#include "runtime/pool/buffer_memory.h"
#include "runtime/pool/process_exit.h"
#include "runtime/pool/slot.h"

namespace roctracer::pool {

using pool_internal::Slot;

namespace {

std::atomic<uint64_t> g_next_pool_id{1};

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

Pool::Pool(const roctracer_properties_t& properties, OverflowPolicy policy,
           unsigned thread_buffers)
    : policy_(policy),
      buffer_size_(properties.buffer_size),
      buffers_per_slot_(static_cast<unsigned>(std::min<size_t>(
          ThreadBufferCap(),
          std::max<size_t>(2,
                           thread_buffers != 0
                               ? thread_buffers
                               : kSlotBytesTarget / properties.buffer_size)))),
      id_(g_next_pool_id.fetch_add(1, std::memory_order_relaxed)),
      wake_batch_(std::max(1u, buffers_per_slot_ / 4)),
      alloc_fun_(properties.alloc_fun),
      alloc_arg_(properties.alloc_arg),
      callback_(properties.buffer_callback_fun),
      callback_arg_(properties.buffer_callback_arg) {}

Pool* Pool::Create(const roctracer_properties_t& properties,
                   OverflowPolicy policy, PoolStatus* status,
                   unsigned thread_buffers) noexcept {
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
  Pool* pool = NewShell(properties, policy, thread_buffers);
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

}  // namespace roctracer::pool
