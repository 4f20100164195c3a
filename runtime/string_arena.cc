#include "runtime/string_arena.h"

#include <pthread.h>

#include <cstdlib>
#include <cstring>
#include <new>

#include "runtime/thread_exit.h"
#include "runtime/trace_guard.h"

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
  if (!ReleaseAtThreadExit<&DestroyArena>(arena)) {
    delete arena;
    return nullptr;
  }
  t.arena = arena;
  return arena;
}

StringArena::~StringArena() {
  for (char* c : chunk_) std::free(c);
}

const char* StringArena::Copy(const char* s) noexcept {
  if (s == nullptr) return nullptr;
  const size_t n = std::strlen(s) + 1;
  if (n > UINT32_MAX / 2) return s;
  uint32_t index = current_;
  uint32_t offset = used_;
  if (chunk_[index] == nullptr || offset + n > size_[index]) {
    // Move on to the next chunk, (re)allocating it when missing or too small;
    // nothing beyond the current chunk is in use.
    if (chunk_[index] != nullptr) ++index;
    if (index >= kChunks) return s;
    if (chunk_[index] == nullptr || size_[index] < n) {
      uint32_t size = kFirstChunk << (index < 8 ? index : 8);
      while (size < n) size *= 2;
      char* fresh = static_cast<char*>(std::malloc(size));
      if (fresh == nullptr) return s;
      std::free(chunk_[index]);
      chunk_[index] = fresh;
      size_[index] = size;
      if (size > kKeepLimit) has_oversized_ = true;
    }
    offset = 0;
  }
  char* out = chunk_[index] + offset;
  std::memcpy(out, s, n);
  current_ = index;
  used_ = offset + static_cast<uint32_t>(n);
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
