#include "runtime/activity/pool_registry.h"

#include <roctracer_ext.h>

#include <algorithm>
#include <atomic>
#include <ctime>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "runtime/activity/domain_registry.h"
#include "runtime/activity/error.h"
#include "runtime/platform/fatal_signal.h"
#include "runtime/pool/pool.h"

namespace roctracer::activity {

using pool::OverflowPolicy;
using pool::Pool;
using pool::PoolStatus;

namespace {

// The user's buffer callback, called through Trampoline so the API knows when
// it runs inside one: closing or flushing from there would wait for the very
// callback that is waiting, so it is refused instead.
struct UserCallback {
  roctracer_buffer_callback_t fn;
  void* arg;
};
thread_local int t_in_buffer_callback = 0;

void Trampoline(const char* begin, const char* end, void* arg) {
  const auto* user = static_cast<const UserCallback*>(arg);
  ++t_in_buffer_callback;
  user->fn(begin, end, user->arg);
  --t_in_buffer_callback;
}

struct Pools {
  std::vector<Pool*> open;
  // The trampoline argument of each open pool with a callback.
  std::map<Pool*, std::unique_ptr<UserCallback>> callbacks;
  Pool* default_pool = nullptr;
};

// Heap-allocated and never destroyed: static destructors of other objects
// (and intercepted calls from other threads during exit) may still use it.
Pools& State() {
  static Pools* pools = new Pools();
  return *pools;
}

bool IsOpenLocked(Pool* pool) {
  const auto& open = State().open;
  return std::find(open.begin(), open.end(), pool) != open.end();
}

std::atomic<void (*)(FlushPoint)> g_before_flush{nullptr};

void BeforeFlush(FlushPoint point) {
  if (auto hook = g_before_flush.load(std::memory_order_acquire)) hook(point);
}

// At a fatal signal, on the last-words thread: what the pools hold goes to
// their consumers. The crashed thread may hold ConfigMutex for good: the
// list is read only if the lock comes within a second (else nothing is
// flushed here; the crashing thread's wait is bounded anyway).
void FlushOpenPools(void*) {
  BeforeFlush(FlushPoint::kFlush);
  std::vector<Pool*> open;
  std::unique_lock<std::mutex> lock(ConfigMutex(), std::defer_lock);
  for (int tries = 0; tries < 1000 && !lock.try_lock(); ++tries) {
    struct timespec ms = {0, 1000000};
    nanosleep(&ms, nullptr);
  }
  if (!lock.owns_lock()) return;
  open = State().open;
  lock.unlock();
  for (Pool* pool : open) pool->Flush();
}

roctracer_status_t FromPoolStatus(PoolStatus status) {
  switch (status) {
    case PoolStatus::kOk:
      return ROCTRACER_STATUS_SUCCESS;
    case PoolStatus::kInvalidArgument:
      return Fail(ROCTRACER_STATUS_ERROR_INVALID_ARGUMENT,
                  "invalid pool properties");
    case PoolStatus::kMemoryAllocation:
      return Fail(ROCTRACER_STATUS_ERROR_MEMORY_ALLOCATION,
                  "cannot allocate the pool's buffers");
  }
  return Fail(ROCTRACER_STATUS_ERROR, "pool creation failed");
}

}  // namespace

roctracer_status_t OpenPool(const roctracer_properties_t* properties,
                            Pool** out) {
  if (properties == nullptr) {
    return Fail(ROCTRACER_STATUS_ERROR_INVALID_ARGUMENT, "properties is NULL");
  }
  if (properties->buffer_size < sizeof(activity_record_t)) {
    return Fail(ROCTRACER_STATUS_ERROR_INVALID_ARGUMENT,
                "buffer_size %zu cannot hold one %zu-byte record",
                properties->buffer_size, sizeof(activity_record_t));
  }
  std::lock_guard<std::mutex> lock(ConfigMutex());
  if (out == nullptr && State().default_pool != nullptr) {
    return Fail(ROCTRACER_STATUS_ERROR_DEFAULT_POOL_ALREADY_DEFINED,
                "a default pool is already open");
  }
  // No callback (as Kineto opens its default pool): accepted, as ROCm does;
  // the pool counts its records as dropped.
  std::unique_ptr<UserCallback> user;
  roctracer_properties_t wrapped = *properties;
  if (properties->buffer_callback_fun != nullptr) {
    user = std::make_unique<UserCallback>(UserCallback{
        properties->buffer_callback_fun, properties->buffer_callback_arg});
    wrapped.buffer_callback_fun = &Trampoline;
    wrapped.buffer_callback_arg = user.get();
  }
  const OverflowPolicy policy = (properties->mode & ROCTRACER_POOL_MODE_DISCARD)
                                    ? OverflowPolicy::kDiscard
                                    : OverflowPolicy::kLossless;
  PoolStatus pool_status = PoolStatus::kOk;
  Pool* pool = Pool::Create(wrapped, policy, &pool_status);
  if (pool == nullptr) {
    return FromPoolStatus(pool_status == PoolStatus::kOk
                              ? PoolStatus::kMemoryAllocation
                              : pool_status);
  }
  // Left open, it is closed at exit (runtime/pool/process_exit.h) and stays
  // in `open`: the program may still close it, or ask for its drops.
  FlushPoolsAtFatalSignal();
  State().open.push_back(pool);
  if (user != nullptr) State().callbacks[pool] = std::move(user);
  if (out == nullptr) {
    State().default_pool = pool;
  } else {
    *out = pool;
  }
  return ROCTRACER_STATUS_SUCCESS;
}

void FlushPoolsAtFatalSignal() {
  static const bool registered =
      fatal_signal::AddLastWords(&FlushOpenPools, nullptr);
  (void)registered;
}

roctracer_status_t ClosePool(Pool* pool) {
  if (t_in_buffer_callback > 0) {
    return Fail(ROCTRACER_STATUS_ERROR,
                "a pool cannot be closed from inside a buffer callback");
  }
  BeforeFlush(FlushPoint::kClose);
  {
    std::lock_guard<std::mutex> lock(ConfigMutex());
    Pools& state = State();
    const roctracer_status_t status =
        ResolvePoolLocked(pool, &pool, /*no_default_is_nothing=*/true);
    if (status != ROCTRACER_STATUS_SUCCESS || pool == nullptr) return status;
    DisableActivitiesOfPoolLocked(pool);
    state.open.erase(std::find(state.open.begin(), state.open.end(), pool));
    if (state.default_pool == pool) state.default_pool = nullptr;
  }
  // Outside the lock: closing waits for the buffer callback, which may
  // itself call into the API. Once Retire returns the callback has run for
  // the last time, and the pool's memory goes when no thread can touch it.
  Pool::Retire(pool);
  std::lock_guard<std::mutex> lock(ConfigMutex());
  State().callbacks.erase(pool);
  return ROCTRACER_STATUS_SUCCESS;
}

roctracer_status_t FlushPool(Pool* pool) {
  if (t_in_buffer_callback > 0) {
    return Fail(ROCTRACER_STATUS_ERROR,
                "a pool cannot be flushed from inside a buffer callback");
  }
  BeforeFlush(FlushPoint::kFlush);
  {
    std::lock_guard<std::mutex> lock(ConfigMutex());
    const roctracer_status_t status =
        ResolvePoolLocked(pool, &pool, /*no_default_is_nothing=*/true);
    if (status != ROCTRACER_STATUS_SUCCESS || pool == nullptr) return status;
  }
  // Outside the lock: a pool closed meanwhile by another thread is a closed
  // Pool object still (they are recycled, never unmapped, and not while a
  // flush waits inside), whose Flush returns at once.
  pool->Flush();
  return ROCTRACER_STATUS_SUCCESS;
}

roctracer_status_t DroppedRecords(Pool* pool, uint64_t* dropped) {
  if (dropped == nullptr) {
    return Fail(ROCTRACER_STATUS_ERROR_INVALID_ARGUMENT, "dropped is NULL");
  }
  std::lock_guard<std::mutex> lock(ConfigMutex());
  Pool* resolved = nullptr;
  const roctracer_status_t status = ResolvePoolLocked(pool, &resolved);
  if (status != ROCTRACER_STATUS_SUCCESS) return status;
  *dropped = resolved->dropped();
  return ROCTRACER_STATUS_SUCCESS;
}

Pool* ExchangeDefaultPool(Pool* pool, roctracer_status_t* status) {
  std::lock_guard<std::mutex> lock(ConfigMutex());
  Pool* previous = State().default_pool;
  *status = ROCTRACER_STATUS_SUCCESS;
  if (pool != nullptr) {
    if (IsOpenLocked(pool)) {
      State().default_pool = pool;
    } else {
      *status = Fail(ROCTRACER_STATUS_ERROR_INVALID_ARGUMENT,
                     "pool %p is not open", static_cast<void*>(pool));
    }
  }
  return previous;
}

void SetBeforeFlushHook(void (*hook)(FlushPoint point)) {
  g_before_flush.store(hook, std::memory_order_release);
}

roctracer_status_t ResolvePoolLocked(Pool* pool, Pool** resolved,
                                     bool no_default_is_nothing) {
  if (pool == nullptr) {
    if (State().default_pool == nullptr) {
      if (no_default_is_nothing) {
        *resolved = nullptr;
        return ROCTRACER_STATUS_SUCCESS;
      }
      return Fail(ROCTRACER_STATUS_ERROR_DEFAULT_POOL_UNDEFINED,
                  "no pool given and no default pool is open");
    }
    *resolved = State().default_pool;
    return ROCTRACER_STATUS_SUCCESS;
  }
  if (!IsOpenLocked(pool)) {
    return Fail(ROCTRACER_STATUS_ERROR_INVALID_ARGUMENT, "pool %p is not open",
                static_cast<void*>(pool));
  }
  *resolved = pool;
  return ROCTRACER_STATUS_SUCCESS;
}

}  // namespace roctracer::activity
