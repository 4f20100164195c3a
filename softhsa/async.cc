// hsa_amd_signal_async_handler and hsa_amd_async_function: one runtime thread
// that runs handlers whose condition holds. A handler returning true stays
// registered (and runs again while the condition holds, as in ROCR); false
// removes it.
//
// At exit, handlers already due run before the libraries' static objects are
// destroyed (RunDueHandlersAtExit). ROCR's event thread wakes on the
// completion's interrupt and runs a due handler within microseconds; this
// thread may wait milliseconds for a CPU on a loaded machine, and a runtime
// that tears itself down from a static destructor (HIP) must not find its
// handler running afterwards on objects it freed.
#include <pthread.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <climits>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

#include "softhsa/api.h"
#include "softhsa/signal.h"

namespace softhsa {
namespace {

struct Handler {
  hsa_signal_t signal;
  hsa_signal_condition_t cond;
  hsa_signal_value_t value;
  hsa_amd_signal_handler handler;
  void* arg;
};

std::mutex& g_mutex = *new std::mutex;
std::vector<Handler>& g_handlers = *new std::vector<Handler>;
std::deque<std::pair<void (*)(void*), void*>>& g_functions =
    *new std::deque<std::pair<void (*)(void*), void*>>;
std::thread& g_thread = *new std::thread;
bool g_stop = false;
// The process g_thread runs in: read before g_mutex at exit, since a forked
// child's copy of g_mutex may be held by a thread the child does not have.
std::atomic<pid_t> g_thread_pid{0};
thread_local bool t_on_async_thread = false;
// Passes of Run over the handlers: begun (under g_mutex) and finished. Run
// takes the lock to tell a finished pass only while exit waits for one.
uint64_t g_passes_begun = 0;
std::atomic<uint64_t> g_passes_done{0};
std::atomic<int> g_exit_waiters{0};
std::condition_variable& g_pass_done_cv = *new std::condition_variable;
// How long exit waits for the due handlers (a handler that never returns
// must not keep the process from exiting).
constexpr std::chrono::seconds kExitWait{2};

void Kick() { BumpWatch(); }

void Run() {
  pthread_setname_np(pthread_self(), "softhsa-async");
  t_on_async_thread = true;
  for (;;) {
    uint32_t seen = WatchSeq();
    std::vector<Handler> ready;
    std::deque<std::pair<void (*)(void*), void*>> functions;
    uint64_t pass;
    {
      std::lock_guard<std::mutex> lock(g_mutex);
      if (g_stop) return;
      pass = ++g_passes_begun;
      functions.swap(g_functions);
      for (size_t i = 0; i < g_handlers.size();) {
        Handler& h = g_handlers[i];
        Signal* s = Acquire(h.signal);
        if (s == nullptr) {  // destroyed under its handler: drop it
          g_handlers.erase(g_handlers.begin() + i);
          continue;
        }
        bool fire = Satisfied(s->value.load(std::memory_order_acquire), h.cond,
                              h.value);
        Release(s);
        if (fire) {
          ready.push_back(h);
          g_handlers.erase(g_handlers.begin() + i);
          continue;
        }
        ++i;
      }
    }
    for (auto& f : functions) f.first(f.second);
    for (Handler& h : ready) {
      Signal* s = Acquire(h.signal);
      if (s == nullptr) continue;
      int64_t v = s->value.load(std::memory_order_acquire);
      Release(s);
      bool keep = h.handler(v, h.arg);
      std::lock_guard<std::mutex> lock(g_mutex);
      if (Signal* live = Acquire(h.signal)) {
        if (keep) {
          g_handlers.push_back(h);
        } else {
          live->watchers.fetch_sub(1, std::memory_order_seq_cst);
        }
        Release(live);
      }
    }
    // Sequentially consistent with a waiter's count and its read of the
    // passes: either it sees this pass, or this sees it waiting.
    g_passes_done.store(pass, std::memory_order_seq_cst);
    if (g_exit_waiters.load(std::memory_order_seq_cst) != 0) {
      std::lock_guard<std::mutex> lock(g_mutex);
      g_pass_done_cv.notify_all();
    }
    if (ready.empty() && functions.empty()) WaitWatch(seen, UINT64_MAX);
  }
}

void EnsureThread() {
  if (!g_thread.joinable()) {
    g_stop = false;
    g_thread_pid.store(getpid(), std::memory_order_relaxed);
    g_thread = std::thread(Run);
  }
}

}  // namespace

void RunDueHandlersAtExit() {
  // Nothing to wait for in a forked child (the thread is the parent's, and
  // so may be the lock) or when a handler calls exit; both are known
  // without the lock.
  if (t_on_async_thread ||
      g_thread_pid.load(std::memory_order_relaxed) != getpid()) {
    return;
  }
  std::unique_lock<std::mutex> lock(g_mutex);
  // Nor without the thread: none started, or stopped by hsa_shut_down.
  if (!g_thread.joinable() || g_stop) return;
  // A pass that begins from now on finds every handler whose condition
  // holds now, and every function queued before.
  const uint64_t target = g_passes_begun + 1;
  g_exit_waiters.fetch_add(1, std::memory_order_seq_cst);
  lock.unlock();
  Kick();
  lock.lock();
  g_pass_done_cv.wait_for(lock, kExitWait, [&] {
    return g_passes_done.load(std::memory_order_seq_cst) >= target || g_stop;
  });
  g_exit_waiters.fetch_sub(1, std::memory_order_seq_cst);
}

void StopAsyncThread() {
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    g_stop = true;
    g_handlers.clear();
    g_functions.clear();
    g_pass_done_cv.notify_all();
  }
  Kick();
  if (g_thread.joinable()) g_thread.join();
}

namespace api {

hsa_status_t hsa_amd_signal_async_handler(hsa_signal_t signal,
                                          hsa_signal_condition_t cond,
                                          hsa_signal_value_t value,
                                          hsa_amd_signal_handler handler,
                                          void* arg) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  Signal* s = ToSignal(signal);
  if (s == nullptr) return HSA_STATUS_ERROR_INVALID_SIGNAL;
  if (handler == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    s->watchers.fetch_add(1, std::memory_order_seq_cst);
    g_handlers.push_back({signal, cond, value, handler, arg});
    EnsureThread();
  }
  Kick();
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_async_function(void (*callback)(void* arg), void* arg) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (callback == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    g_functions.emplace_back(callback, arg);
    EnsureThread();
  }
  Kick();
  return HSA_STATUS_SUCCESS;
}

}  // namespace api
}  // namespace softhsa
