#include "runtime/gpu/scratch_events.h"

#include "runtime/gpu/observers.h"

#if __has_include(<hsa/hsa_amd_tool.h>)
#include <hsa/hsa_amd_tool.h>

#include <cstddef>
#include <map>
#include <mutex>

#include "runtime/clock/clock.h"
#include "runtime/gpu/completion.h"
#include "runtime/platform/thread_id.h"

namespace roctracer::gpu {
namespace {

ToolsApiTable* g_tools = nullptr;
// The runtime's (or an earlier tool's) hooks, called after ours.
ToolsApiTable g_previous;

// A START waiting for its END. The runtime raises both on one thread around
// one allocation, free or reclaim; an allocation may reclaim other queues'
// scratch in between, so each operation has its own slot.
struct Open {
  bool open;
  const hsa_queue_t* queue;
  uint64_t begin_ns;
};
thread_local Open t_open[3];

// Queues seen while they were registered: a free raised inside
// hsa_queue_destroy comes after the tracer let the queue go.
std::mutex& KnownMutex() {
  static std::mutex* m = new std::mutex;
  return *m;
}
std::map<uint64_t, QueueInfo>& Known() {
  static auto* m = new std::map<uint64_t, QueueInfo>;
  return *m;
}

QueueInfo Resolve(const hsa_queue_t* queue) {
  QueueInfo info{};
  info.device_id = -1;
  if (queue == nullptr) return info;
  info.queue_id = queue->id;
  info.queue = queue;
  std::lock_guard<std::mutex> lock(KnownMutex());
  if (FindQueueInfo(queue, &info)) {
    Known()[info.queue_id] = info;
  } else {
    auto it = Known().find(queue->id);
    if (it != Known().end()) info = it->second;
  }
  return info;
}

// Observers that follow the pair (OnScratchStart) hear the START at once,
// with what the event carries; END is paired below either way.
void Start(ScratchOp op, const hsa_queue_t* queue, uint32_t flags,
           uint64_t dispatch_id) {
  const uint64_t now = clock::TimestampNs();
  t_open[static_cast<int>(op)] = Open{true, queue, now};
  ScratchRecord r{};
  r.op = op;
  r.queue = Resolve(queue);
  r.flags = flags;
  r.dispatch_id = dispatch_id;
  r.thread_id = platform::ThreadId();
  r.begin_ns = now;
  ForEachObserver([&r](Observer* obs) { obs->OnScratchStart(r); });
}

void End(ScratchOp op, const hsa_queue_t* queue, uint32_t flags,
         uint64_t dispatch_id, uint64_t size, uint64_t num_slots) {
  ScratchRecord r{};
  r.end_ns = clock::TimestampNs();
  Open& o = t_open[static_cast<int>(op)];
  r.begin_ns = o.open && o.queue == queue ? o.begin_ns : r.end_ns;
  o.open = false;
  r.op = op;
  r.queue = Resolve(queue);
  r.flags = flags;
  r.dispatch_id = dispatch_id;
  r.size = size;
  r.num_slots = num_slots;
  r.thread_id = platform::ThreadId();
  ForEachObserver([&r](Observer* obs) { obs->OnScratch(r); });
}

// The event's own struct, for the pointer the union holds for its kind.
template <ScratchOp op>
const auto* StartOf(hsa_amd_tool_event_t e) {
  if constexpr (op == ScratchOp::kAlloc) return e.scratch_alloc_start;
  if constexpr (op == ScratchOp::kFree) return e.scratch_free_start;
  if constexpr (op == ScratchOp::kAsyncReclaim) {
    return e.scratch_async_reclaim_start;
  }
}
template <ScratchOp op>
const auto* EndOf(hsa_amd_tool_event_t e) {
  if constexpr (op == ScratchOp::kAlloc) return e.scratch_alloc_end;
  if constexpr (op == ScratchOp::kFree) return e.scratch_free_end;
  if constexpr (op == ScratchOp::kAsyncReclaim) {
    return e.scratch_async_reclaim_end;
  }
}

// Ours, then what the slot held before (`previous`).
template <ScratchOp op, hsa_amd_tool_event ToolsApiTable::*previous>
hsa_status_t OnStart(hsa_amd_tool_event_t e) {
  if (const auto* x = StartOf<op>(e)) {
    if constexpr (op == ScratchOp::kAlloc) {
      Start(op, x->queue, x->flags, x->dispatch_id);
    } else {
      Start(op, x->queue, x->flags, 0);
    }
  }
  hsa_amd_tool_event next = g_previous.*previous;
  return next != nullptr ? next(e) : HSA_STATUS_SUCCESS;
}
template <ScratchOp op, hsa_amd_tool_event ToolsApiTable::*previous>
hsa_status_t OnEnd(hsa_amd_tool_event_t e) {
  if (const auto* x = EndOf<op>(e)) {
    if constexpr (op == ScratchOp::kAlloc) {
      End(op, x->queue, x->flags, x->dispatch_id, x->size, x->num_slots);
    } else {
      End(op, x->queue, x->flags, 0, 0, 0);
    }
  }
  hsa_amd_tool_event next = g_previous.*previous;
  return next != nullptr ? next(e) : HSA_STATUS_SUCCESS;
}

// The hooks, START and END of each operation.
struct Hook {
  hsa_amd_tool_event ToolsApiTable::*slot;
  hsa_amd_tool_event ours;
};
template <ScratchOp op, hsa_amd_tool_event ToolsApiTable::*start,
          hsa_amd_tool_event ToolsApiTable::*end>
constexpr Hook kPair[2] = {{start, &OnStart<op, start>},
                           {end, &OnEnd<op, end>}};
constexpr const Hook* kPairs[] = {
    kPair<ScratchOp::kAlloc,
          &ToolsApiTable::hsa_amd_tool_scratch_event_alloc_start_fn,
          &ToolsApiTable::hsa_amd_tool_scratch_event_alloc_end_fn>,
    kPair<ScratchOp::kFree,
          &ToolsApiTable::hsa_amd_tool_scratch_event_free_start_fn,
          &ToolsApiTable::hsa_amd_tool_scratch_event_free_end_fn>,
    kPair<ScratchOp::kAsyncReclaim,
          &ToolsApiTable::hsa_amd_tool_scratch_event_async_reclaim_start_fn,
          &ToolsApiTable::hsa_amd_tool_scratch_event_async_reclaim_end_fn>,
};

bool HasSlot(const ToolsApiTable* tools,
             hsa_amd_tool_event ToolsApiTable::*slot) {
  const size_t end =
      reinterpret_cast<size_t>(&(static_cast<ToolsApiTable*>(nullptr)->*slot)) +
      sizeof(hsa_amd_tool_event);
  return tools->version.minor_id >= end;
}

}  // namespace

bool InstallScratchHooks(HsaApiTable* table) noexcept {
  if (table == nullptr ||
      table->version.minor_id < offsetof(HsaApiTable, tools_) + sizeof(void*) ||
      table->tools_ == nullptr) {
    return false;
  }
  g_tools = table->tools_;
  g_previous = ToolsApiTable{};
  for (const Hook* pair : kPairs) {
    for (int i = 0; i < 2; ++i) {
      const Hook& h = pair[i];
      if (!HasSlot(g_tools, h.slot)) continue;
      g_previous.*h.slot = g_tools->*h.slot;
      g_tools->*h.slot = h.ours;
    }
  }
  return true;
}

void RestoreScratchHooks() noexcept {
  if (g_tools == nullptr) return;
  for (const Hook* pair : kPairs) {
    for (int i = 0; i < 2; ++i) {
      const Hook& h = pair[i];
      if (HasSlot(g_tools, h.slot) && g_tools->*h.slot == h.ours) {
        g_tools->*h.slot = g_previous.*h.slot;
      }
    }
  }
  g_tools = nullptr;
  std::lock_guard<std::mutex> lock(KnownMutex());
  Known().clear();
}

}  // namespace roctracer::gpu

#else  // headers without scratch events

namespace roctracer::gpu {
bool InstallScratchHooks(HsaApiTable*) noexcept { return false; }
void RestoreScratchHooks() noexcept {}
}  // namespace roctracer::gpu

#endif
