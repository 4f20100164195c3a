#include "runtime/platform/readable_memory.h"

#include <fcntl.h>
#include <pthread.h>
#include <sys/uio.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>

#include "runtime/platform/guarded_read.h"
#include "runtime/platform/hot_tls.h"
#include "runtime/platform/loaded_segments.h"
#include "runtime/platform/malloc_arenas.h"
#include "runtime/platform/mapped_ranges.h"
#include "runtime/platform/startup_objects.h"
#include "runtime/platform/thread_id.h"

namespace roctracer::platform {

// The calling thread's stack, [low, high), found on first use (high 0: not
// yet; high 1: unknown). A forked child's thread keeps its stack.
ROCTRACER_HOT_TLS uintptr_t t_readable_stack_low = 0;
ROCTRACER_HOT_TLS uintptr_t t_readable_stack_high = 0;
// The last range this thread found readable for good (a startup object's
// segment, the used part of an arena heap, which only grows): strings a
// thread passes tend to come from the same place, and a hit costs two loads.
ROCTRACER_HOT_TLS uintptr_t t_lasting_begin = 0;
ROCTRACER_HOT_TLS uintptr_t t_lasting_end = 0;

namespace {

// Out of line: QuickKnownSpan, on every string check, stays a few loads.
[[gnu::noinline, gnu::cold]] void FindThreadStack() noexcept {
  t_readable_stack_high = 1;
  pthread_attr_t attr;
  if (pthread_getattr_np(pthread_self(), &attr) != 0) return;
  void* addr = nullptr;
  size_t size = 0;
  if (pthread_attr_getstack(&attr, &addr, &size) == 0 && addr != nullptr) {
    t_readable_stack_low = reinterpret_cast<uintptr_t>(addr);
    t_readable_stack_high = t_readable_stack_low + size;
  }
  pthread_attr_destroy(&attr);
}

constexpr uintptr_t kLowestMapped = 4096;
constexpr uintptr_t kUserEnd = uintptr_t{1} << 47;

// Where the brk heap begins ("start_brk", field 47 of /proc/self/stat); 0 when
// unknown. It never moves, so it is read once.
uintptr_t ReadBrkStart() noexcept {
  const int fd = open("/proc/self/stat", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  char buf[1024];
  const ssize_t n = read(fd, buf, sizeof(buf) - 1);
  close(fd);
  if (n <= 0) return 0;
  buf[n] = '\0';
  // The command name (field 2) may hold spaces and parentheses: count from
  // the last ')'.
  const char* p = std::strrchr(buf, ')');
  if (p == nullptr) return 0;
  for (int field = 2; field < 47; ++field) {
    p = std::strchr(p + 1, ' ');
    if (p == nullptr) return 0;
  }
  return static_cast<uintptr_t>(std::strtoull(p + 1, nullptr, 10));
}

uintptr_t BrkStart() noexcept {
  static const uintptr_t start = ReadBrkStart();
  return start;
}

}  // namespace

bool PlausibleUserAddress(const void* p) noexcept {
  const auto a = reinterpret_cast<uintptr_t>(p);
  return a >= kLowestMapped && a < kUserEnd;
}

namespace {

// The checks of KnownReadableSpan that cost a few loads.
size_t QuickKnownSpan(uintptr_t a) noexcept {
  // The lasting range first: two loads for the most common strings, the
  // program's literals.
  if (a >= t_lasting_begin && a < t_lasting_end) return t_lasting_end - a;
  if (__builtin_expect(t_readable_stack_high == 0, 0)) FindThreadStack();
  const uintptr_t stack_low = t_readable_stack_low;
  const uintptr_t stack_high = t_readable_stack_high;
  // Everything between the current frame and the top of the stack is
  // mapped, as long as this code runs on that stack (not on a fiber's).
  const auto frame = reinterpret_cast<uintptr_t>(__builtin_frame_address(0));
  if (frame >= stack_low && frame < stack_high && a >= frame &&
      a < stack_high) {
    return stack_high - a;
  }
  return 0;
}

}  // namespace

size_t KnownReadableSpan(const void* p) noexcept {
  const auto a = reinterpret_cast<uintptr_t>(p);
  if (const size_t quick = QuickKnownSpan(a)) return quick;
  const uintptr_t heap_begin = BrkStart();
  if (heap_begin != 0 && a >= heap_begin) {
    const auto heap_end = reinterpret_cast<uintptr_t>(sbrk(0));
    if (heap_end != static_cast<uintptr_t>(-1) && a < heap_end) {
      return heap_end - a;
    }
  }
  uintptr_t begin = 0;
  size_t span = StartupObjectSpan(p, &begin);
  if (span == 0) span = ArenaHeapSpan(p, &begin);
  if (span != 0) {
    t_lasting_begin = begin;
    t_lasting_end = a + span;
  }
  return span;
}

bool VisitReadable(const void* p,
                   void (*visit)(const char* p, size_t span, void* ctx),
                   void* ctx) noexcept {
  if (!PlausibleUserAddress(p)) return false;
  // Cheapest first: the stack and this thread's last lasting range, then
  // its last range of the snapshot, then the other known homes, then the
  // whole snapshot.
  size_t span = QuickKnownSpan(reinterpret_cast<uintptr_t>(p));
  if (span == 0) {
    const bool guarded = GuardedReadsOn();
    if (guarded) span = CachedMappedSpan(p);
    if (span == 0) span = KnownReadableSpan(p);
    if (span == 0 && guarded) span = MappedSpan(p);
  }
  if (span == 0) {
    if (VisitLoadedSegment(p, visit, ctx)) return true;
    if (!LearnArenaHeap(p)) return false;
    span = KnownReadableSpan(p);
    if (span == 0) return false;
  }
  visit(static_cast<const char*>(p), span, ctx);
  return true;
}

bool ReadChecked(void* dst, const void* src, size_t n) noexcept {
  iovec local{dst, n};
  iovec remote{const_cast<void*>(src), n};
  const ssize_t got = process_vm_readv(static_cast<pid_t>(ProcessId()), &local,
                                       1, &remote, 1, 0);
  return got >= 0 && static_cast<size_t>(got) == n;
}

namespace {

struct CopyRequest {
  void* dst;
  size_t n;
  bool copied;
};

void CopyVisited(const char* src, size_t span, void* ctx) {
  auto* r = static_cast<CopyRequest*>(ctx);
  if (span < r->n) return;  // runs off the mapping: left to the kernel
  r->copied = GuardedCopy(r->dst, src, r->n);
  if (!r->copied) MappedRangesOutdated();
}

}  // namespace

bool CopyIfReadable(void* dst, const void* src, size_t n) noexcept {
  if (src != nullptr && PlausibleUserAddress(src)) {
    CopyRequest r{dst, n, false};
    if (VisitReadable(src, &CopyVisited, &r) && r.copied) return true;
    if (ReadChecked(dst, src, n)) return true;
  }
  std::memset(dst, 0, n);
  return false;
}

namespace {

// Where the string's NUL lies, found by a visit: its length, or SIZE_MAX
// when it runs off the visited span or a read faulted.
void FindEnd(const char* s, size_t span, void* found) {
  const size_t n = GuardedStringLength(s, span);
  if (n == kReadFaulted) MappedRangesOutdated();
  *static_cast<size_t*>(found) = n < span ? n : kUnreadableLength;
}

}  // namespace

size_t ReadableStringLength(const char* s) noexcept {
  // PlausibleUserAddress, spelt out: an exported function is not inlined.
  const auto a = reinterpret_cast<uintptr_t>(s);
  if (a < kLowestMapped || a >= kUserEnd) return kUnreadableLength;
  // The common case first, without the visit's indirect call: a string on
  // this thread's stack or in the range it last found lasting (a literal of
  // the program, say).
  const size_t quick = QuickKnownSpan(a);
  if (quick != 0) {
    const size_t n = GuardedStringLength(s, quick);
    if (n < quick) return n;
    if (n == kReadFaulted) MappedRangesOutdated();
  }
  size_t length = kUnreadableLength;
  if (VisitReadable(s, &FindEnd, &length) && length != kUnreadableLength) {
    return length;
  }
  constexpr uintptr_t kPage = 4096;
  char page[kPage];
  length = 0;
  for (auto from = reinterpret_cast<uintptr_t>(s);;) {
    const size_t piece = kPage - (from % kPage);
    if (!ReadChecked(page, reinterpret_cast<const void*>(from), piece)) {
      return kUnreadableLength;
    }
    if (const void* nul = std::memchr(page, '\0', piece)) {
      return length + static_cast<size_t>(static_cast<const char*>(nul) - page);
    }
    length += piece;
    from += piece;
  }
}

bool IsReadableString(const char* s) noexcept {
  return ReadableStringLength(s) != kUnreadableLength;
}

}  // namespace roctracer::platform
