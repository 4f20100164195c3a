#include "runtime/gpu/observers.h"

#include <mutex>

namespace roctracer::gpu {

std::atomic<Observer*> g_observers[kMaxObservers];

namespace {
std::mutex& RegistrationMutex() {
  static std::mutex* mutex = new std::mutex;
  return *mutex;
}
}  // namespace

bool AddObserver(Observer* observer) {
  if (observer == nullptr) return false;
  std::lock_guard<std::mutex> lock(RegistrationMutex());
  for (auto& slot : g_observers) {
    if (slot.load(std::memory_order_relaxed) == observer) return true;
  }
  for (auto& slot : g_observers) {
    if (slot.load(std::memory_order_relaxed) == nullptr) {
      slot.store(observer, std::memory_order_release);
      return true;
    }
  }
  return false;
}

void RemoveObserver(Observer* observer) {
  std::lock_guard<std::mutex> lock(RegistrationMutex());
  for (auto& slot : g_observers) {
    if (slot.load(std::memory_order_relaxed) == observer) {
      slot.store(nullptr, std::memory_order_release);
    }
  }
}

bool AskObservers(const EnqueueInfo& info, Interest* interest) noexcept {
  bool any = false;
  for (int i = 0; i < kMaxObservers; ++i) {
    Observer* o = g_observers[i].load(std::memory_order_acquire);
    uint64_t cookie = o != nullptr ? o->OnEnqueue(info) : 0;
    interest->observer[i] = cookie != 0 ? o : nullptr;
    interest->cookie[i] = cookie;
    any |= cookie != 0;
  }
  return any;
}

Counters& Count() noexcept {
  static Counters* counters = new Counters;
  return *counters;
}

}  // namespace roctracer::gpu
