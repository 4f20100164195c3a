// hsa_signal_* and hsa_amd_signal_*: creation, every atomic operation in every
// memory-order variant, waits, wait_any, groups and async handlers.
#include "softhsa/signal.h"

#include <linux/futex.h>
#include <sched.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <unordered_set>
#include <vector>

#include "softhsa/api.h"

namespace softhsa {
namespace {

std::mutex& g_signals_mutex = *new std::mutex;
std::unordered_set<Signal*>& g_signals = *new std::unordered_set<Signal*>;
std::atomic<uint32_t> g_watch_seq{0};
std::atomic<uint32_t> g_watch_sleepers{0};

long Futex(std::atomic<uint32_t>* word, int op, uint32_t val,
           const timespec* timeout) {
  return syscall(SYS_futex, reinterpret_cast<uint32_t*>(word), op, val, timeout,
                 nullptr, 0);
}

timespec ToTimespec(uint64_t ns) {
  return timespec{static_cast<time_t>(ns / 1'000'000'000ull),
                  static_cast<long>(ns % 1'000'000'000ull)};
}

uint64_t TicksToNs(uint64_t ticks) {
  if (ticks == UINT64_MAX) return UINT64_MAX;
  unsigned __int128 ns = static_cast<unsigned __int128>(ticks) *
                         1'000'000'000ull / SystemFrequency();
  return ns > UINT64_MAX ? UINT64_MAX : static_cast<uint64_t>(ns);
}

uint64_t MonotonicNs() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return uint64_t(ts.tv_sec) * 1'000'000'000ull + uint64_t(ts.tv_nsec);
}

// futex_waitv (Linux >= 5.16) sleeps on several futex words at once: a
// wait_any of up to FUTEX_WAITV_MAX signals sleeps on their own words, so
// that it wakes when one of them changes, as ROCR's waits on the signals'
// events do, not on every change of every watched signal in the process.
// Returns false when the kernel has no futex_waitv (or refuses it: a
// seccomp filter, an error other than a wake-up, a changed word or the
// deadline), and every wait_any uses the global word from then on.
std::atomic<bool> g_no_waitv{false};
bool WaitAnySeq(const std::vector<futex_waitv>& words, uint64_t deadline_ns) {
  if (g_no_waitv.load(std::memory_order_relaxed)) return false;
  timespec ts = ToTimespec(deadline_ns);
  const long r = syscall(
      SYS_futex_waitv, words.data(), static_cast<unsigned>(words.size()), 0,
      deadline_ns == UINT64_MAX ? nullptr : &ts, CLOCK_MONOTONIC);
  if (r < 0 && errno != EAGAIN && errno != ETIMEDOUT && errno != EINTR) {
    g_no_waitv.store(true, std::memory_order_relaxed);
    return false;
  }
  return true;
}

}  // namespace

Signal* ToSignal(hsa_signal_t handle) {
  auto* s = reinterpret_cast<Signal*>(handle.handle);
  if (s == nullptr) return nullptr;
  std::lock_guard<std::mutex> lock(g_signals_mutex);
  return g_signals.count(s) ? s : nullptr;
}

Signal* Acquire(hsa_signal_t handle) {
  auto* s = reinterpret_cast<Signal*>(handle.handle);
  std::lock_guard<std::mutex> lock(g_signals_mutex);
  if (s == nullptr || !g_signals.count(s)) return nullptr;
  s->busy.fetch_add(1, std::memory_order_seq_cst);
  return s;
}

bool Satisfied(int64_t v, hsa_signal_condition_t cond, int64_t compare) {
  switch (cond) {
    case HSA_SIGNAL_CONDITION_EQ:
      return v == compare;
    case HSA_SIGNAL_CONDITION_NE:
      return v != compare;
    case HSA_SIGNAL_CONDITION_LT:
      return v < compare;
    case HSA_SIGNAL_CONDITION_GTE:
      return v >= compare;
  }
  return false;
}

void Notify(Signal* s) {
  // Read-modify-writes, not loads: a waiter registers, then reads the value,
  // and a plain load here could pass the value's (release or relaxed) store
  // before it, both sides reading the other's old state and the waiter
  // sleeping through this change. An RMW reads the latest count, and one
  // that reads ours orders our store before the waiter's read.
  if (s->waiters.fetch_add(0, std::memory_order_seq_cst) != 0) {
    s->seq.fetch_add(1, std::memory_order_seq_cst);
    Futex(&s->seq, FUTEX_WAKE_PRIVATE, INT_MAX, nullptr);
  }
  if (s->watchers.fetch_add(0, std::memory_order_seq_cst) != 0) {
    g_watch_seq.fetch_add(1, std::memory_order_seq_cst);
    if (g_watch_sleepers.load(std::memory_order_seq_cst) != 0) {
      Futex(&g_watch_seq, FUTEX_WAKE_PRIVATE, INT_MAX, nullptr);
    }
  }
}

// A system call only while someone sleeps (a sleeper registers before it
// re-reads the sequence, as in Notify): a copy's submission makes none when
// the copy engine is busy.
void BumpWatch() {
  g_watch_seq.fetch_add(1, std::memory_order_seq_cst);
  if (g_watch_sleepers.load(std::memory_order_seq_cst) != 0) {
    Futex(&g_watch_seq, FUTEX_WAKE_PRIVATE, INT_MAX, nullptr);
  }
}

uint32_t WatchSeq() { return g_watch_seq.load(std::memory_order_seq_cst); }

void WaitWatch(uint32_t seen, uint64_t timeout_ns) {
  g_watch_sleepers.fetch_add(1, std::memory_order_seq_cst);
  if (g_watch_seq.load(std::memory_order_seq_cst) == seen) {
    timespec ts = ToTimespec(timeout_ns);
    Futex(&g_watch_seq, FUTEX_WAIT_PRIVATE, seen,
          timeout_ns == UINT64_MAX ? nullptr : &ts);
  }
  g_watch_sleepers.fetch_sub(1, std::memory_order_seq_cst);
}

int64_t WaitOn(Signal* s, hsa_signal_condition_t cond, int64_t compare,
               uint64_t timeout_ticks) {
  int64_t v = s->value.load(std::memory_order_acquire);
  if (Satisfied(v, cond, compare)) return v;
  const uint64_t timeout_ns = TicksToNs(timeout_ticks);
  const uint64_t start = MonotonicNs();
  // A short spin first (about 50 us here, shorter than ROCR's: 200 us, or
  // the whole timeout for HSA_WAIT_STATE_ACTIVE): completions from a packet
  // processor usually follow within microseconds, and a futex sleep costs
  // more than that. Every 64 turns a waiter that may wait runs the copy
  // engine's next ready copy of up to 64 KiB, if the engine is not running
  // one (RunCopyForWaiter).
  for (int i = 0; i < 2000; ++i) {
    v = s->value.load(std::memory_order_acquire);
    if (Satisfied(v, cond, compare)) return v;
    if ((i & 63) == 0 && timeout_ns != 0 && RunCopyForWaiter()) continue;
    if ((i & 63) == 63 && MonotonicNs() - start >= timeout_ns) return v;
    __builtin_ia32_pause();
  }
  for (;;) {
    s->waiters.fetch_add(1, std::memory_order_seq_cst);
    uint32_t seq = s->seq.load(std::memory_order_seq_cst);
    v = s->value.load(std::memory_order_seq_cst);
    if (Satisfied(v, cond, compare)) {
      s->waiters.fetch_sub(1, std::memory_order_seq_cst);
      return v;
    }
    uint64_t elapsed = MonotonicNs() - start;
    if (elapsed >= timeout_ns) {
      s->waiters.fetch_sub(1, std::memory_order_seq_cst);
      return v;
    }
    uint64_t left =
        timeout_ns == UINT64_MAX ? UINT64_MAX : timeout_ns - elapsed;
    timespec ts = ToTimespec(left);
    Futex(&s->seq, FUTEX_WAIT_PRIVATE, seq, left == UINT64_MAX ? nullptr : &ts);
    s->waiters.fetch_sub(1, std::memory_order_seq_cst);
  }
}

void DestroyAllSignals() {
  std::lock_guard<std::mutex> lock(g_signals_mutex);
  for (Signal* s : g_signals) {
    s->magic.store(0);
    delete s;
  }
  g_signals.clear();
}

namespace api {

hsa_status_t hsa_amd_signal_create(hsa_signal_value_t initial_value,
                                   uint32_t num_consumers,
                                   const hsa_agent_t* consumers,
                                   uint64_t attributes, hsa_signal_t* signal) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (signal == nullptr || (num_consumers > 0 && consumers == nullptr)) {
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  for (uint32_t i = 0; i < num_consumers; ++i) {
    if (ToAgent(consumers[i]) == nullptr) return HSA_STATUS_ERROR_INVALID_AGENT;
  }
  auto* s = new Signal;
  s->value.store(initial_value, std::memory_order_relaxed);
  s->ipc = (attributes & HSA_AMD_SIGNAL_IPC) != 0;
  {
    std::lock_guard<std::mutex> lock(g_signals_mutex);
    g_signals.insert(s);
  }
  *signal = ToHandle(s);
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_signal_create(hsa_signal_value_t initial_value,
                               uint32_t num_consumers,
                               const hsa_agent_t* consumers,
                               hsa_signal_t* signal) {
  return api::hsa_amd_signal_create(initial_value, num_consumers, consumers, 0,
                                    signal);
}

hsa_status_t hsa_signal_destroy(hsa_signal_t signal) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (signal.handle == 0) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  auto* s = reinterpret_cast<Signal*>(signal.handle);
  {
    std::lock_guard<std::mutex> lock(g_signals_mutex);
    if (g_signals.erase(s) == 0) return HSA_STATUS_ERROR_INVALID_SIGNAL;
  }
  while (s->busy.load(std::memory_order_seq_cst) != 0) sched_yield();
  s->magic.store(0);
  delete s;
  return HSA_STATUS_SUCCESS;
}

// The operations take the handle's object without a look-up, as ROCR's do
// (an invalid handle there is undefined behaviour): they are on every
// dispatch's path. A modification keeps its signal alive until it has woken
// the waiters (hsa_signal_destroy waits for it): a waiter that sees the new
// value may destroy the signal at once, as a tool completing an
// application's signal on another thread makes happen; ROCR's signal memory
// stays mapped in its pool, so there the late wake-up is harmless too.
#define SIG(h) reinterpret_cast<Signal*>((h).handle)

namespace {
struct Busy {
  explicit Busy(Signal* signal) : s(signal) {
    s->busy.fetch_add(1, std::memory_order_seq_cst);
  }
  ~Busy() { s->busy.fetch_sub(1, std::memory_order_seq_cst); }
  Signal* s;
};
}  // namespace

hsa_signal_value_t hsa_signal_load_scacquire(hsa_signal_t h) {
  return SIG(h)->value.load(std::memory_order_acquire);
}
hsa_signal_value_t hsa_signal_load_relaxed(hsa_signal_t h) {
  return SIG(h)->value.load(std::memory_order_relaxed);
}
void hsa_signal_store_relaxed(hsa_signal_t h, hsa_signal_value_t v) {
  Busy busy(SIG(h));
  SIG(h)->value.store(v, std::memory_order_relaxed);
  Notify(SIG(h));
  if (SIG(h)->on_store != nullptr) SIG(h)->on_store(SIG(h)->on_store_arg);
}
void hsa_signal_store_screlease(hsa_signal_t h, hsa_signal_value_t v) {
  Busy busy(SIG(h));
  SIG(h)->value.store(v, std::memory_order_release);
  Notify(SIG(h));
  if (SIG(h)->on_store != nullptr) SIG(h)->on_store(SIG(h)->on_store_arg);
}
void hsa_signal_silent_store_relaxed(hsa_signal_t h, hsa_signal_value_t v) {
  SIG(h)->value.store(v, std::memory_order_relaxed);
}
void hsa_signal_silent_store_screlease(hsa_signal_t h, hsa_signal_value_t v) {
  SIG(h)->value.store(v, std::memory_order_release);
}

#define RMW_VARIANTS(op, expr)                                               \
  void hsa_signal_##op##_relaxed(hsa_signal_t h, hsa_signal_value_t v) {     \
    Busy busy(SIG(h));                                                       \
    SIG(h)->value.expr(v, std::memory_order_relaxed);                        \
    Notify(SIG(h));                                                          \
  }                                                                          \
  void hsa_signal_##op##_scacquire(hsa_signal_t h, hsa_signal_value_t v) {   \
    Busy busy(SIG(h));                                                       \
    SIG(h)->value.expr(v, std::memory_order_acquire);                        \
    Notify(SIG(h));                                                          \
  }                                                                          \
  void hsa_signal_##op##_screlease(hsa_signal_t h, hsa_signal_value_t v) {   \
    Busy busy(SIG(h));                                                       \
    SIG(h)->value.expr(v, std::memory_order_release);                        \
    Notify(SIG(h));                                                          \
  }                                                                          \
  void hsa_signal_##op##_scacq_screl(hsa_signal_t h, hsa_signal_value_t v) { \
    Busy busy(SIG(h));                                                       \
    SIG(h)->value.expr(v, std::memory_order_acq_rel);                        \
    Notify(SIG(h));                                                          \
  }
