#include "runtime/thread_id.h"

#include <sys/syscall.h>
#include <unistd.h>

namespace roctracer {
namespace {
thread_local uint32_t t_tid = 0;
}  // namespace

// Not cached: a cached PID would be wrong in a forked child.
uint32_t ProcessId() noexcept { return static_cast<uint32_t>(getpid()); }

uint32_t ThreadId() noexcept {
  if (t_tid == 0) t_tid = static_cast<uint32_t>(syscall(SYS_gettid));
  return t_tid;
}

}  // namespace roctracer
