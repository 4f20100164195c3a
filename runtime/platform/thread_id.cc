#include "runtime/platform/thread_id.h"

#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>

#include "runtime/platform/hot_tls.h"

namespace roctracer::platform {

// Read for every activity record: initial-exec (hot_tls.h).
ROCTRACER_HOT_TLS uint32_t t_tid = 0;

namespace {

// getpid() is a system call (glibc stopped caching it): ~100 ns, paid on
// every API activity record. Cached.
std::atomic<uint32_t> g_pid{0};

// A forked child has a new PID, and its one thread (the one that called
// fork) a new TID: both caches are forgotten there. Registered at load, so
// it is in place before anything is cached.
void ForgetIdsInChild() {
  g_pid.store(0, std::memory_order_relaxed);
  t_tid = 0;
}

struct RegisterForkHandler {
  RegisterForkHandler() { pthread_atfork(nullptr, nullptr, &ForgetIdsInChild); }
} g_register_fork_handler;

}  // namespace

uint32_t ProcessId() noexcept {
  uint32_t pid = g_pid.load(std::memory_order_relaxed);
  if (pid == 0) {
    pid = static_cast<uint32_t>(getpid());
    g_pid.store(pid, std::memory_order_relaxed);
  }
  return pid;
}

uint32_t ThreadId() noexcept {
  if (t_tid == 0) t_tid = static_cast<uint32_t>(syscall(SYS_gettid));
  return t_tid;
}

}  // namespace roctracer::platform
