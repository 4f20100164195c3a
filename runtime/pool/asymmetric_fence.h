// An asymmetric Dekker barrier: producers pay a compiler barrier per record,
// and the rare side (Pool::Close) pays one membarrier(2) system call that
// forces a full fence on every running thread of the process.
//
// Pattern: the producer calls PublishBusy(&busy) then seq_cst-loads
// `closing`; Close seq_cst-exchanges `closing = 1`, calls HeavyFence(), then
// seq_cst-loads `busy`. Either the producer sees closing, or Close sees the
// producer busy. (A seq_cst load is a plain load on x86.)
// When membarrier is unavailable (old kernel, seccomp) and under
// ThreadSanitizer (which models neither membarrier nor fences) the producer
// uses a seq_cst exchange instead: the textbook Dekker, slower, still
// correct.
#ifndef RUNTIME_POOL_ASYMMETRIC_FENCE_H_
#define RUNTIME_POOL_ASYMMETRIC_FENCE_H_

#include <atomic>

namespace roctracer {
namespace pool_internal {

// Registers with membarrier once per process; safe to call repeatedly.
// Returns true when the cheap producer side may be used.
bool InitAsymmetricFence() noexcept;

extern std::atomic<bool> g_heavy_fence_available;

inline void PublishBusy(std::atomic<uint32_t>* busy) noexcept {
  if (__builtin_expect(g_heavy_fence_available.load(std::memory_order_relaxed),
                       1)) {
    busy->store(1, std::memory_order_relaxed);
    // Keeps the compiler from sinking the store below the `closing` load;
    // the CPU is kept in order by HeavyFence's membarrier.
    std::atomic_signal_fence(std::memory_order_seq_cst);
  } else {
    busy->exchange(1, std::memory_order_seq_cst);
  }
}

void HeavyFence() noexcept;

}  // namespace pool_internal
}  // namespace roctracer

#endif  // RUNTIME_POOL_ASYMMETRIC_FENCE_H_
