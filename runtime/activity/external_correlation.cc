#include "runtime/activity/external_correlation.h"

#include <pthread.h>

#include <cstdlib>

#include "runtime/platform/hot_tls.h"
#include "runtime/platform/thread_exit.h"

namespace roctracer::activity {

// The top lives in initial-exec thread-locals (hot_tls.h) so the check every
// activity record makes, "is an external ID pushed?", is one load. The IDs
// below the top go to a heap array reached through a trivially destructible
// pointer, not a thread_local std::vector: exit() destroys the main thread's
// thread_local objects before the exit handlers and static destructors run,
// and those may still push and pop.
namespace external_correlation_internal {
ROCTRACER_HOT_TLS uint32_t t_depth = 0;
ROCTRACER_HOT_TLS uint64_t t_top = 0;
}  // namespace external_correlation_internal
ROCTRACER_HOT_TLS uint64_t* t_external_below = nullptr;
ROCTRACER_HOT_TLS uint32_t t_external_capacity = 0;

using external_correlation_internal::t_depth;
using external_correlation_internal::t_top;

namespace {

// Frees an exiting thread's array (a pthread key destructor runs after the
// thread's last code, and again if that code pushed once more).
void ReleaseBelow(void* below) {
  if (t_external_below == below) {
    t_external_below = nullptr;
    t_external_capacity = 0;
  }
  std::free(below);
}

}  // namespace

bool PushExternalId(uint64_t id) noexcept {
  if (t_depth > 0) {
    const uint32_t below = t_depth - 1;
    if (below == t_external_capacity) {
      const uint32_t capacity =
          t_external_capacity == 0 ? 8 : t_external_capacity * 2;
      auto* grown = static_cast<uint64_t*>(
          std::realloc(t_external_below, capacity * sizeof(uint64_t)));
      if (grown == nullptr) return false;
      // Out of keys: freed at process exit only.
      if (grown != t_external_below) {
        (void)platform::ReleaseAtThreadExit<&ReleaseBelow>(grown);
      }
      t_external_below = grown;
      t_external_capacity = capacity;
    }
    t_external_below[below] = t_top;
  }
  t_top = id;
  ++t_depth;
  return true;
}

bool PopExternalId(uint64_t* id) noexcept {
  if (t_depth == 0) return false;
  *id = t_top;
  --t_depth;
  t_top = t_depth > 0 ? t_external_below[t_depth - 1] : 0;
  return true;
}

}  // namespace roctracer::activity
