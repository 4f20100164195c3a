// An asymmetric Dekker barrier: the frequent side (a pool producer writing a
// record, an SDK callback delivery) pays a compiler barrier, and the rare side
// (Pool::Close, stopping an SDK context) pays one membarrier(2) system call
// that forces a full fence on every running thread of the process.
//
// Pattern: the frequent side calls PublishBusy(&busy, v) then seq_cst-loads
// `closing`; the rare side seq_cst-writes `closing`, calls HeavyFence(), then
// seq_cst-loads `busy`. Either the frequent side sees closing, or the rare
// side sees it busy. (A seq_cst load is a plain load on x86.)
// InitAsymmetricFence() must run before the frequent side's first use.
// When membarrier is unavailable (old kernel, seccomp) and under
// ThreadSanitizer (which models neither membarrier nor fences) the producer
// uses a seq_cst exchange instead: the textbook Dekker, slower, still
// correct.
#ifndef RUNTIME_PLATFORM_ASYMMETRIC_FENCE_H_
#define RUNTIME_PLATFORM_ASYMMETRIC_FENCE_H_

#include <atomic>

namespace roctracer::platform {

// Registers with membarrier once per process; safe to call repeatedly.
// Returns true when the cheap producer side may be used.
bool InitAsymmetricFence() noexcept;

extern std::atomic<bool> g_heavy_fence_available;

inline void PublishBusy(std::atomic<uint32_t>* busy,
                        uint32_t value = 1) noexcept {
  if (__builtin_expect(g_heavy_fence_available.load(std::memory_order_relaxed),
                       1)) {
    busy->store(value, std::memory_order_relaxed);
    // Keeps the compiler from sinking the store below the `closing` load;
    // the CPU is kept in order by HeavyFence's membarrier.
    std::atomic_signal_fence(std::memory_order_seq_cst);
  } else {
    busy->exchange(value, std::memory_order_seq_cst);
  }
}

void HeavyFence() noexcept;

}  // namespace roctracer::platform

#endif  // RUNTIME_PLATFORM_ASYMMETRIC_FENCE_H_