RMW_VARIANTS(add, fetch_add)
RMW_VARIANTS(subtract, fetch_sub)
RMW_VARIANTS(and, fetch_and)
RMW_VARIANTS(or, fetch_or)
RMW_VARIANTS(xor, fetch_xor)
#undef RMW_VARIANTS

#define EXCHANGE(suffix, order)                                            \
  hsa_signal_value_t hsa_signal_exchange_##suffix(hsa_signal_t h,          \
                                                  hsa_signal_value_t v) {  \
    Busy busy(SIG(h));                                                     \
    hsa_signal_value_t old = SIG(h)->value.exchange(v, order);             \
    Notify(SIG(h));                                                        \
    return old;                                                            \
  }                                                                        \
  hsa_signal_value_t hsa_signal_cas_##suffix(                              \
      hsa_signal_t h, hsa_signal_value_t expected, hsa_signal_value_t v) { \
    Busy busy(SIG(h));                                                     \
    SIG(h)->value.compare_exchange_strong(expected, v, order,              \
                                          std::memory_order_relaxed);      \
    Notify(SIG(h));                                                        \
    return expected;                                                       \
  }
EXCHANGE(relaxed, std::memory_order_relaxed)
EXCHANGE(scacquire, std::memory_order_acquire)
EXCHANGE(screlease, std::memory_order_release)
EXCHANGE(scacq_screl, std::memory_order_acq_rel)
#undef EXCHANGE

