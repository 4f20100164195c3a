#include "runtime/intercept/string_arena.h"

#include <pthread.h>

#include <cstdlib>
#include <cstring>
#include <new>

#include "codegen/support/arg_format.h"
#include "runtime/intercept/trace_guard.h"
#include "runtime/platform/guarded_read.h"
#include "runtime/platform/mapped_ranges.h"
#include "runtime/platform/readable_memory.h"
#include "runtime/platform/thread_exit.h"

namespace roctracer {
namespace {

// Runs at thread exit: frees the arena and refuses new ones, so a traced call
// made by a later TLS destructor neither leaks nor touches freed memory (its
// strings are simply not copied).
void DestroyArena(void* p) {
  hook::ThreadState& t = hook::Thread();
  t.arena = nullptr;
  t.arena_released = 1;
  delete static_cast<StringArena*>(p);
}

}  // namespace

StringArena* StringArena::ForThisThread() noexcept {
  hook::ThreadState& t = hook::Thread();
  if (t.arena != nullptr || t.arena_released) return t.arena;
  auto* arena = new (std::nothrow) StringArena();
  if (arena == nullptr) return nullptr;
  if (!platform::ReleaseAtThreadExit<&DestroyArena>(arena)) {
    delete arena;
    return nullptr;
  }
  t.arena = arena;
  return arena;
}

StringArena::~StringArena() {
  for (char* c : chunk_) std::free(c);
}

char* StringArena::Reserve(size_t n) noexcept {
  if (n > UINT32_MAX / 2) return nullptr;
  uint32_t index = current_;
  uint32_t offset = used_;
  if (chunk_[index] == nullptr || offset + n > size_[index]) {
    // Move on to the next chunk, (re)allocating it when missing or too small;
    // nothing beyond the current chunk is in use.
    if (chunk_[index] != nullptr) ++index;
    if (index >= kChunks) return nullptr;
    if (chunk_[index] == nullptr || size_[index] < n) {
      uint32_t size = kFirstChunk << (index < 8 ? index : 8);
      while (size < n) size *= 2;
      char* fresh = static_cast<char*>(std::malloc(size));
      if (fresh == nullptr) return nullptr;
      std::free(chunk_[index]);
      chunk_[index] = fresh;
      size_[index] = size;
      if (size > kKeepLimit) has_oversized_ = true;
    }
    offset = 0;
  }
  current_ = index;
  used_ = offset + static_cast<uint32_t>(n);
  return chunk_[index] + offset;
}

namespace {

struct VisitResult {
  StringArena* arena;
  const char* out;  // NULL: left to CopyChecked
};

}  // namespace

void StringArena::CopyVisited(const char* s, size_t span, void* ctx) {
  auto* r = static_cast<VisitResult*>(ctx);
  StringArena* arena = r->arena;
  // Guarded reads (readable_memory.h): the memory may be unmapped under them.
  const size_t n = platform::GuardedStringLength(s, span);
  if (n == platform::kReadFaulted) {
    platform::MappedRangesOutdated();
    return;
  }
  if (n == span) return;  // runs off the mapping
  const uint64_t mark = arena->Mark();
  char* out = arena->Reserve(n + 1);
  // Out of memory: left to CopyChecked, which answers "unreadable" (the
  // caller's pointer, read in place later, might be unmapped by then).
  if (out == nullptr) return;
  if (!platform::GuardedCopy(out, s, n)) {
    arena->Release(mark);
    platform::MappedRangesOutdated();
    return;
  }
  out[n] = '\0';  // the string may have changed since its length was found
  r->out = out;
}

const char* StringArena::Copy(const char* s) noexcept {
  if (s == nullptr) return nullptr;
  if (!platform::PlausibleUserAddress(s)) return codegen::kUnreadableString;
  // Directly where the memory is known to stay mapped while it is read
  // (readable_memory.h); a string that runs past that mapping, or lies
  // anywhere else, is read through the kernel.
  VisitResult r{this, nullptr};
  if (platform::VisitReadable(s, &CopyVisited, &r) && r.out != nullptr)
    return r.out;
  return CopyChecked(s);
}

const char* StringArena::CopyChecked(const char* s) noexcept {
  // Reads never span a readable 4 KiB page (the smallest page size) and an
  // unmapped one, so a string that ends just before an unmapped page is
  // copied whole. Most strings end in their first page: one read.
  constexpr uintptr_t kPage = 4096;
  auto from = reinterpret_cast<uintptr_t>(s);
  const size_t first = kPage - (from % kPage);
  char* out = Reserve(first);
  if (out == nullptr) return codegen::kUnreadableString;
  const auto top = [this](const char* end) {
    used_ = static_cast<uint32_t>(end - chunk_[current_]);
  };
  if (!platform::ReadChecked(out, s, first)) {
    top(out);
    return codegen::kUnreadableString;
  }
  if (const void* nul = std::memchr(out, '\0', first)) {
    top(static_cast<const char*>(nul) + 1);  // what was read past the NUL
    return out;
  }
  top(out);
  // Longer: find the length page by page, then copy it in one read, so the
  // arena holds one block of the right size.
  char page[kPage];
  size_t n = first;
  for (from += first;; from += kPage) {
    if (n > UINT32_MAX / 2 ||
        !platform::ReadChecked(page, reinterpret_cast<const void*>(from),
                               kPage)) {
      return codegen::kUnreadableString;
    }
    if (const void* nul = std::memchr(page, '\0', kPage)) {
      n += static_cast<size_t>(static_cast<const char*>(nul) - page);
      break;
    }
    n += kPage;
  }
  out = Reserve(n + 1);
  if (out == nullptr || !platform::ReadChecked(out, s, n + 1)) {
    return codegen::kUnreadableString;
  }
  return out;
}

void StringArena::Release(uint64_t mark) noexcept {
  current_ = static_cast<uint32_t>(mark >> 32);
  used_ = static_cast<uint32_t>(mark);
  if (!has_oversized_) return;
  has_oversized_ = false;
  for (uint32_t i = 0; i < kChunks; ++i) {
    if (size_[i] <= kKeepLimit) continue;
    if (i > current_ || (i == current_ && used_ == 0)) {
      std::free(chunk_[i]);
      chunk_[i] = nullptr;
      size_[i] = 0;
    } else {
      has_oversized_ = true;  // still in use by an enclosing call
    }
  }
}

size_t StringArena::Capacity() const noexcept {
  size_t total = 0;
  for (uint32_t s : size_) total += s;
  return total;
}

}  // namespace roctracer
