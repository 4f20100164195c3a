// Process and thread IDs for activity records, cached (getpid and gettid are
// system calls). Every API activity record reads both, so the readers are
// inline: a load and a predicted branch each; only the first read (per
// process, per thread) calls out.
#ifndef RUNTIME_PLATFORM_THREAD_ID_H_
#define RUNTIME_PLATFORM_THREAD_ID_H_

#include <atomic>
#include <cstdint>

#include "runtime/platform/hot_tls.h"

namespace roctracer::platform {

namespace thread_id_internal {
// 0 until first read; a forked child forgets both (thread_id.cc), since it
// has a new PID and its one thread a new TID.
extern std::atomic<uint32_t> g_pid;
ROCTRACER_HOT_TLS_EXTERN uint32_t t_tid;
uint32_t CacheProcessId() noexcept;  // fills g_pid, returns it
uint32_t CacheThreadId() noexcept;   // fills t_tid, returns it
}  // namespace thread_id_internal

inline uint32_t ProcessId() noexcept {
  const uint32_t pid =
      thread_id_internal::g_pid.load(std::memory_order_relaxed);
  if (__builtin_expect(pid == 0, 0)) {
    return thread_id_internal::CacheProcessId();
  }
  return pid;
}

inline uint32_t ThreadId() noexcept {
  const uint32_t tid = thread_id_internal::t_tid;
  if (__builtin_expect(tid == 0, 0)) {
    return thread_id_internal::CacheThreadId();
  }
  return tid;
}

}  // namespace roctracer::platform

#endif  // RUNTIME_PLATFORM_THREAD_ID_H_
