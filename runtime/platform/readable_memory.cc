#include "runtime/platform/readable_memory.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <sys/uio.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>

#include "runtime/platform/hot_tls.h"
#include "runtime/platform/thread_id.h"

namespace roctracer {

// The calling thread's stack, [low, high), found on first use (high 0: not
// yet; high 1: unknown). A forked child's thread keeps its stack.
ROCTRACER_HOT_TLS uintptr_t t_readable_stack_low = 0;
ROCTRACER_HOT_TLS uintptr_t t_readable_stack_high = 0;

namespace {

void FindThreadStack() noexcept {
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

// The main program's readable segments: it is never unloaded, so its string
// literals need neither a system call nor the loader's lock.
struct ProgramSegments {
  static constexpr int kMax = 8;
  uintptr_t begin[kMax] = {};
  uintptr_t end[kMax] = {};
  int count = 0;
};

int ReadProgramSegments(dl_phdr_info* info, size_t, void* arg) {
  auto* segments = static_cast<ProgramSegments*>(arg);
  for (ElfW(Half) i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_LOAD || (ph.p_flags & PF_R) == 0) continue;
    if (segments->count == ProgramSegments::kMax) break;
    segments->begin[segments->count] = info->dlpi_addr + ph.p_vaddr;
    segments->end[segments->count] = info->dlpi_addr + ph.p_vaddr + ph.p_memsz;
    ++segments->count;
  }
  return 1;  // the first object listed is the program
}

const ProgramSegments& Program() noexcept {
  static const ProgramSegments segments = [] {
    ProgramSegments s;
    dl_iterate_phdr(&ReadProgramSegments, &s);
    return s;
  }();
  return segments;
}

struct SegmentQuery {
  uintptr_t address;
  ElfW(Addr) object_base;
  void (*visit)(const char*, size_t, void*);
  void* ctx;
  bool found;
};

int FindSegment(dl_phdr_info* info, size_t, void* arg) {
  auto* q = static_cast<SegmentQuery*>(arg);
  if (info->dlpi_addr != q->object_base) return 0;
  for (ElfW(Half) i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_LOAD || (ph.p_flags & PF_R) == 0) continue;
    const uintptr_t begin = info->dlpi_addr + ph.p_vaddr;
    const uintptr_t end = begin + ph.p_memsz;
    if (q->address < begin || q->address >= end) continue;
    q->visit(reinterpret_cast<const char*>(q->address), end - q->address,
             q->ctx);
    q->found = true;
    return 1;
  }
  return 0;
}

}  // namespace

bool PlausibleUserAddress(const void* p) noexcept {
  const auto a = reinterpret_cast<uintptr_t>(p);
  return a >= kLowestMapped && a < kUserEnd;
}

size_t KnownReadableSpan(const void* p) noexcept {
  const auto a = reinterpret_cast<uintptr_t>(p);
  if (t_readable_stack_high == 0) FindThreadStack();
  const uintptr_t stack_low = t_readable_stack_low;
  const uintptr_t stack_high = t_readable_stack_high;
  // Everything between the current frame and the top of the stack is
  // mapped, as long as this code runs on that stack (not on a fiber's).
  const auto frame = reinterpret_cast<uintptr_t>(__builtin_frame_address(0));
  if (frame >= stack_low && frame < stack_high && a >= frame &&
      a < stack_high) {
    return stack_high - a;
  }
  const ProgramSegments& program = Program();
  for (int i = 0; i < program.count; ++i) {
    if (a >= program.begin[i] && a < program.end[i]) return program.end[i] - a;
  }
  const uintptr_t heap_begin = BrkStart();
  if (heap_begin != 0 && a >= heap_begin) {
    const auto heap_end = reinterpret_cast<uintptr_t>(sbrk(0));
    if (heap_end != static_cast<uintptr_t>(-1) && a < heap_end) {
      return heap_end - a;
    }
  }
  return 0;
}

bool VisitLoadedSegment(const void* p,
                        void (*visit)(const char* p, size_t span, void* ctx),
                        void* ctx) noexcept {
  // Lock-free and a few ns: most pointers that are in no object (heap, mmap)
  // leave here without walking the list of objects.
  dl_find_object found;
  if (_dl_find_object(const_cast<void*>(p), &found) != 0) return false;
  SegmentQuery q{reinterpret_cast<uintptr_t>(p), found.dlfo_link_map->l_addr,
                 visit, ctx, false};
  // dl_iterate_phdr holds the lock dlclose takes before it unmaps an object:
  // the segment stays mapped while `visit` reads it.
  dl_iterate_phdr(&FindSegment, &q);
  return q.found;
}

bool ReadChecked(void* dst, const void* src, size_t n) noexcept {
  iovec local{dst, n};
  iovec remote{const_cast<void*>(src), n};
  const ssize_t got = process_vm_readv(static_cast<pid_t>(ProcessId()), &local,
                                       1, &remote, 1, 0);
  return got >= 0 && static_cast<size_t>(got) == n;
}

bool CopyIfReadable(void* dst, const void* src, size_t n) noexcept {
  if (src != nullptr && PlausibleUserAddress(src)) {
    if (KnownReadableSpan(src) >= n) {
      std::memcpy(dst, src, n);
      return true;
    }
    if (ReadChecked(dst, src, n)) return true;
  }
  std::memset(dst, 0, n);
  return false;
}

namespace {

void FindEnd(const char* s, size_t span, void* found) {
  *static_cast<bool*>(found) = strnlen(s, span) < span;
}

}  // namespace

bool IsReadableString(const char* s) noexcept {
  if (s == nullptr || !PlausibleUserAddress(s)) return false;
  if (const size_t span = KnownReadableSpan(s)) {
    if (strnlen(s, span) < span) return true;
  } else {
    bool ends = false;
    if (VisitLoadedSegment(s, &FindEnd, &ends) && ends) return true;
  }
  constexpr uintptr_t kPage = 4096;
  char page[kPage];
  for (auto from = reinterpret_cast<uintptr_t>(s);;) {
    const size_t piece = kPage - (from % kPage);
    if (!ReadChecked(page, reinterpret_cast<const void*>(from), piece)) {
      return false;
    }
    if (std::memchr(page, '\0', piece) != nullptr) return true;
    from += piece;
  }
}

}  // namespace roctracer