hsa_signal_value_t hsa_signal_wait_scacquire(hsa_signal_t h,
                                             hsa_signal_condition_t cond,
                                             hsa_signal_value_t compare,
                                             uint64_t timeout_hint,
                                             hsa_wait_state_t) {
  // WaitOn's loads of the value are acquire loads.
  return WaitOn(SIG(h), cond, compare, timeout_hint);
}

hsa_signal_value_t hsa_signal_wait_relaxed(hsa_signal_t h,
                                           hsa_signal_condition_t cond,
                                           hsa_signal_value_t compare,
                                           uint64_t timeout_hint,
                                           hsa_wait_state_t) {
  return WaitOn(SIG(h), cond, compare, timeout_hint);
}

uint32_t hsa_amd_signal_wait_any(uint32_t signal_count, hsa_signal_t* signals,
                                 hsa_signal_condition_t* conds,
                                 hsa_signal_value_t* values,
                                 uint64_t timeout_hint, hsa_wait_state_t,
                                 hsa_signal_value_t* satisfying_value) {
  if (signal_count == 0 || signals == nullptr || conds == nullptr ||
      values == nullptr) {
    return UINT32_MAX;
  }
  const uint64_t timeout_ns = TicksToNs(timeout_hint);
  const uint64_t start = MonotonicNs();
  const uint64_t deadline =
      timeout_ns >= UINT64_MAX - start ? UINT64_MAX : start + timeout_ns;
  // Each signal's own word when the kernel can sleep on them all (as a
  // waiter of each: a change wakes this wait only), else the global word
  // every watched signal's change bumps (as a watcher).
  bool own_words = signal_count <= FUTEX_WAITV_MAX &&
                   !g_no_waitv.load(std::memory_order_relaxed);
  std::vector<futex_waitv> words(own_words ? signal_count : 0);
  auto enlist = [&](bool own, bool join) {
    for (uint32_t i = 0; i < signal_count; ++i) {
      Signal* s = SIG(signals[i]);
      std::atomic<uint32_t>& count = own ? s->waiters : s->watchers;
      if (join) {
        count.fetch_add(1, std::memory_order_seq_cst);
      } else {
        count.fetch_sub(1, std::memory_order_seq_cst);
      }
    }
  };
  enlist(own_words, true);
  uint32_t found = UINT32_MAX;
  for (;;) {
    const uint32_t seen = WatchSeq();
    for (uint32_t i = 0; i < words.size(); ++i) {
      Signal* s = SIG(signals[i]);
      words[i] = futex_waitv{s->seq.load(std::memory_order_seq_cst),
                             reinterpret_cast<uintptr_t>(&s->seq),
                             FUTEX_32 | FUTEX_PRIVATE_FLAG, 0};
    }
    for (uint32_t i = 0; i < signal_count && found == UINT32_MAX; ++i) {
      int64_t v = SIG(signals[i])->value.load(std::memory_order_acquire);
      if (Satisfied(v, conds[i], values[i])) {
        found = i;
        if (satisfying_value) *satisfying_value = v;
      }
    }
    if (found != UINT32_MAX) break;
    const uint64_t now = MonotonicNs();
    if (now >= deadline) break;
    if (own_words && !WaitAnySeq(words, deadline)) {
      enlist(true, false);
      enlist(false, true);
      own_words = false;
      words.clear();
      continue;  // watchers now: look again before sleeping
    }
    if (!own_words) {
      WaitWatch(seen, deadline == UINT64_MAX ? UINT64_MAX : deadline - now);
    }
  }
  enlist(own_words, false);
  return found;
}

