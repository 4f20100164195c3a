// Reads that survive the memory being unmapped under them, for argument
// strings found in a snapshot of the process's mappings (mapped_ranges.h)
// that another thread may unmap, or may have unmapped since the snapshot.
//
// Each load that may fault is one instruction listed, with where to resume,
// in a table (the roctracer_fault_fixups section) that a SIGSEGV/SIGBUS
// handler consults: a fault the kernel raised at one of those instructions
// resumes at its "faulted" branch; any other signal goes on to the handler
// that was installed before (or to the default action). No per-call system
// call, no sigsetjmp: a read that does not fault costs what a plain load
// does.
//
// The handler is installed the first time GuardedReadsOn() is asked (the
// first string in memory only the snapshot vouches for), and only then.
// A program that installs its own SIGSEGV or SIGBUS handler afterwards
// replaces the tracer's: the tracer notices on its next check (every 1024
// guarded-path lookups of a thread, and on every refresh of the snapshot)
// and then stops reading through the snapshot for good (the kernel reads
// instead). Between that replacement and the check, a string unmapped
// under a traced call would reach the program's handler, the one limit of
// this scheme. x86-64 only; elsewhere GuardedReadsOn() is false.
#ifndef RUNTIME_PLATFORM_GUARDED_READ_H_
#define RUNTIME_PLATFORM_GUARDED_READ_H_

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "runtime/platform/hot_tls.h"

namespace roctracer::platform {

namespace guarded_read_detail {
// 0 not yet installed, 1 on, 2 off (failed to install, or replaced).
extern std::atomic<int> g_state;
// Lookups left before this thread checks the handler again.
ROCTRACER_HOT_TLS_EXTERN uint32_t t_until_check;
bool InstallOrCheck() noexcept;
}  // namespace guarded_read_detail

// Whether reads of memory that may be unmapped can go through the functions
// below (installs the handler on first use). Inline: it is asked on every
// string read through the snapshot.
inline bool GuardedReadsOn() noexcept {
  using guarded_read_detail::t_until_check;
  if (guarded_read_detail::g_state.load(std::memory_order_relaxed) == 1 &&
      t_until_check != 0) {
    --t_until_check;
    return true;
  }
  return guarded_read_detail::InstallOrCheck();
}

// Re-checks, now, that the handler is still the process's (a system call);
// turns guarded reads off for good when it is not.
bool GuardedReadsStillOn() noexcept;

// What GuardedStringLength returns when a read faulted.
constexpr size_t kReadFaulted = SIZE_MAX;

// The length of the string at `s` when its NUL lies in the `span` bytes
// from s on, `span` when it does not, kReadFaulted when a read faulted. It
// reads whole aligned 8-byte words: the span must end on a page that is
// mapped whole (any mapping's end does).
size_t GuardedStringLength(const char* s, size_t span) noexcept;

// Copies n bytes from `src`; false when a read faulted (dst then holds
// part of them).
bool GuardedCopy(void* dst, const void* src, size_t n) noexcept;

// How many faults the guard has turned into a "faulted" answer (for tests).
size_t GuardedReadFaults() noexcept;

}  // namespace roctracer::platform

#endif  // RUNTIME_PLATFORM_GUARDED_READ_H_
