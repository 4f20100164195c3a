#include "runtime/platform/malloc_arenas.h"

#include <fcntl.h>
#include <sys/auxv.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>

#include "runtime/platform/readable_memory.h"

namespace roctracer::platform {
namespace {

constexpr uintptr_t kHeapMax = uintptr_t{64} << 20;

// glibc's heap header as far as it is read here. Releases before 2.35 have
// no `pagesize` (32 bytes), later ones have it (48 bytes with padding); the
// arena's state follows the header in a first heap.
struct HeapHeader {
  uintptr_t arena;
  uintptr_t previous;
  uintptr_t size;
  uintptr_t mprotect_size;
};

// Learnt first heaps, append-only (a first heap is never unmapped).
constexpr int kMaxHeaps = 256;
std::atomic<uintptr_t> g_heaps[kMaxHeaps];
std::atomic<int> g_heap_count{0};

// Recently refused bases, so that a pointer into memory of another kind
// does not cost a header read on every call.
constexpr int kRefused = 16;
std::atomic<uintptr_t> g_refused[kRefused];
std::atomic<unsigned> g_refused_next{0};

bool ArenaPathUsable() noexcept {
  static const bool usable = [] {
    if (getauxval(AT_SECURE) != 0) return false;
    const int fd = open("/proc/sys/vm/overcommit_memory", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return false;
    char mode = 0;
    const ssize_t n = read(fd, &mode, 1);
    close(fd);
    return n == 1 && mode != '2';
  }();
  return usable;
}

size_t SpanIn(uintptr_t base, uintptr_t a) noexcept {
  // Read from glibc's header in place (the heap is mapped for good); the
  // value only grows, so any value read is a valid bound.
  const auto* header = reinterpret_cast<const HeapHeader*>(base);
  const uintptr_t mapped =
      __atomic_load_n(&header->mprotect_size, __ATOMIC_RELAXED);
  if (mapped > kHeapMax || a >= base + mapped) return 0;
  return base + mapped - a;
}

}  // namespace

size_t ArenaHeapSpan(const void* p, uintptr_t* begin) noexcept {
  const int count = g_heap_count.load(std::memory_order_acquire);
  if (count == 0) return 0;
  const auto a = reinterpret_cast<uintptr_t>(p);
  const uintptr_t base = a & ~(kHeapMax - 1);
  for (int i = 0; i < count && i < kMaxHeaps; ++i) {
    if (g_heaps[i].load(std::memory_order_relaxed) == base) {
      if (begin != nullptr) *begin = base;
      return SpanIn(base, a);
    }
  }
  return 0;
}

bool LearnArenaHeap(const void* p) noexcept {
  if (!ArenaPathUsable() || !PlausibleUserAddress(p)) return false;
  const uintptr_t base = reinterpret_cast<uintptr_t>(p) & ~(kHeapMax - 1);
  if (base == 0) return false;
  for (const auto& refused : g_refused) {
    if (refused.load(std::memory_order_relaxed) == base) return false;
  }
  if (ArenaHeapSpan(p) != 0) return true;
  HeapHeader header;
  const bool first_heap =
      ReadChecked(&header, reinterpret_cast<const void*>(base),
                  sizeof(header)) &&
      (header.arena == base + 32 || header.arena == base + 48) &&
      header.previous == 0 && header.size <= header.mprotect_size &&
      header.mprotect_size <= kHeapMax;
  if (!first_heap) {
    g_refused[g_refused_next.fetch_add(1, std::memory_order_relaxed) % kRefused]
        .store(base, std::memory_order_relaxed);
    return false;
  }
  // Claim a slot, fill it, then publish the count past it. Two threads
  // learning the same heap at once may both add it (harmless).
  static std::atomic<int> claimed{0};
  const int slot = claimed.fetch_add(1, std::memory_order_relaxed);
  if (slot >= kMaxHeaps) return false;
  g_heaps[slot].store(base, std::memory_order_relaxed);
  int expected = slot;
  while (!g_heap_count.compare_exchange_weak(expected, slot + 1,
                                             std::memory_order_release,
                                             std::memory_order_relaxed)) {
    if (expected > slot) break;  // a later slot published past ours
    expected = slot;
  }
  return SpanIn(base, reinterpret_cast<uintptr_t>(p)) != 0;
}

}  // namespace roctracer::platform
