#include "runtime/platform/thread_id.h"

#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace roctracer::platform::thread_id_internal {

// getpid() is a system call (glibc stopped caching it): ~100 ns, paid on
// every API activity record uncached. Hidden: the inline reader in this
// library reaches it without the GOT.
__attribute__((visibility("hidden"))) std::atomic<uint32_t> g_pid{0};

// Read for every activity record: initial-exec (hot_tls.h).
ROCTRACER_HOT_TLS uint32_t t_tid = 0;

uint32_t CacheProcessId() noexcept {
  const auto pid = static_cast<uint32_t>(getpid());
  g_pid.store(pid, std::memory_order_relaxed);
  return pid;
}

uint32_t CacheThreadId() noexcept {
  t_tid = static_cast<uint32_t>(syscall(SYS_gettid));
  return t_tid;
}

namespace {

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

}  // namespace roctracer::platform::thread_id_internal
