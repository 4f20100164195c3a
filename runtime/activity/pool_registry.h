// The pools the application opened: which are open, which is the default, and
// closing them (disabling their activities first, then Pool::Retire: an
// intercepting thread may still hold a pointer it loaded just before the
// close, and the pool's design note says why that stays harmless).
#ifndef RUNTIME_ACTIVITY_POOL_REGISTRY_H_
#define RUNTIME_ACTIVITY_POOL_REGISTRY_H_

#include <roctracer.h>

namespace roctracer::pool {
class Pool;
}  // namespace roctracer::pool

namespace roctracer::activity {

// `out` NULL: the new pool becomes the default (error if one exists).
roctracer_status_t OpenPool(const roctracer_properties_t* properties,
                            pool::Pool** out);
// `pool` NULL: the default pool (SUCCESS when there is none).
roctracer_status_t ClosePool(pool::Pool* pool);
roctracer_status_t FlushPool(pool::Pool* pool);
// `pool` NULL: the default pool.
roctracer_status_t DroppedRecords(pool::Pool* pool, uint64_t* dropped);
// Returns the previous default; `pool` (if not NULL and open) becomes the
// default.
pool::Pool* ExchangeDefaultPool(pool::Pool* pool, roctracer_status_t* status);

// Producers that hold completed work outside the pools (the GPU half's
// completions, runtime/gpu/) write it before a pool is flushed or closed:
// the hook runs first, on the calling thread, without any lock held. (At
// process exit the GPU half drains through runtime/pool/process_exit.h
// instead.) One hook; NULL removes it.
enum class FlushPoint { kFlush, kClose };
void SetBeforeFlushHook(void (*hook)(FlushPoint point));

// Registers (once) the flush of every open pool to its consumer as last
// words at a fatal signal (runtime/platform/fatal_signal.h). Called at the
// first pool's opening.
void FlushPoolsAtFatalSignal();

// Requires ConfigMutex(). `pool` NULL resolves to the default pool;
// ERROR_DEFAULT_POOL_UNDEFINED / ERROR_INVALID_ARGUMENT otherwise. With
// `no_default_is_nothing` (closing or flushing "the default pool" when none
// is open), a NULL `pool` and no default pool give SUCCESS with *resolved
// NULL instead.
roctracer_status_t ResolvePoolLocked(pool::Pool* pool, pool::Pool** resolved,
                                     bool no_default_is_nothing = false);

}  // namespace roctracer::activity

#endif  // RUNTIME_ACTIVITY_POOL_REGISTRY_H_
