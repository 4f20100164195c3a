// Sleeping on a 32-bit atomic without a mutex: the producer path may wake
// the delivery thread (and the delivery thread a producer) without taking any
// lock.
#ifndef RUNTIME_POOL_FUTEX_H_
#define RUNTIME_POOL_FUTEX_H_

#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>

namespace roctracer::pool {
namespace pool_internal {

static_assert(sizeof(std::atomic<uint32_t>) == sizeof(uint32_t),
              "futex needs a plain 32-bit word");

// Sleeps while *word == expected, at most timeout_ns (0: no limit). Spurious
// returns are fine: every caller re-checks its condition in a loop.
inline void FutexWait(std::atomic<uint32_t>* word, uint32_t expected,
                      uint64_t timeout_ns) noexcept {
  struct timespec ts;
  struct timespec* tsp = nullptr;
  if (timeout_ns != 0) {
    ts.tv_sec = static_cast<time_t>(timeout_ns / 1000000000u);
    ts.tv_nsec = static_cast<long>(timeout_ns % 1000000000u);
    tsp = &ts;
  }
  syscall(SYS_futex, reinterpret_cast<uint32_t*>(word), FUTEX_WAIT_PRIVATE,
          expected, tsp, nullptr, 0);
}

inline void FutexWakeAll(std::atomic<uint32_t>* word) noexcept {
  syscall(SYS_futex, reinterpret_cast<uint32_t*>(word), FUTEX_WAKE_PRIVATE,
          INT32_MAX, nullptr, nullptr, 0);
}

}  // namespace pool_internal
}  // namespace roctracer::pool

#endif  // RUNTIME_POOL_FUTEX_H_
