// The heaps of glibc's per-thread malloc arenas, for reading argument strings
// and pointees that worker threads allocated without a system call.
//
// glibc gives threads other than the first their own arenas. Each arena
// lives in "heaps": mappings aligned to their maximum size (64 MiB on 64-bit
// Linux), starting with a header { arena, previous heap, size, mprotect_size
// [, pagesize] }. The arena's first heap (previous heap NULL, the arena's
// state right after the header) is never unmapped: arenas are never freed,
// and trimming deletes only later heaps. Its first mprotect_size bytes are
// mapped read-write and that size only grows, unless glibc shrinks heaps by
// remapping them inaccessible, which it does only under strict overcommit
// (vm.overcommit_memory = 2) or in set-user-ID programs; the arena path is
// off there.
//
// A heap is learnt the first time a pointer into it misses every other fast
// path: its header is read through the kernel (one system call) and checked
// against that shape. Later heaps of an arena, memory glibc maps for large
// blocks, and other allocators' memory do not match and keep the slow path.
#ifndef RUNTIME_PLATFORM_MALLOC_ARENAS_H_
#define RUNTIME_PLATFORM_MALLOC_ARENAS_H_

#include <cstddef>
#include <cstdint>

namespace roctracer::platform {

// Bytes from `p` on that lie in a learnt arena's first heap and are mapped
// readable for good; 0 when p is in none. `begin`, when given, receives
// where the heap begins.
size_t ArenaHeapSpan(const void* p, uintptr_t* begin = nullptr) noexcept;

// Checks, through the kernel, whether p lies in an arena's first heap not
// yet learnt, and learns it. True when it learnt one (ArenaHeapSpan now
// answers for p).
bool LearnArenaHeap(const void* p) noexcept;

}  // namespace roctracer::platform

#endif  // RUNTIME_PLATFORM_MALLOC_ARENAS_H_