hsa_status_t hsa_amd_signal_value_pointer(
    hsa_signal_t h, volatile hsa_signal_value_t** value_ptr) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  Signal* s = ToSignal(h);
  if (s == nullptr) return HSA_STATUS_ERROR_INVALID_SIGNAL;
  if (value_ptr == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  *value_ptr = reinterpret_cast<volatile hsa_signal_value_t*>(&s->value);
  return HSA_STATUS_SUCCESS;
}

// Signal groups: the signals as created, for waits on any of them. The
// live groups are kept so that a stale or made-up handle is refused.
namespace {
struct SignalGroup {
  std::vector<hsa_signal_t> signals;
};
std::mutex g_groups_mutex;
std::unordered_set<SignalGroup*> g_groups;

SignalGroup* ToGroup(hsa_signal_group_t group) {
  SignalGroup* g = reinterpret_cast<SignalGroup*>(group.handle);
  std::lock_guard<std::mutex> lock(g_groups_mutex);
  return g_groups.count(g) != 0 ? g : nullptr;
}

hsa_status_t GroupWaitAny(hsa_signal_group_t group,
                          const hsa_signal_condition_t* conditions,
                          const hsa_signal_value_t* compare_values,
                          hsa_wait_state_t wait_state_hint,
                          hsa_signal_t* signal, hsa_signal_value_t* value) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  SignalGroup* g = ToGroup(group);
  if (g == nullptr) return HSA_STATUS_ERROR_INVALID_SIGNAL_GROUP;
  if (conditions == nullptr || compare_values == nullptr || signal == nullptr ||
      value == nullptr) {
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  const uint32_t n = static_cast<uint32_t>(g->signals.size());
  std::vector<hsa_signal_condition_t> conds(conditions, conditions + n);
  std::vector<hsa_signal_value_t> values(compare_values, compare_values + n);
  const uint32_t i = api::hsa_amd_signal_wait_any(
      n, g->signals.data(), conds.data(), values.data(), UINT64_MAX,
      wait_state_hint, value);
  if (i >= n) return HSA_STATUS_ERROR_INVALID_SIGNAL;
  *signal = g->signals[i];
  return HSA_STATUS_SUCCESS;
}
}  // namespace

