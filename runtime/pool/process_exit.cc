#include "runtime/pool/process_exit.h"

#include <atomic>
#include <cstdlib>
#include <mutex>
#include <utility>
#include <vector>

#include "runtime/pool/pool.h"

namespace roctracer::process_exit {
namespace {

using Finalizer = std::pair<void (*)(void*), void*>;

struct State {
  std::mutex round_mutex;    // one round of the steps at a time
  bool gpu_drained = false;  // under round_mutex
  std::atomic<bool> armed{false};
  std::atomic<void (*)()> gpu_drain{nullptr};
  std::mutex finalizers_mutex;
  std::vector<Finalizer> finalizers;  // under finalizers_mutex
};

// Never destroyed: the handler runs after the static destructors of objects
// constructed after it was registered.
State& TheState() {
  static State* state = new State;
  return *state;
}

// A finalizer that calls exit() re-enters on its own thread.
thread_local bool t_in_round = false;

void OnExit() {
  // From here on, a pool created by a later exit handler registers a new
  // round.
  TheState().armed.store(false, std::memory_order_release);
  Run();
}

}  // namespace

void Arm() noexcept {
  State& s = TheState();
  if (s.armed.load(std::memory_order_acquire)) return;
  if (!s.armed.exchange(true, std::memory_order_acq_rel)) std::atexit(&OnExit);
}

void SetGpuDrain(void (*drain)()) noexcept {
  TheState().gpu_drain.store(drain, std::memory_order_release);
}

bool AddToolFinalizer(void (*finalize)(void* arg), void* arg) noexcept {
  if (finalize == nullptr) return false;
  State& s = TheState();
  try {
    std::lock_guard<std::mutex> lock(s.finalizers_mutex);
    s.finalizers.emplace_back(finalize, arg);
  } catch (...) {
    return false;
  }
  Arm();
  return true;
}

void Run() noexcept {
  if (t_in_round) return;
  State& s = TheState();
  std::lock_guard<std::mutex> round(s.round_mutex);
  t_in_round = true;
  // 1. Stop GPU work: what it reports goes into pools still open and to
  // observers still registered.
  if (!s.gpu_drained) {
    if (auto drain = s.gpu_drain.load(std::memory_order_acquire)) {
      s.gpu_drained = true;
      drain();
    }
  }
  // 2. Harvest, flush and close every pool.
  pool::Pool::CloseAll();
  // 3. Finalize tools, last added first.
  std::vector<Finalizer> finalizers;
  {
    std::lock_guard<std::mutex> lock(s.finalizers_mutex);
    finalizers.swap(s.finalizers);
  }
  for (auto it = finalizers.rbegin(); it != finalizers.rend(); ++it) {
    it->first(it->second);
  }
  t_in_round = false;
}

}  // namespace roctracer::process_exit
