#include "runtime/platform/child_environment.h"

#include <atomic>

namespace roctracer::child_environment {
namespace {

std::atomic<Filter> g_filter{nullptr};

}  // namespace

void SetFilter(Filter filter) noexcept {
  g_filter.store(filter, std::memory_order_release);
}

bool Changes(char* const* envp) noexcept {
  const Filter filter = g_filter.load(std::memory_order_acquire);
  if (filter == nullptr || envp == nullptr) return false;
  for (char* const* e = envp; *e != nullptr; ++e) {
    if (filter(*e) != *e) return true;
  }
  return false;
}

size_t StorageFor(char* const* envp) noexcept {
  if (!Changes(envp)) return 0;
  size_t n = 0;
  while (envp[n] != nullptr) ++n;
  return n + 1;
}

char* const* Apply(char* const* envp, char** storage,
                   size_t capacity) noexcept {
  if (capacity == 0) return nullptr;
  const Filter filter = g_filter.load(std::memory_order_acquire);
  size_t out = 0;
  // Bounded by what was counted: the array may have grown since (another
  // thread's setenv), and `storage` is on the caller's stack.
  for (size_t i = 0; i + 1 < capacity && envp[i] != nullptr; ++i) {
    const char* entry = filter != nullptr ? filter(envp[i]) : envp[i];
    // execve takes `char* const[]`: the strings are only read.
    if (entry != nullptr) storage[out++] = const_cast<char*>(entry);
  }
  storage[out] = nullptr;
  return storage;
}

}  // namespace roctracer::child_environment
