// Every Pool object ever made, in one process-wide list: new pools are
// added to it (or reuse a retired object), CloseAll walks it at exit, Retire
// and Recycle put objects back for reuse, and a forked child resets each.
#include <pthread.h>

#include <atomic>
#include <mutex>
#include <new>
#include <thread>
#include <vector>

#include "runtime/pool/pool.h"

namespace roctracer::pool {

namespace {

// Process-wide list of every Pool object ever made (see Pool::Retire), and
// the retired ones waiting to be reused, oldest first. Trivially
// destructible or leaked on purpose: they must outlive all static
// destructors.
std::atomic<Pool*> g_pools{nullptr};
std::mutex& RetiredMutex() {
  static std::mutex* mu = new std::mutex;
  return *mu;
}
std::vector<Pool*>& Retired() {  // under RetiredMutex()
  static auto* retired = new std::vector<Pool*>;
  return *retired;
}

}  // namespace

// A retired Pool object is reused once kRetiredKept others were retired
// after it and nobody waits inside its Flush/Close; otherwise a new one is
// made and added to the list of all of them.
Pool* Pool::NewShell(const roctracer_properties_t& properties,
                     OverflowPolicy policy, unsigned thread_buffers) noexcept {
  Pool* reuse = nullptr;
  {
    std::lock_guard<std::mutex> lock(RetiredMutex());
    auto& retired = Retired();
    if (retired.size() > kRetiredKept) {
      Pool* oldest = retired.front();
      std::unique_lock<std::mutex> control(oldest->control_mu_);
      if (oldest->waiters_ == 0 &&
          !(oldest->delivery_.joinable() &&
            oldest->delivery_.get_id() == std::this_thread::get_id())) {
        reuse = oldest;
        retired.erase(retired.begin());
      }
    }
  }
  if (reuse != nullptr) {
    if (reuse->delivery_.joinable()) reuse->delivery_.join();
    Pool* const next = reuse->next_pool_;
    reuse->~Pool();
    new (reuse) Pool(properties, policy, thread_buffers);
    reuse->next_pool_ = next;
    return reuse;
  }
  Pool* pool = new (std::nothrow) Pool(properties, policy, thread_buffers);
  if (pool != nullptr) pool->Register();
  return pool;
}

void Pool::Register() noexcept {
  static const bool registered = [] {
    pthread_atfork(nullptr, nullptr, &Pool::ForgetAllInChild);
    return true;
  }();
  (void)registered;
  Pool* head = g_pools.load(std::memory_order_relaxed);
  do {
    next_pool_ = head;
  } while (!g_pools.compare_exchange_weak(head, this, std::memory_order_release,
                                          std::memory_order_relaxed));
}

void Pool::CloseAll() noexcept {
  for (Pool* p = g_pools.load(std::memory_order_acquire); p;
       p = p->next_pool_) {
    p->Close();
  }
}

// A forked child has no delivery threads: see ResetInChild.
void Pool::ForgetAllInChild() noexcept {
  new (&RetiredMutex()) std::mutex;
  for (Pool* p = g_pools.load(std::memory_order_acquire); p;
       p = p->next_pool_) {
    p->ResetInChild();
  }
}

void Pool::Retire(Pool* pool) noexcept {
  if (pool == nullptr) return;
  pool->Close();
  bool recycle = false;
  {
    std::lock_guard<std::mutex> lock(pool->slots_mu_);
    if (pool->retired_) return;
    pool->retired_ = true;
    recycle = pool->finished() &&
              pool->slots_.load(std::memory_order_relaxed) == nullptr;
    pool->recycled_ = recycle;
  }
  if (recycle) Recycle(pool);
}

void Pool::Recycle(Pool* pool) noexcept {
  std::lock_guard<std::mutex> lock(RetiredMutex());
  try {
    Retired().push_back(pool);
  } catch (...) {
    // Not reusable then, but still a valid closed pool: nothing breaks.
  }
}

}  // namespace roctracer::pool
