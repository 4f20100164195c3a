#include "runtime/thread_id.h"

#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <mutex>

#include "runtime/hot_tls.h"

namespace roctracer {

// Read for every activity record: initial-exec (hot_tls.h).
ROCTRACER_HOT_TLS uint32_t t_tid = 0;

namespace {
// getpid() is a system call (glibc stopped caching it): ~100 ns, paid on
// every API activity record. Cached, and forgotten in a forked child so the
// child reports its own PID.
std::atomic<uint32_t> g_pid{0};
std::once_flag g_atfork_once;
void ForgetPid() { g_pid.store(0, std::memory_order_relaxed); }
}  // namespace

uint32_t ProcessId() noexcept {
  uint32_t pid = g_pid.load(std::memory_order_relaxed);
  if (pid == 0) {
    std::call_once(g_atfork_once,
                   [] { pthread_atfork(nullptr, nullptr, &ForgetPid); });
    pid = static_cast<uint32_t>(getpid());
    g_pid.store(pid, std::memory_order_relaxed);
  }
  return pid;
}

uint32_t ThreadId() noexcept {
  if (t_tid == 0) t_tid = static_cast<uint32_t>(syscall(SYS_gettid));
  return t_tid;
}

}  // namespace roctracer
