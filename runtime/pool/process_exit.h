// Process exit, in one place: what the library does when the program ends
// through exit() (a return from main, exit() on any thread), and in which
// order. One handler owns it; nothing else of the library runs at exit.
//
// The handler is registered with atexit by Arm(), which the first pool
// created (Pool::Create) and the first tool finalizer (AddToolFinalizer)
// call.
// atexit runs handlers last registered first, so the program's own exit
// handlers and static destructors registered after that point run before it
// (their traced calls and flushes still reach open pools), those registered
// before it run after it (their records are refused: the pools are closed).
// It runs these steps, in this order:
//   1. Stop GPU work: wait (bounded) for the operations in flight on the
//      GPU, queued packets not yet intercepted included, report each to its
//      observers and pools, count what never completed (runtime/gpu sets the
//      step with SetGpuDrain). Every observer is still registered here.
//   2. Harvest and flush into the pools, then close every pool
//      (Pool::CloseAll): each pool's records, those of step 1 included, reach
//      its buffer callback; later writes are refused and counted.
//   3. Finalize tools: each finalizer added with AddToolFinalizer, last
//      added first (roctrace writes its outputs here, then removes its
//      observers). A pool closed in step 2 is still open in the API's sense
//      (roctracer_close_pool_expl, roctracer_get_dropped_records_expl work
//      on it), so a finalizer may close its own pool as usual.
// A pool created after the handler ran (from a later exit handler or static
// destructor) arms it again: that round closes it and finalizes tools added
// since; GPU work is drained once.
#ifndef RUNTIME_POOL_PROCESS_EXIT_H_
#define RUNTIME_POOL_PROCESS_EXIT_H_

namespace roctracer::process_exit {

// Registers the exit handler unless it is registered and has not run yet.
void Arm() noexcept;

// Step 1's work (NULL: none). The latest call wins.
void SetGpuDrain(void (*drain)()) noexcept;

// Step 3: `finalize(arg)` once, at exit. Arms the handler. False when out of
// memory (the caller should finalize by other means).
bool AddToolFinalizer(void (*finalize)(void* arg), void* arg) noexcept;

// The steps, now, on the calling thread: the exit handler's body, for a
// caller that ends the process by other means (a fatal signal's flush).
// Runs each step once per round; a concurrent caller waits for the round in
// progress.
void Run() noexcept;

}  // namespace roctracer::process_exit

#endif  // RUNTIME_POOL_PROCESS_EXIT_H_
