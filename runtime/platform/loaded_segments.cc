#include "runtime/platform/loaded_segments.h"

#include <link.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>

namespace roctracer::platform {
namespace {

struct Segment {
  uintptr_t begin;
  uintptr_t end;
};

// Touched only inside dl_iterate_phdr callbacks, that is under the loader's
// lock: no two threads use it at once.
struct SegmentCache {
  unsigned long long adds = 0;
  unsigned long long subs = 0;
  bool complete = false;  // sorted, and built at (adds, subs)
  bool overflow = false;  // out of memory while building
  Segment* segments = nullptr;
  size_t count = 0;
  size_t capacity = 0;
};

SegmentCache g_cache;
std::atomic<size_t> g_builds{0};

#if defined(__SANITIZE_THREAD__)
// ThreadSanitizer does not see the loader's lock: this flag, never
// contended, tells it what the lock already guarantees.
std::atomic<bool> g_tsan_owner{false};
void Own() {
  while (g_tsan_owner.exchange(true, std::memory_order_acquire)) {
  }
}
void Disown() { g_tsan_owner.store(false, std::memory_order_release); }
#else
void Own() {}
void Disown() {}
#endif

bool Append(uintptr_t begin, uintptr_t end) {
  SegmentCache& c = g_cache;
  if (c.count == c.capacity) {
    const size_t capacity = c.capacity == 0 ? 256 : 2 * c.capacity;
    void* grown = std::realloc(c.segments, capacity * sizeof(Segment));
    if (grown == nullptr) return false;
    c.segments = static_cast<Segment*>(grown);
    c.capacity = capacity;
  }
  c.segments[c.count++] = Segment{begin, end};
  return true;
}

struct Query {
  uintptr_t address;
  void (*visit)(const char*, size_t, void*);
  void* ctx;
  bool answered;  // the cache was current: `found` is the answer
  bool found;
  bool rebuilt;  // this walk (re)built the cache
};

// With the cache current, answers from it.
void Answer(Query* q) {
  const SegmentCache& c = g_cache;
  const Segment* first = c.segments;
  const Segment* end = first + c.count;
  // The first segment beginning after the address; the one before it is
  // the only candidate (segments do not overlap).
  const Segment* after = std::upper_bound(
      first, end, q->address,
      [](uintptr_t a, const Segment& s) { return a < s.begin; });
  q->answered = true;
  if (after == first) return;
  const Segment& s = after[-1];
  if (q->address >= s.end) return;
  q->visit(reinterpret_cast<const char*>(q->address), s.end - q->address,
           q->ctx);
  q->found = true;
}

bool Current(const dl_phdr_info* info) {
  return g_cache.complete && info->dlpi_adds == g_cache.adds &&
         info->dlpi_subs == g_cache.subs;
}

// First object of a walk: answer when the cache is current; else start
// rebuilding it and let the walk go on (return 0) over every object.
int LookUp(dl_phdr_info* info, size_t, void* arg) {
  auto* q = static_cast<Query*>(arg);
  if (!q->rebuilt) {
    if (Current(info)) {
      Answer(q);
      return 1;
    }
    q->rebuilt = true;
    g_cache.complete = false;
    g_cache.overflow = false;
    g_cache.count = 0;
    g_cache.adds = info->dlpi_adds;
    g_cache.subs = info->dlpi_subs;
    g_builds.fetch_add(1, std::memory_order_relaxed);
  }
  for (ElfW(Half) i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_LOAD || (ph.p_flags & PF_R) == 0) continue;
    const uintptr_t begin = info->dlpi_addr + ph.p_vaddr;
    if (!Append(begin, begin + ph.p_memsz)) g_cache.overflow = true;
  }
  return 0;
}

// A later walk's first step: the objects are those of the rebuilding walk
// if the counters have not moved since (the whole walk held the lock, so
// only a dlopen or dlclose in between can have changed them). Then the cache
// is sorted, marked current, and answers.
int Complete(dl_phdr_info* info, size_t, void* arg) {
  auto* q = static_cast<Query*>(arg);
  SegmentCache& c = g_cache;
  if (!c.complete && !c.overflow && info->dlpi_adds == c.adds &&
      info->dlpi_subs == c.subs) {
    std::sort(
        c.segments, c.segments + c.count,
        [](const Segment& a, const Segment& b) { return a.begin < b.begin; });
    c.complete = true;
  }
  if (Current(info)) Answer(q);
  return 1;
}

int LookUpOwned(dl_phdr_info* info, size_t size, void* arg) {
  Own();
  const int done = LookUp(info, size, arg);
  Disown();
  return done;
}

int CompleteOwned(dl_phdr_info* info, size_t size, void* arg) {
  Own();
  const int done = Complete(info, size, arg);
  Disown();
  return done;
}

}  // namespace

bool VisitLoadedSegment(const void* p,
                        void (*visit)(const char* p, size_t span, void* ctx),
                        void* ctx) noexcept {
  Query q{reinterpret_cast<uintptr_t>(p), visit, ctx, false, false, false};
  dl_iterate_phdr(&LookUpOwned, &q);
  // Rebuilt (or another thread rebuilt it meanwhile): one more step, which
  // answers unless objects were loaded or unloaded in between.
  if (!q.answered) dl_iterate_phdr(&CompleteOwned, &q);
  return q.found;
}

size_t LoadedSegmentCacheBuilds() noexcept {
  return g_builds.load(std::memory_order_relaxed);
}

}  // namespace roctracer::platform
