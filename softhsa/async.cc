// hsa_amd_signal_async_handler and hsa_amd_async_function: one runtime thread
// that runs handlers whose condition holds. A handler returning true stays
// registered (and runs again while the condition holds, as in ROCR); false
// removes it.
#include <pthread.h>

#include <climits>
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

void Kick() { BumpWatch(); }

void Run() {
  pthread_setname_np(pthread_self(), "softhsa-async");
  for (;;) {
    uint32_t seen = WatchSeq();
    std::vector<Handler> ready;
    std::deque<std::pair<void (*)(void*), void*>> functions;
    {
      std::lock_guard<std::mutex> lock(g_mutex);
      if (g_stop) return;
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
    if (ready.empty() && functions.empty()) WaitWatch(seen, UINT64_MAX);
  }
}

void EnsureThread() {
  if (!g_thread.joinable()) {
    g_stop = false;
    g_thread = std::thread(Run);
  }
}

}  // namespace

void StopAsyncThread() {
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    g_stop = true;
    g_handlers.clear();
    g_functions.clear();
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
