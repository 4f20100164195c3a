// Per-thread storage for the string arguments of the traced calls in progress
// on a thread. A call copies its `const char*` arguments at ENTER and gives
// the space back at EXIT (calls nest strictly, so the arena is a stack: a
// mark and a release). Chunks are kept for reuse, so after the first calls of
// a thread copying a string allocates nothing.
//
// The caller's pointer is not trusted (readable_memory.h): a string the
// tracer cannot read is "copied" as codegen::kUnreadableString, and the call
// goes on (the runtime gets the caller's pointer and gives its own error).
#ifndef RUNTIME_INTERCEPT_STRING_ARENA_H_
#define RUNTIME_INTERCEPT_STRING_ARENA_H_

#include <cstddef>
#include <cstdint>

#include "runtime/platform/readable_memory.h"

namespace roctracer {

class StringArena {
 public:
  // The arena of the calling thread, created on first use; NULL when out of
  // memory or when the thread is past its TLS destructors.
  static StringArena* ForThisThread() noexcept;

  // Position to return to with Release().
  uint64_t Mark() const noexcept {
    return (static_cast<uint64_t>(current_) << 32) | used_;
  }
  void Release(uint64_t mark) noexcept;

  // A copy of `s` (NUL included) that stays valid until the Release() of a
  // mark taken before this call; NULL for NULL; codegen::kUnreadableString
  // when `s` does not point at a readable NUL-terminated string, or when the
  // arena is out of memory.
  const char* Copy(const char* s) noexcept;

  // Bytes held by the arena (for tests).
  size_t Capacity() const noexcept;

  ~StringArena();

 private:
  static constexpr uint32_t kChunks = 24;
  static constexpr uint32_t kFirstChunk = 4096;
  // Chunks above this size are freed on release rather than kept: one huge
  // string must not pin its memory for the life of the thread.
  static constexpr uint32_t kKeepLimit = 1u << 20;

  // `n` contiguous bytes at the top of the arena; NULL when out of memory.
  char* Reserve(size_t n) noexcept;
  // Page by page through the kernel, for strings in no known mapping.
  const char* CopyChecked(const char* s) noexcept;
  static void CopyVisited(const char* s, size_t span, void* ctx);

  char* chunk_[kChunks] = {};
  uint32_t size_[kChunks] = {};
  uint32_t current_ = 0;
  uint32_t used_ = 0;
  bool has_oversized_ = false;
};

}  // namespace roctracer

#endif  // RUNTIME_INTERCEPT_STRING_ARENA_H_
