// The executable's definitions of the allocation functions win over libc's
// (operator new in libstdc++ and libbenchmark also resolve to them); each
// forwards to glibc's own entry points and bumps a thread-local count, so a
// benchmark thread sees exactly the allocations it made itself.
#include "benchmarks/pool/alloc_counter.h"

#include <cerrno>
#include <cstddef>

extern "C" {
void* __libc_malloc(size_t size);
void* __libc_calloc(size_t n, size_t size);
void* __libc_realloc(void* p, size_t size);
void* __libc_memalign(size_t alignment, size_t size);
void __libc_free(void* p);
}

namespace {
thread_local uint64_t tl_allocations
    __attribute__((tls_model("initial-exec"))) = 0;
}  // namespace

namespace roctracer {
namespace bench {
uint64_t ThreadAllocations() noexcept { return tl_allocations; }
}  // namespace bench
}  // namespace roctracer

extern "C" {

void* malloc(size_t size) {
  ++tl_allocations;
  return __libc_malloc(size);
}

void* calloc(size_t n, size_t size) {
  ++tl_allocations;
  return __libc_calloc(n, size);
}

void* realloc(void* p, size_t size) {
  ++tl_allocations;
  return __libc_realloc(p, size);
}

void* memalign(size_t alignment, size_t size) {
  ++tl_allocations;
  return __libc_memalign(alignment, size);
}

void* aligned_alloc(size_t alignment, size_t size) {
  ++tl_allocations;
  return __libc_memalign(alignment, size);
}

int posix_memalign(void** out, size_t alignment, size_t size) {
  ++tl_allocations;
  void* p = __libc_memalign(alignment, size);
  if (p == nullptr) return ENOMEM;
  *out = p;
  return 0;
}

void free(void* p) { __libc_free(p); }

}  // extern "C"
