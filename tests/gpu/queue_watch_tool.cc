// An HSA tool loaded before the tracer (a lower HSA_AMD_TOOL_PRIORITY): the
// tracer, loaded after it, calls the runtime's queue functions through the
// ones installed here. It finds a queue used after the runtime destroyed it
// (the process ends at once with kUsedAfterDestroy, the call not passed on)
// or after the runtime shut down (kUsedAfterShutDown: this tool's OnUnload
// runs after the tracer's), counts each queue's destructions, and can hold
// one look at a queue's indexes until that queue is destroyed, the runtime
// shuts down or a bound passes: the window in which another thread's
// destruction or shutdown would race with the look.
#include <hsa/hsa_api_trace.h>
#include <pthread.h>
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <mutex>

namespace {

constexpr int kUsedAfterDestroy = 70;
constexpr int kUsedAfterShutDown = 71;
constexpr int kQueues = 64;

decltype(CoreApiTable::hsa_queue_destroy_fn) g_destroy = nullptr;
decltype(CoreApiTable::hsa_queue_load_read_index_scacquire_fn) g_read = nullptr;
decltype(CoreApiTable::hsa_queue_load_write_index_scacquire_fn) g_write =
    nullptr;
decltype(AmdExtTable::hsa_amd_queue_intercept_create_fn) g_intercept_create =
    nullptr;

std::mutex g_mutex;
std::condition_variable g_changed;
// Queues destroyed (and not created again at the same address), with the
// number of their destructions.
struct Destroyed {
  const hsa_queue_t* queue;
  int count;
  bool gone;
};
Destroyed g_destroyed[kQueues] = {};
// The look to hold: `held_queue` on `held_thread` (on any other thread when
// `held_elsewhere`), at most `held_ms`.
const hsa_queue_t* g_held_queue = nullptr;
pthread_t g_held_thread;
bool g_held_elsewhere = false;
bool g_unloaded = false;  // OnUnload ran
int g_held_ms = 0;
bool g_held = false;  // that look began

Destroyed* Find(const hsa_queue_t* queue) {
  for (Destroyed& d : g_destroyed) {
    if (d.queue == queue) return &d;
  }
  return nullptr;
}

// Ends the process when `queue` is a destroyed one or the runtime shut
// down; holds the armed look.
void Look(const hsa_queue_t* queue) {
  std::unique_lock<std::mutex> lock(g_mutex);
  if (g_held_queue == queue && !g_held &&
      (pthread_equal(g_held_thread, pthread_self()) != 0) != g_held_elsewhere) {
    g_held = true;
    g_changed.notify_all();
    g_changed.wait_for(lock, std::chrono::milliseconds(g_held_ms), [queue] {
      const Destroyed* d = Find(queue);
      return g_unloaded || (d != nullptr && d->gone);
    });
  }
  if (g_unloaded) {
    std::fprintf(stderr, "queue_watch: queue %p used after hsa_shut_down\n",
                 static_cast<const void*>(queue));
    _exit(kUsedAfterShutDown);
  }
  const Destroyed* d = Find(queue);
  if (d != nullptr && d->gone) {
    std::fprintf(stderr, "queue_watch: queue %p used after its destruction\n",
                 static_cast<const void*>(queue));
    _exit(kUsedAfterDestroy);
  }
}

uint64_t LoadRead(const hsa_queue_t* queue) {
  Look(queue);
  return g_read(queue);
}

uint64_t LoadWrite(const hsa_queue_t* queue) {
  Look(queue);
  return g_write(queue);
}

hsa_status_t Destroy(hsa_queue_t* queue) {
  Look(queue);
  const hsa_status_t status = g_destroy(queue);
  if (status == HSA_STATUS_SUCCESS) {
    std::lock_guard<std::mutex> lock(g_mutex);
    Destroyed* d = Find(queue);
    if (d == nullptr) d = Find(nullptr);
    if (d != nullptr) {
      d->queue = queue;
      d->gone = true;
      ++d->count;
    }
    g_changed.notify_all();
  }
  return status;
}

hsa_status_t InterceptCreate(hsa_agent_t agent, uint32_t size,
                             hsa_queue_type32_t type,
                             void (*callback)(hsa_status_t, hsa_queue_t*,
                                              void*),
                             void* data, uint32_t private_segment_size,
                             uint32_t group_segment_size, hsa_queue_t** queue) {
  const hsa_status_t status =
      g_intercept_create(agent, size, type, callback, data,
                         private_segment_size, group_segment_size, queue);
  if (status == HSA_STATUS_SUCCESS) {
    // A new queue at a destroyed one's address is not that queue.
    std::lock_guard<std::mutex> lock(g_mutex);
    Destroyed* d = Find(*queue);
    if (d != nullptr) d->gone = false;
  }
  return status;
}

}  // namespace

extern "C" {

__attribute__((
    visibility("default"))) extern const uint32_t HSA_AMD_TOOL_PRIORITY = 0;

// The next look at `queue`'s indexes (or its destruction) on the calling
// thread, or with `elsewhere` on any other thread, waits until `queue` is
// destroyed, the runtime shut down or `ms` passed.
__attribute__((visibility("default"))) void queue_watch_hold_look(
    const hsa_queue_t* queue, int ms, bool elsewhere) {
  std::lock_guard<std::mutex> lock(g_mutex);
  g_held_queue = queue;
  g_held_thread = pthread_self();
  g_held_elsewhere = elsewhere;
  g_held_ms = ms;
  g_held = false;
}

// Whether the held look has begun.
__attribute__((visibility("default"))) bool queue_watch_held() {
  std::lock_guard<std::mutex> lock(g_mutex);
  return g_held;
}

// How many times the runtime destroyed `queue`.
__attribute__((visibility("default"))) int queue_watch_destroys(
    const hsa_queue_t* queue) {
  std::lock_guard<std::mutex> lock(g_mutex);
  const Destroyed* d = Find(queue);
  return d != nullptr ? d->count : 0;
}

__attribute__((visibility("default"))) bool OnLoad(
    HsaApiTable* table, uint64_t /*runtime_version*/,
    uint64_t /*failed_tool_count*/, const char* const* /*failed_tool_names*/) {
  CoreApiTable& core = *table->core_;
  AmdExtTable& amd = *table->amd_ext_;
  g_destroy = core.hsa_queue_destroy_fn;
  g_read = core.hsa_queue_load_read_index_scacquire_fn;
  g_write = core.hsa_queue_load_write_index_scacquire_fn;
  g_intercept_create = amd.hsa_amd_queue_intercept_create_fn;
  core.hsa_queue_destroy_fn = &Destroy;
  core.hsa_queue_load_read_index_scacquire_fn = &LoadRead;
  core.hsa_queue_load_write_index_scacquire_fn = &LoadWrite;
  amd.hsa_amd_queue_intercept_create_fn = &InterceptCreate;
  return true;
}

__attribute__((visibility("default"))) void OnUnload() {
  std::lock_guard<std::mutex> lock(g_mutex);
  g_unloaded = true;
  g_changed.notify_all();
}

}  // extern "C"