hsa_status_t hsa_signal_group_create(uint32_t num_signals,
                                     const hsa_signal_t* signals,
                                     uint32_t num_consumers,
                                     const hsa_agent_t* consumers,
                                     hsa_signal_group_t* signal_group) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (num_signals == 0 || signals == nullptr || num_consumers == 0 ||
      consumers == nullptr || signal_group == nullptr) {
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  for (uint32_t i = 0; i < num_signals; ++i) {
    if (ToSignal(signals[i]) == nullptr) return HSA_STATUS_ERROR_INVALID_SIGNAL;
  }
  auto* g = new SignalGroup{{signals, signals + num_signals}};
  {
    std::lock_guard<std::mutex> lock(g_groups_mutex);
    g_groups.insert(g);
  }
  signal_group->handle = reinterpret_cast<uint64_t>(g);
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_signal_group_destroy(hsa_signal_group_t signal_group) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  SignalGroup* g = reinterpret_cast<SignalGroup*>(signal_group.handle);
  {
    std::lock_guard<std::mutex> lock(g_groups_mutex);
    if (g_groups.erase(g) == 0) return HSA_STATUS_ERROR_INVALID_SIGNAL_GROUP;
  }
  delete g;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_signal_group_wait_any_scacquire(
    hsa_signal_group_t signal_group, const hsa_signal_condition_t* conditions,
    const hsa_signal_value_t* compare_values, hsa_wait_state_t wait_state_hint,
    hsa_signal_t* signal, hsa_signal_value_t* value) {
  // wait_any's loads of the values are acquire loads.
  return GroupWaitAny(signal_group, conditions, compare_values, wait_state_hint,
                      signal, value);
}

hsa_status_t hsa_signal_group_wait_any_relaxed(
    hsa_signal_group_t signal_group, const hsa_signal_condition_t* conditions,
    const hsa_signal_value_t* compare_values, hsa_wait_state_t wait_state_hint,
    hsa_signal_t* signal, hsa_signal_value_t* value) {
  return GroupWaitAny(signal_group, conditions, compare_values, wait_state_hint,
                      signal, value);
}

#undef SIG

}  // namespace api
}  // namespace softhsa
