// The registered observers (gpu_events.h) and the counters behind Stats(),
// as the interception and completion code use them.
#ifndef RUNTIME_GPU_OBSERVERS_H_
#define RUNTIME_GPU_OBSERVERS_H_

#include <atomic>
#include <cstdint>

#include "runtime/private/gpu_events.h"

namespace roctracer::gpu {

// Slot i holds an observer or NULL; read without locks.
extern std::atomic<Observer*> g_observers[kMaxObservers];

// Who asked to hear of one operation's completion, and with which cookie.
struct Interest {
  Observer* observer[kMaxObservers];
  uint64_t cookie[kMaxObservers];
};

// Asks every observer (OnEnqueue); true when at least one wants the
// completion.
bool AskObservers(const EnqueueInfo& info, Interest* interest) noexcept;

// Calls `fn(observer, cookie)` for each observer in `interest` still
// registered.
template <class Fn>
void ForInterested(const Interest& interest, Fn fn) {
  for (int i = 0; i < kMaxObservers; ++i) {
    Observer* o = interest.observer[i];
    if (o != nullptr && g_observers[i].load(std::memory_order_acquire) == o) {
      fn(o, interest.cookie[i]);
    }
  }
}

// Calls fn(observer) for every registered observer.
template <class Fn>
void ForEachObserver(Fn fn) {
  for (auto& slot : g_observers) {
    if (Observer* o = slot.load(std::memory_order_acquire)) fn(o);
  }
}

// Calls OnAbandon for each observer in `interest` still registered: the
// operation gets no completion.
inline void AbandonInterest(const Interest& interest) {
  ForInterested(interest, [](Observer* o, uint64_t c) { o->OnAbandon(c); });
}

struct Counters {
  std::atomic<uint64_t> dispatches{0};
  std::atomic<uint64_t> barriers{0};
  std::atomic<uint64_t> copies{0};
  std::atomic<uint64_t> untraced{0};
  std::atomic<uint64_t> names_unresolved{0};
  std::atomic<uint64_t> incomplete{0};
  std::atomic<uint64_t> failed_copies{0};
};
Counters& Count() noexcept;

}  // namespace roctracer::gpu

#endif  // RUNTIME_GPU_OBSERVERS_H_
