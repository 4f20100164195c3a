// A snapshot of the process's readable mappings, from /proc/self/maps, for
// reading argument strings that live in memory no other rule keeps mapped
// (libraries loaded with dlopen, blocks malloc maps on their own, later
// heaps of malloc arenas, other threads' stacks, buffers the program maps).
//
// The snapshot may be out of date the moment it is taken (another thread
// can unmap anything), so it only says where to look: memory it vouches for
// is read through the guarded loads (guarded_read.h), which turn a fault
// into a "faulted" answer. It is refreshed when an address misses it (at
// most once every kRefreshInterval, so that wild pointers do not cost a
// refresh each) and at once after a guarded read faulted.
//
// Publication is a sequence lock over an array of atomics: a lookup retries
// while a refresh is writing and never blocks it; arrays outgrown are kept
// (a lookup may still be reading one), at most doubling the memory held.
// Device files' mappings (/dev/..., except /dev/shm) are left out: reading
// them can have effects.
#ifndef RUNTIME_PLATFORM_MAPPED_RANGES_H_
#define RUNTIME_PLATFORM_MAPPED_RANGES_H_

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "runtime/platform/hot_tls.h"

namespace roctracer::platform {

namespace mapped_ranges_detail {
// The snapshot's sequence number (odd while a refresh writes it).
extern std::atomic<uint64_t> g_seq;
// The range this thread found last, valid while g_seq is `t_seq`: strings a
// thread passes tend to come from the same place.
ROCTRACER_HOT_TLS_EXTERN uintptr_t t_begin;
ROCTRACER_HOT_TLS_EXTERN uintptr_t t_end;
ROCTRACER_HOT_TLS_EXTERN uint64_t t_seq;
}  // namespace mapped_ranges_detail

// The least time between two refreshes caused by misses.
constexpr int64_t kRefreshIntervalNs = 2'000'000;

// Bytes from `p` on within one readable mapping of the snapshot (adjacent
// readable mappings count as one); 0 when the snapshot, refreshed when due,
// has none.
size_t MappedSpan(const void* p) noexcept;

// MappedSpan when p lies in the range this thread found last; else 0.
inline size_t CachedMappedSpan(const void* p) noexcept {
  namespace d = mapped_ranges_detail;
  const auto a = reinterpret_cast<uintptr_t>(p);
  if (a >= d::t_begin && a < d::t_end &&
      d::t_seq == d::g_seq.load(std::memory_order_relaxed)) {
    return d::t_end - a;
  }
  return 0;
}

// After a guarded read faulted: the snapshot is out of date; refreshes it
// now (unless another thread is refreshing it).
void MappedRangesOutdated() noexcept;

// How many times the snapshot was taken (for tests).
size_t MappedRangeRefreshes() noexcept;

}  // namespace roctracer::platform

#endif  // RUNTIME_PLATFORM_MAPPED_RANGES_H_
