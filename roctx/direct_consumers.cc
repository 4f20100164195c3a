#include "roctx/direct_consumers.h"

#include <roctracer_roctx.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace roctx_direct {

std::atomic<uint8_t> g_registered{0};

namespace {

using TracerFn = int (*)(activity_domain_t, uint32_t, void*);

// One per-operation registration. Replaced, never changed in place, and never
// freed: a deliverer on another thread may still be calling through the old
// one (registrations are rare and few). Every one stays listed in
// g_all_entries.
struct Entry {
  activity_rtapi_callback_t fn;
  void* arg;
};
std::mutex g_entries_mu;
std::vector<std::unique_ptr<Entry>>* const g_all_entries =
    new std::vector<std::unique_ptr<Entry>>;

const Entry* NewEntry(activity_rtapi_callback_t fn, void* arg) {
  std::lock_guard<std::mutex> lock(g_entries_mu);
  g_all_entries->emplace_back(new Entry{fn, arg});
  return g_all_entries->back().get();
}

std::atomic<TracerFn> g_tracer_fn{nullptr};
std::atomic<const Entry*> g_entries[ROCTX_API_ID_NUMBER] = {};

// Set inside a direct consumer's callback on this thread.
thread_local bool t_delivering = false;

// The open push/pop ranges of one thread, innermost last, kept from the
// first RegisterApiCallback on (before that nobody could ask for them).
struct RangeStack {
  std::mutex mu;
  uint32_t tid = 0;
  std::vector<std::pair<int, std::string>> open;  // (level, message)
};

std::atomic<bool> g_track_ranges{false};
std::mutex g_stacks_mu;
// Leaked: threads may exit (and unregister) during static destruction.
std::vector<RangeStack*>* const g_stacks = new std::vector<RangeStack*>;

struct StackOwner {
  RangeStack* stack = nullptr;
  ~StackOwner() {
    if (stack == nullptr) return;
    {
      std::lock_guard<std::mutex> lock(g_stacks_mu);
      for (auto it = g_stacks->begin(); it != g_stacks->end(); ++it) {
        if (*it == stack) {
          g_stacks->erase(it);
          break;
        }
      }
    }
    delete stack;
  }
};
thread_local StackOwner t_stack;

RangeStack* ThisThreadStack() {
  if (t_stack.stack == nullptr) {
    auto* s = new RangeStack;
    s->tid = static_cast<uint32_t>(syscall(SYS_gettid));
    std::lock_guard<std::mutex> lock(g_stacks_mu);
    g_stacks->push_back(s);
    t_stack.stack = s;
  }
  return t_stack.stack;
}

void TrackRange(uint32_t op, const char* message, int level) {
  if (!g_track_ranges.load(std::memory_order_acquire)) return;
  if (op == ROCTX_API_ID_roctxRangePushA) {
    RangeStack* s = ThisThreadStack();
    std::lock_guard<std::mutex> lock(s->mu);
    s->open.emplace_back(level, message != nullptr ? message : "");
  } else if (op == ROCTX_API_ID_roctxRangePop && t_stack.stack != nullptr) {
    // A range opened before tracking began has no entry: pop only our own.
    RangeStack* s = t_stack.stack;
    std::lock_guard<std::mutex> lock(s->mu);
    if (!s->open.empty() && s->open.back().first == level) s->open.pop_back();
  }
}

}  // namespace

void Deliver(uint32_t op, const char* message, uint64_t id, int level) {
  if (op >= ROCTX_API_ID_NUMBER) return;
  TrackRange(op, message, level);
  if (t_delivering) return;
  const TracerFn tracer_fn = g_tracer_fn.load(std::memory_order_acquire);
  const Entry* entry = g_entries[op].load(std::memory_order_acquire);
  if (tracer_fn == nullptr && entry == nullptr) return;
  roctx_api_data_t data{};
  switch (op) {
    case ROCTX_API_ID_roctxMarkA:
      data.args.roctxMarkA.message = message;
      break;
    case ROCTX_API_ID_roctxRangePushA:
      data.args.roctxRangePushA.message = message;
      break;
    case ROCTX_API_ID_roctxRangeStartA:
      data.args.roctxRangeStartA.message = message;
      data.args.roctxRangeStartA.id = id;
      break;
    case ROCTX_API_ID_roctxRangeStop:
      data.args.roctxRangeStop.id = id;
      break;
    default:  // a pop carries nothing
      break;
  }
  t_delivering = true;
  if (tracer_fn != nullptr) tracer_fn(ACTIVITY_DOMAIN_ROCTX, op, &data);
  if (entry != nullptr && entry->fn != nullptr) {
    entry->fn(ACTIVITY_DOMAIN_ROCTX, op, &data, entry->arg);
  }
  t_delivering = false;
}

}  // namespace roctx_direct

extern "C" {

ROCTX_API void roctxRegisterTracerCallback(int (*function)(
    activity_domain_t domain, uint32_t operation_id, void* data)) {
  roctx_direct::g_tracer_fn.store(function, std::memory_order_release);
  if (function != nullptr) {
    roctx_direct::g_registered.store(1, std::memory_order_release);
  }
}

ROCTX_API bool RegisterApiCallback(uint32_t op, void* callback, void* arg) {
  if (op >= ROCTX_API_ID_NUMBER) return false;
  const roctx_direct::Entry* entry = roctx_direct::NewEntry(
      reinterpret_cast<activity_rtapi_callback_t>(callback), arg);
  roctx_direct::g_entries[op].store(entry, std::memory_order_release);
  if (callback != nullptr) {
    roctx_direct::g_track_ranges.store(true, std::memory_order_release);
    roctx_direct::g_registered.store(1, std::memory_order_release);
  }
  return true;
}

ROCTX_API bool RemoveApiCallback(uint32_t op) {
  if (op >= ROCTX_API_ID_NUMBER) return false;
  roctx_direct::g_entries[op].store(nullptr, std::memory_order_release);
  return true;
}

ROCTX_API void RangeStackIterate(roctx_range_iterate_cb_t callback, void* arg) {
  if (callback == nullptr) return;
  // Copied first: the callback may annotate, on this thread or another.
  std::vector<std::pair<uint32_t, std::string>> ranges;
  {
    std::lock_guard<std::mutex> lock(roctx_direct::g_stacks_mu);
    for (roctx_direct::RangeStack* s : *roctx_direct::g_stacks) {
      std::lock_guard<std::mutex> stack_lock(s->mu);
      for (auto it = s->open.rbegin(); it != s->open.rend(); ++it) {
        ranges.emplace_back(s->tid, it->second);
      }
    }
  }
  for (const auto& r : ranges) {
    roctx_range_data_t data{};
    data.message = r.second.c_str();
    data.tid = r.first;
    callback(&data, arg);
  }
}

}  // extern "C"
