#include "runtime/platform/mapped_ranges.h"

#include <fcntl.h>
#include <pthread.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <mutex>
#include <new>

#include "runtime/platform/guarded_read.h"
#include "runtime/platform/hot_tls.h"

namespace roctracer::platform {

namespace mapped_ranges_detail {
std::atomic<uint64_t> g_seq{0};
ROCTRACER_HOT_TLS uintptr_t t_begin = 0;
ROCTRACER_HOT_TLS uintptr_t t_end = 0;
ROCTRACER_HOT_TLS uint64_t t_seq = 0;
}  // namespace mapped_ranges_detail

using mapped_ranges_detail::g_seq;

namespace {

// A published array of ranges: bounds[2i] and bounds[2i + 1] are the begin
// and end of range i, sorted. `capacity` never changes once published.
struct Table {
  size_t capacity;
  std::atomic<uintptr_t>* bounds;
};

std::atomic<Table*> g_table{nullptr};
std::atomic<size_t> g_count{0};
std::atomic<size_t> g_refreshes{0};

// Writer state, under g_refresh.
std::mutex g_refresh;
int64_t g_last_refresh_ns = 0;
bool g_ever_refreshed = false;
char* g_text = nullptr;  // /proc/self/maps, kept for the next refresh
size_t g_text_capacity = 0;
uintptr_t* g_pending = nullptr;  // parsed ranges, before publication
size_t g_pending_capacity = 0;

int64_t MonotonicNs() noexcept {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

// Reads /proc/self/maps whole into g_text (NUL-terminated); its length, or
// 0 when it could not be read.
size_t ReadMaps() noexcept {
  const int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  size_t size = 0;
  for (;;) {
    if (g_text_capacity - size < 4096) {
      const size_t capacity =
          g_text_capacity == 0 ? 65536 : 2 * g_text_capacity;
      void* grown = std::realloc(g_text, capacity);
      if (grown == nullptr) {
        size = 0;
        break;
      }
      g_text = static_cast<char*>(grown);
      g_text_capacity = capacity;
    }
    const ssize_t n = read(fd, g_text + size, g_text_capacity - size - 1);
    if (n < 0) {
      size = 0;
      break;
    }
    if (n == 0) break;
    size += static_cast<size_t>(n);
  }
  close(fd);
  if (size != 0) g_text[size] = '\0';
  return size;
}

bool Append(size_t* count, uintptr_t begin, uintptr_t end) noexcept {
  if (*count != 0 && g_pending[2 * *count - 1] == begin) {
    g_pending[2 * *count - 1] = end;  // adjacent: one range
    return true;
  }
  if (*count == g_pending_capacity) {
    const size_t capacity =
        g_pending_capacity == 0 ? 512 : 2 * g_pending_capacity;
    void* grown = std::realloc(g_pending, 2 * capacity * sizeof(uintptr_t));
    if (grown == nullptr) return false;
    g_pending = static_cast<uintptr_t*>(grown);
    g_pending_capacity = capacity;
  }
  g_pending[2 * *count] = begin;
  g_pending[2 * *count + 1] = end;
  ++*count;
  return true;
}

// Whether a mapping with this path may be read directly.
bool ReadableKind(const char* path, size_t length) noexcept {
  const auto starts = [&](const char* prefix) {
    const size_t n = std::strlen(prefix);
    return length >= n && std::memcmp(path, prefix, n) == 0;
  };
  if (starts("/dev/")) return starts("/dev/shm/");
  return !starts("[vvar") && !starts("[vsyscall]");
}

// Parses g_text into g_pending; the number of ranges, or SIZE_MAX when out
// of memory.
size_t Parse(size_t size) noexcept {
  size_t count = 0;
  for (char* line = g_text; line < g_text + size;) {
    char* end_of_line =
        static_cast<char*>(std::memchr(line, '\n', g_text + size - line));
    if (end_of_line == nullptr) end_of_line = g_text + size;
    *end_of_line = '\0';
    // "begin-end perms offset dev inode   path"
    char* at = nullptr;
    const uintptr_t begin = std::strtoull(line, &at, 16);
    const uintptr_t end =
        *at == '-' ? std::strtoull(at + 1, &at, 16) : uintptr_t{0};
    if (*at == ' ' && at[1] == 'r' && end > begin) {
      const char* path = at + 1;
      for (int field = 0; field < 4 && path != nullptr; ++field) {
        path = std::strchr(path, ' ');
        if (path != nullptr) ++path;
      }
      if (path != nullptr) {
        while (*path == ' ') ++path;
      } else {
        path = "";
      }
      if (ReadableKind(path, std::strlen(path)) &&
          !Append(&count, begin, end)) {
        return SIZE_MAX;
      }
    }
    line = end_of_line + 1;
  }
  return count;
}

void Publish(size_t count) noexcept {
  Table* table = g_table.load(std::memory_order_relaxed);
  Table* fresh = nullptr;
  if (table == nullptr || table->capacity < count) {
    // Outgrown: a new array, filled before anyone can see it. The old one
    // is kept: a lookup may still be reading it.
    fresh = new (std::nothrow) Table;
    const size_t capacity = count < 256 ? 512 : 2 * count;
    auto* bounds = static_cast<std::atomic<uintptr_t>*>(
        std::calloc(2 * capacity, sizeof(std::atomic<uintptr_t>)));
    if (fresh == nullptr || bounds == nullptr) {
      delete fresh;
      std::free(bounds);
      return;
    }
    fresh->capacity = capacity;
    fresh->bounds = bounds;
    table = fresh;
  }
  const uint64_t seq = g_seq.load(std::memory_order_relaxed);
  g_seq.store(seq + 1, std::memory_order_relaxed);
  std::atomic_thread_fence(std::memory_order_release);
  for (size_t i = 0; i < 2 * count; ++i) {
    table->bounds[i].store(g_pending[i], std::memory_order_relaxed);
  }
  g_count.store(count, std::memory_order_relaxed);
  if (fresh != nullptr) g_table.store(fresh, std::memory_order_release);
  g_seq.store(seq + 2, std::memory_order_release);
}

// A fork child may start with another thread's refresh half done: the lock
// held and the sequence number odd, for good. The table may then be torn,
// which the guarded reads tolerate; the child's next miss refreshes it.
void ResetInChild() {
  new (&g_refresh) std::mutex;
  const uint64_t seq = g_seq.load(std::memory_order_relaxed);
  if ((seq & 1) != 0) g_seq.store(seq + 1, std::memory_order_relaxed);
  g_ever_refreshed = false;
}

void Refresh(bool forced) noexcept {
  static const bool reset_in_child =
      pthread_atfork(nullptr, nullptr, &ResetInChild) == 0;
  (void)reset_in_child;
  std::unique_lock<std::mutex> lock(g_refresh, std::try_to_lock);
  if (!lock.owns_lock()) return;  // another thread is at it
  const int64_t now = MonotonicNs();
  if (!forced && g_ever_refreshed &&
      now - g_last_refresh_ns < kRefreshIntervalNs) {
    return;
  }
  g_last_refresh_ns = now;
  g_ever_refreshed = true;
  g_refreshes.fetch_add(1, std::memory_order_relaxed);
  // The snapshot is only used while the fault handler is the tracer's.
  if (!GuardedReadsStillOn()) return;
  const size_t size = ReadMaps();
  if (size == 0) return;
  const size_t count = Parse(size);
  if (count != SIZE_MAX) Publish(count);
}

// The span of the range holding `a` in the published snapshot; 0 when none
// (or when refreshes kept changing it during every attempt).
size_t Lookup(uintptr_t a) noexcept {
  for (int attempt = 0; attempt < 4; ++attempt) {
    const uint64_t seq = g_seq.load(std::memory_order_acquire);
    if ((seq & 1) != 0) continue;
    const Table* table = g_table.load(std::memory_order_acquire);
    if (table == nullptr) return 0;
    size_t count = g_count.load(std::memory_order_relaxed);
    if (count > table->capacity) count = table->capacity;
    // The first range beginning after `a`; the one before is the only one
    // that can hold it.
    size_t low = 0;
    size_t high = count;
    while (low < high) {
      const size_t mid = low + (high - low) / 2;
      if (table->bounds[2 * mid].load(std::memory_order_relaxed) <= a) {
        low = mid + 1;
      } else {
        high = mid;
      }
    }
    uintptr_t begin = 0;
    uintptr_t end = 0;
    if (low != 0) {
      begin = table->bounds[2 * low - 2].load(std::memory_order_relaxed);
      end = table->bounds[2 * low - 1].load(std::memory_order_relaxed);
    }
    std::atomic_thread_fence(std::memory_order_acquire);
    if (g_seq.load(std::memory_order_relaxed) != seq) continue;
    if (low == 0 || a >= end) return 0;
    mapped_ranges_detail::t_begin = begin;
    mapped_ranges_detail::t_end = end;
    mapped_ranges_detail::t_seq = seq;
    return end - a;
  }
  return 0;
}

}  // namespace

size_t MappedSpan(const void* p) noexcept {
  size_t span = CachedMappedSpan(p);
  if (span != 0) return span;
  const auto a = reinterpret_cast<uintptr_t>(p);
  span = Lookup(a);
  if (span == 0) {
    Refresh(false);
    span = Lookup(a);
  }
  return span;
}

void MappedRangesOutdated() noexcept { Refresh(true); }

size_t MappedRangeRefreshes() noexcept {
  return g_refreshes.load(std::memory_order_relaxed);
}

}  // namespace roctracer::platform
