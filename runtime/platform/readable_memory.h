// Reading memory the tracer was handed but cannot trust: the `const char*`
// arguments of traced calls and the pointees of their `__val` copies. A
// runtime may reject such a pointer without reading it (an invalid address,
// a string past the end of a mapping), so the tracer must not fault where the
// runtime would not.
//
// Reading through the kernel (process_vm_readv on the own process) never
// faults but costs a system call per page (~1.5-2 us on the development VM),
// so memory is read directly wherever it is known to be mapped:
// - by a rule that keeps it mapped while it is read, without a fault
//   handler: the calling thread's stack above the current frame; the
//   readable segments of the objects loaded at startup (never unloaded,
//   startup_objects.h); the brk heap, up to the current break; the first
//   heap of a glibc malloc arena (never unmapped, malloc_arenas.h);
// - anywhere else a snapshot of the process's readable mappings vouches for
//   (mapped_ranges.h: libraries loaded with dlopen, large malloc blocks,
//   later arena heaps, other threads' stacks, the program's own mappings),
//   through loads that turn a fault into an answer (guarded_read.h), since
//   another thread may unmap that memory at any moment;
// - where the fault handler is not available (not x86-64, or the program
//   replaced it): a loaded object's segment, read under the loader's lock so
//   that no dlclose can unmap it meanwhile (loaded_segments.h), and arena
//   heaps learnt on first sight.
// Anything else (memory the snapshot does not know yet and did not find on
// a refresh, or that was unmapped under the read) goes through the kernel,
// which also gives the answer for memory that is not readable at all.
#ifndef RUNTIME_PLATFORM_READABLE_MEMORY_H_
#define RUNTIME_PLATFORM_READABLE_MEMORY_H_

#include <cstddef>
#include <cstdint>

namespace roctracer::platform {

// Addresses below this are never mapped (Linux's mmap_min_addr is at least
// one page) and those above the user half are not canonical: both are
// rejected without a system call.
bool PlausibleUserAddress(const void* p) noexcept;

// Bytes from `p` on that are mapped readable for certain, found without a
// system call or a lock: p lies on the calling thread's stack above the
// current frame, in a readable segment of an object loaded at startup, in
// the brk heap
// (a heap trimmed by another thread's free() at this moment would make a
// dangling pointer into it fault: a caller racing its own free()), or in a
// learnt malloc arena heap. 0 when not known.
size_t KnownReadableSpan(const void* p) noexcept;

// Calls visit(p, span, ctx), where the `span` bytes from p on were mapped
// readable when last looked at, when that can be established without
// reading through the kernel (KnownReadableSpan, the mapping snapshot, a
// loaded object's segment under the loader's lock, an arena heap learnt
// now); returns whether it did. `visit` must read them through the guarded
// loads (guarded_read.h) and, when one faults, call MappedRangesOutdated()
// and leave the answer to the kernel.
bool VisitReadable(const void* p,
                   void (*visit)(const char* p, size_t span, void* ctx),
                   void* ctx) noexcept;

// Copies n bytes from `src` through the kernel; false when any of them is
// not readable (nothing then is known about dst).
bool ReadChecked(void* dst, const void* src, size_t n) noexcept;

// Copies n bytes from `src` to `dst` when every one of them is readable:
// directly where VisitReadable vouches for them, through the kernel
// otherwise. When they are not (NULL included), zeroes `dst` and returns
// false. For the `__val` copies of pointer arguments: a runtime may reject a
// pointer it never reads, and the tracer must not fault reading it.
bool CopyIfReadable(void* dst, const void* src, size_t n) noexcept;

// What ReadableStringLength returns for a string that cannot be read whole.
constexpr size_t kUnreadableLength = SIZE_MAX;

// The length (without its NUL) of the NUL-terminated string at `s` when it
// can be read whole, kUnreadableLength when it cannot (NULL included): for
// code that reads it in place, right after, and needs its length anyway.
size_t ReadableStringLength(const char* s) noexcept;

// Whether `s` points at a NUL-terminated string that can be read whole (for
// code that reads it in place, right after; NULL is not).
bool IsReadableString(const char* s) noexcept;

}  // namespace roctracer::platform

#endif  // RUNTIME_PLATFORM_READABLE_MEMORY_H_
