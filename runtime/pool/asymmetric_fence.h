// An asymmetric Dekker barrier: producers pay a compiler barrier per record,
// and the rare side (Pool::Close) pays one membarrier(2) system call that
// forces a full fence on every running thread of the process.
//
// Pattern: the producer stores `busy = 1`, calls LightFence(), loads
// `closing`; Close stores `closing = 1`, calls HeavyFence(), loads `busy`.
// Either the producer sees closing, or Close sees the producer busy.
// When membarrier is unavailable (old kernel, seccomp) both sides fall back
// to a real seq_cst fence: slower, still correct.
#ifndef RUNTIME_POOL_ASYMMETRIC_FENCE_H_
#define RUNTIME_POOL_ASYMMETRIC_FENCE_H_

#include <atomic>

namespace roctracer {
namespace pool_internal {

// Registers with membarrier once per process; safe to call repeatedly.
// Returns true when the cheap producer side may be used.
bool InitAsymmetricFence() noexcept;

extern std::atomic<bool> g_heavy_fence_available;

inline void LightFence() noexcept {
  if (__builtin_expect(g_heavy_fence_available.load(std::memory_order_relaxed),
                       1)) {
    std::atomic_signal_fence(std::memory_order_seq_cst);
  } else {
    std::atomic_thread_fence(std::memory_order_seq_cst);
  }
}

void HeavyFence() noexcept;

}  // namespace pool_internal
}  // namespace roctracer

#endif  // RUNTIME_POOL_ASYMMETRIC_FENCE_H_
