// Signals: a 64-bit value that waiters sleep on with a futex. A modification
// makes a system call only while someone waits: a waiter registers itself
// first, then re-reads the value, so no wake-up is lost.
#ifndef SOFTHSA_SIGNAL_H_
#define SOFTHSA_SIGNAL_H_

#include <atomic>
#include <cstdint>

#include "softhsa/runtime.h"

namespace softhsa {

struct Signal {
  // A live signal's first word, so a stale or forged handle is refused.
  static constexpr uint64_t kMagic = 0x534f465448534131ull;  // "SOFTHSA1"
  std::atomic<uint64_t> magic{kMagic};
  std::atomic<int64_t> value{0};
  std::atomic<uint32_t> seq{0};  // futex word, bumped on a change
  // Threads sleeping on seq (waits, and wait_any through futex_waitv).
  std::atomic<uint32_t> waiters{0};
  // Waits sleeping on the global word (WaitWatch): async handlers, the copy
  // engine's dependencies, a wait_any the kernel cannot do with futex_waitv.
  std::atomic<uint32_t> watchers{0};
  // Runtime threads completing the signal: the application may destroy it
  // as soon as it sees the new value, so destruction waits for them.
  std::atomic<uint32_t> busy{0};
  // Profiling times in device ticks, stamped by the packet processor or a
  // copy engine when the signal was their completion signal. Atomic: an
  // application (or a tool's chained completion) may give one signal to a
  // queue and to the copy engine at once, whose threads then both stamp it.
  std::atomic<uint64_t> start_ticks{0};
  std::atomic<uint64_t> end_ticks{0};
  bool ipc = false;
  // A doorbell with work to do on store (an intercept queue's, as ROCR's
  // InterceptQueue is itself the doorbell signal): called on the storing
  // thread after the value changed, by the two store operations.
  void (*on_store)(void* arg) = nullptr;
  void* on_store_arg = nullptr;
};

Signal* ToSignal(hsa_signal_t s);  // nullptr when not a live signal
// ToSignal for a runtime thread that keeps using the signal: it stays alive
// (hsa_signal_destroy waits) until Release.
Signal* Acquire(hsa_signal_t s);
inline void Release(Signal* s) {
  s->busy.fetch_sub(1, std::memory_order_seq_cst);
}
inline hsa_signal_t ToHandle(Signal* s) {
  return hsa_signal_t{reinterpret_cast<uint64_t>(s)};
}

// After any change of s->value: wakes whoever waits on s.
void Notify(Signal* s);
// Blocks while `cond(value)` is false, at most until system tick `deadline`.
int64_t WaitOn(Signal* s, hsa_signal_condition_t cond, int64_t compare,
               uint64_t timeout_ticks);
bool Satisfied(int64_t value, hsa_signal_condition_t cond, int64_t compare);

// Multi-signal waits of the runtime's threads (async handlers, the copy
// engine) sleep on one global word, bumped by any change of a watched signal.
uint32_t WatchSeq();
// Wakes multi-signal waiters without a signal change (their lists changed).
void BumpWatch();
void WaitWatch(uint32_t seen, uint64_t timeout_ns);

// Completes a signal from a runtime thread: value -= 1.
inline void Decrement(Signal* s) {
  s->busy.fetch_add(1, std::memory_order_seq_cst);
  s->value.fetch_sub(1, std::memory_order_acq_rel);
  Notify(s);
  s->busy.fetch_sub(1, std::memory_order_seq_cst);
}
// The same for a store from a runtime thread.
inline void Complete(Signal* s, int64_t value) {
  s->busy.fetch_add(1, std::memory_order_seq_cst);
  s->value.store(value, std::memory_order_release);
  Notify(s);
  s->busy.fetch_sub(1, std::memory_order_seq_cst);
}

}  // namespace softhsa

#endif  // SOFTHSA_SIGNAL_H_
