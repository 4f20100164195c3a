// hsa_queue_* and the AMD queue extensions. Every queue created by
// hsa_queue_create has a packet processor thread that takes packets in order
// once the doorbell reaches their index and their header is no longer
// INVALID, runs each to completion before the next (which satisfies every
// barrier bit and fence: the packets of one queue never overlap), marks the
// slot INVALID again, advances the read index and decrements the packet's
// completion signal.
#include "softhsa/queue.h"

#include <linux/futex.h>
#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unordered_set>

#include "softhsa/api.h"
#include "softhsa/loader.h"
#include "softhsa/scratch.h"
#include "softhsa/twins.h"
#include "softhsa/workers.h"

namespace softhsa {
namespace {

constexpr uint32_t kMinSize = 64;
constexpr uint32_t kMaxSize = 1u << 17;

std::mutex& g_queues_mutex = *new std::mutex;
std::unordered_set<Queue*>& g_queues = *new std::unordered_set<Queue*>;
std::atomic<uint64_t> g_next_id{0};
std::atomic<uint64_t> g_dispatch_count{0};
hsa_amd_runtime_queue_notifier g_runtime_queue_notifier = nullptr;

uint16_t LoadHeader(const void* packet) {
  return __atomic_load_n(static_cast<const uint16_t*>(packet),
                         __ATOMIC_ACQUIRE);
}
void StoreHeader(void* packet, uint16_t header) {
  __atomic_store_n(static_cast<uint16_t*>(packet), header, __ATOMIC_RELEASE);
}
uint8_t PacketType(uint16_t header) {
  return (header >> HSA_PACKET_HEADER_TYPE) &
         ((1u << HSA_PACKET_HEADER_WIDTH_TYPE) - 1);
}

void Wake(Signal* s) {
  s->seq.fetch_add(1, std::memory_order_seq_cst);
  syscall(SYS_futex, reinterpret_cast<uint32_t*>(&s->seq), FUTEX_WAKE_PRIVATE,
          INT_MAX, nullptr, nullptr, 0);
}

bool PacketReady(Queue* q, uint64_t index, void* slot) {
  return q->write_index.load(std::memory_order_acquire) > index &&
         PacketType(LoadHeader(slot)) != HSA_PACKET_TYPE_INVALID;
}

bool RetryUpper(Queue* q);

// Waits until packet `index` may be taken (the doorbell has reached it and
// its header has been published) or the intercept queue above wants to
// retry. False when the queue is stopping.
bool AwaitPacket(Queue* q, uint64_t index, void* slot) {
  auto ready = [&] { return PacketReady(q, index, slot) || RetryUpper(q); };
  for (int i = 0; i < 4000; ++i) {
    if (q->stop.load(std::memory_order_relaxed)) return false;
    if (ready()) return true;
    __builtin_ia32_pause();
  }
  Signal* bell = q->doorbell;
  for (;;) {
    bell->waiters.fetch_add(1, std::memory_order_seq_cst);
    uint32_t seq = bell->seq.load(std::memory_order_seq_cst);
    bool go = q->stop.load(std::memory_order_seq_cst) || ready();
    if (!go) {
      // The doorbell wakes us; the timeout covers producers that publish a
      // header without ringing again.
      timespec ts{0, 1'000'000};
      syscall(SYS_futex, reinterpret_cast<uint32_t*>(&bell->seq),
              FUTEX_WAIT_PRIVATE, seq, &ts, nullptr, 0);
    }
    bell->waiters.fetch_sub(1, std::memory_order_seq_cst);
    if (q->stop.load(std::memory_order_relaxed)) return false;
    if (ready()) return true;
  }
}

// A barrier's dependencies are waited for in slices of this, looking at the
// queue's stop in between.
constexpr uint64_t kBarrierWaitSliceNs = 1'000'000;

// Waits until `h` is 0. False when the queue is destroyed (or inactivated)
// first: a GPU drops a destroyed queue's packets, so a barrier still waiting
// then never completes (and the destroy does not wait for it).
bool WaitZero(Queue* q, hsa_signal_t h) {
  if (h.handle == 0) return true;
  auto* s = reinterpret_cast<Signal*>(h.handle);
  const uint64_t slice = NsToSystemTicks(kBarrierWaitSliceNs);
  while (WaitOn(s, HSA_SIGNAL_CONDITION_EQ, 0, slice) != 0) {
    if (q->stop.load(std::memory_order_acquire)) return false;
  }
  return true;
}

struct Grid {
  const Kernel* kernel;
  const void* kernarg;
  const hsa_kernel_dispatch_packet_t* packet;
  uint64_t nx, ny;
};

void RunWorkgroup(uint64_t i, void* ctx) {
  auto* g = static_cast<Grid*>(ctx);
  g->kernel->fn(g->kernarg, g->packet, static_cast<uint32_t>(i % g->nx),
                static_cast<uint32_t>((i / g->nx) % g->ny),
                static_cast<uint32_t>(i / (g->nx * g->ny)));
}

void Fail(Queue* q, hsa_status_t status) {
  q->active.store(false);
  if (q->callback != nullptr) {
    q->callback(status, &q->q, q->callback_data);
  } else {
    fprintf(stderr, "softhsa: queue %lu stopped: error 0x%x\n",
            static_cast<unsigned long>(q->q.id), status);
  }
}

void Stamp(hsa_signal_t h, uint64_t start, uint64_t end) {
  if (h.handle == 0) return;
  auto* s = reinterpret_cast<Signal*>(h.handle);
  s->start_ticks.store(start, std::memory_order_relaxed);
  s->end_ticks.store(end, std::memory_order_relaxed);
}

// Before the signal moves, so that a waiter sees the queue's scratch state
// as of this packet.
void Complete(Queue* q, hsa_signal_t h, uint64_t index) {
  ScratchIfIdle(q, index);
  const Faults& f = GetFaults();
  uint64_t delay = f.dispatch_delay_us;
  if (f.delay_queue_id == q->q.id + 1) delay += f.delay_queue_us;
  if (delay) usleep(static_cast<useconds_t>(delay));
  if (h.handle != 0) Decrement(reinterpret_cast<Signal*>(h.handle));
}

// Gives a packet's slot back and moves the read index past it: when the
// packet is launched (a barrier once its dependencies are met), as a packet
// processor does, so completion is observed after the read index moved.
struct Launch {
  Queue* q;
  void* slot;
  uint64_t index;
  void operator()() const {
    StoreHeader(slot, HSA_PACKET_TYPE_INVALID << HSA_PACKET_HEADER_TYPE);
    q->read_index.store(index + 1, std::memory_order_release);
  }
};

// Runs the packet copied from `launch.slot` into `slot`. Returns false when
// the queue must stop (an error was reported).
bool Execute(Queue* q, void* slot, const Launch& launch) {
  const uint16_t header = LoadHeader(slot);
  const bool profile = q->profiling.load(std::memory_order_relaxed);
  switch (PacketType(header)) {
    case HSA_PACKET_TYPE_KERNEL_DISPATCH: {
      auto* p = static_cast<const hsa_kernel_dispatch_packet_t*>(slot);
      uint32_t dims = p->setup >> HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS;
      dims &= (1u << HSA_KERNEL_DISPATCH_PACKET_SETUP_WIDTH_DIMENSIONS) - 1;
      Kernel kernel;
      if (dims < 1 || dims > 3 || p->workgroup_size_x == 0 ||
          p->workgroup_size_y == 0 || p->workgroup_size_z == 0 ||
          p->grid_size_x == 0 || p->grid_size_y == 0 || p->grid_size_z == 0 ||
          uint64_t(p->workgroup_size_x) * p->workgroup_size_y *
                  p->workgroup_size_z >
              1024 ||
          !FindKernel(p->kernel_object, &kernel)) {
        Fail(q, HSA_STATUS_ERROR_INVALID_PACKET_FORMAT);
        return false;
      }
      const Faults& f = GetFaults();
      uint64_t n = g_dispatch_count.fetch_add(1) + 1;
      if (n == f.drop_queue_at) {
        q->active.store(false);  // dropped: nothing completes, nobody told
        return false;
      }
      if (n == f.dispatch_error_at) {
        Fail(q, HSA_STATUS_ERROR_EXCEPTION);
        return false;
      }
      const bool use_once = ScratchBeforeDispatch(q, *p, launch.index);
      launch();
      uint64_t start = profile ? DeviceTicks() : 0;
      Grid g{&kernel, p->kernarg_address, p,
             (p->grid_size_x + p->workgroup_size_x - 1) / p->workgroup_size_x,
             (p->grid_size_y + p->workgroup_size_y - 1) / p->workgroup_size_y};
      uint64_t nz =
          (p->grid_size_z + p->workgroup_size_z - 1) / p->workgroup_size_z;
      if (kernel.fn != nullptr) {
        ParallelFor(g.nx * g.ny * nz, &RunWorkgroup, &g);
      } else {
        NoteNoTwin(kernel.name);
      }
      ScratchAfterDispatch(q, use_once);
      if (profile) Stamp(p->completion_signal, start, DeviceTicks());
      Complete(q, p->completion_signal, launch.index);
      return true;
    }
    case HSA_PACKET_TYPE_BARRIER_AND: {
      auto* p = static_cast<const hsa_barrier_and_packet_t*>(slot);
      uint64_t start = profile ? DeviceTicks() : 0;
      for (const hsa_signal_t& dep : p->dep_signal) {
        if (!WaitZero(q, dep)) return false;
      }
      launch();
      if (profile) Stamp(p->completion_signal, start, DeviceTicks());
      Complete(q, p->completion_signal, launch.index);
      return true;
    }
    case HSA_PACKET_TYPE_BARRIER_OR: {
      auto* p = static_cast<const hsa_barrier_or_packet_t*>(slot);
      uint64_t start = profile ? DeviceTicks() : 0;
      hsa_signal_t deps[5];
      hsa_signal_condition_t conds[5];
      hsa_signal_value_t zeros[5];
      uint32_t n = 0;
      for (const hsa_signal_t& dep : p->dep_signal) {
        if (dep.handle == 0) continue;
        deps[n] = dep;
        conds[n] = HSA_SIGNAL_CONDITION_EQ;
        zeros[n++] = 0;
      }
      const uint64_t slice = NsToSystemTicks(kBarrierWaitSliceNs);
      while (n > 0 && api::hsa_amd_signal_wait_any(n, deps, conds, zeros, slice,
                                                   HSA_WAIT_STATE_BLOCKED,
                                                   nullptr) >= n) {
        if (q->stop.load(std::memory_order_acquire)) return false;
      }
      launch();
      if (profile) Stamp(p->completion_signal, start, DeviceTicks());
      Complete(q, p->completion_signal, launch.index);
      return true;
    }
    case HSA_PACKET_TYPE_VENDOR_SPECIFIC: {
      auto* p = static_cast<const hsa_amd_barrier_value_packet_t*>(slot);
      if (p->header.AmdFormat != HSA_AMD_PACKET_TYPE_BARRIER_VALUE) {
        Fail(q, HSA_STATUS_ERROR_INVALID_PACKET_FORMAT);
        return false;
      }
      if (p->signal.handle != 0) {
        auto* s = reinterpret_cast<Signal*>(p->signal.handle);
        // (value & mask) cond value: re-checked on every change of s.
        for (;;) {
          int64_t v = s->value.load(std::memory_order_acquire);
          if (Satisfied(v & p->mask,
                        static_cast<hsa_signal_condition_t>(p->cond),
                        p->value)) {
            break;
          }
          WaitOn(s, HSA_SIGNAL_CONDITION_NE, v, UINT64_MAX);
        }
      }
      launch();
      Complete(q, p->completion_signal, launch.index);
      return true;
    }
    default:  // agent dispatch (kernel agents take none) and unknown types
      Fail(q, HSA_STATUS_ERROR_INVALID_PACKET_FORMAT);
      return false;
  }
}

void Drain(Queue* q);

// True when the intercept queue above `q` left packets over that now may fit.
bool RetryUpper(Queue* q) {
  return q->upper != nullptr && q->upper->retry.load(std::memory_order_seq_cst);
}

void Process(Queue* q) {
  pthread_setname_np(pthread_self(), "softhsa-queue");
  auto* ring = static_cast<uint8_t*>(q->q.base_address);
  for (;;) {
    if (RetryUpper(q) && q->upper->retry.exchange(false)) Drain(q->upper);
    uint64_t r = q->read_index.load(std::memory_order_relaxed);
    void* slot = ring + (r & (q->q.size - 1)) * 64;
    if (!AwaitPacket(q, r, slot)) return;
    if (RetryUpper(q) && !PacketReady(q, r, slot)) continue;
    // The kernel sees this copy: the slot may be reused once launched.
    alignas(64) uint8_t packet[64];
    memcpy(packet + 2, static_cast<uint8_t*>(slot) + 2, 62);
    uint16_t header = LoadHeader(slot);
    memcpy(packet, &header, 2);
    if (!Execute(q, packet, Launch{q, slot, r})) return;
  }
}

// Room in `q`'s ring, as its one producer (an intercept queue's drain) sees it.
uint64_t FreeSlots(Queue* q) {
  return q->q.size - (q->write_index.load(std::memory_order_acquire) -
                      q->read_index.load(std::memory_order_acquire));
}

// Writes packets into the lower queue `q` as a producer would, never
// waiting: all of them or none (a rewrite's packets reach the queue
// together), unless they could never fit at once. Returns how many it wrote.
// The first header is published last, so the processor takes none early.
uint64_t SubmitSome(Queue* q, const uint8_t* packets, uint64_t count) {
  uint64_t n = FreeSlots(q);
  if (count <= q->q.size) {
    if (n < count) return 0;
    n = count;
  } else if (n > count) {
    n = count;
  }
  if (n == 0) return 0;
  auto* ring = static_cast<uint8_t*>(q->q.base_address);
  const uint64_t mask = q->q.size - 1;
  const uint64_t first = q->write_index.load(std::memory_order_relaxed);
  for (uint64_t i = 0; i < n; ++i) {
    uint8_t* dst = ring + ((first + i) & mask) * 64;
    memcpy(dst + 2, packets + i * 64 + 2, 62);
    if (i > 0) StoreHeader(dst, LoadHeader(packets + i * 64));
  }
  q->write_index.store(first + n, std::memory_order_release);
  StoreHeader(ring + (first & mask) * 64, LoadHeader(packets));
  q->doorbell->value.store(static_cast<int64_t>(first + n - 1),
                           std::memory_order_release);
  Notify(q->doorbell);
  return n;
}

using Handlers = std::vector<std::pair<hsa_amd_queue_intercept_handler, void*>>;

// Where the packet writer of the interceptor running on this thread leads:
// interceptors run last registered first (ROCR's order), each writer passing
// packets to the one registered before it, the first one's writer into the
// lower queue.
struct Cursor {
  Queue* q;
  const Handlers* handlers;
  size_t remaining;  // interceptors still ahead of the lower queue
  uint64_t index;    // the intercepted packet's index in q
};
thread_local Cursor t_cursor{nullptr, nullptr, 0, 0};

// The last writer: into the lower queue, or behind what already waits.
void FinalSubmit(Queue* q, const void* packets, uint64_t count) {
  const auto* p = static_cast<const uint8_t*>(packets);
  uint64_t done = q->overflow.empty() ? SubmitSome(q->lower, p, count) : 0;
  for (uint64_t i = done; i < count; ++i) {
    std::array<uint8_t, 64> packet;
    memcpy(packet.data(), p + i * 64, 64);
    q->overflow.push_back(packet);
  }
  if (done < count) {
    q->retry.store(true, std::memory_order_seq_cst);
    Wake(q->lower->doorbell);
  }
}

void InterceptWriter(const void* packets, uint64_t count);

void Pass(Cursor at, const void* packets, uint64_t count) {
  if (at.remaining == 0) {
    FinalSubmit(at.q, packets, count);
    return;
  }
  const Cursor saved = t_cursor;
  t_cursor = Cursor{at.q, at.handlers, at.remaining - 1, at.index};
  const auto& h = (*at.handlers)[at.remaining - 1];
  h.first(packets, count, at.index, h.second, &InterceptWriter);
  t_cursor = saved;
}

void InterceptWriter(const void* packets, uint64_t count) {
  if (t_cursor.q == nullptr || packets == nullptr || count == 0) return;
  Pass(t_cursor, packets, count);
}

void Drain(Queue* q);
void DrainLater(void* q) { Drain(static_cast<Queue*>(q)); }

// What ringing an intercept queue's doorbell does (ROCR's
// InterceptQueue::StoreRelaxed): on the ringing thread, every published
// packet from the last one taken goes through the interceptors; its slot
// returns to INVALID and the read index moves past it. Packets left over by
// a full lower queue go first, and stop the drain until they are in.
void Drain(Queue* q) {
  if (!q->active.load(std::memory_order_acquire)) return;
  if (t_cursor.q != nullptr) {
    // Rung from inside an interceptor: taken later on a runtime thread, as
    // ROCR hands it to its asynchronous doorbell.
    api::hsa_amd_async_function(&DrainLater, q);
    return;
  }
  std::lock_guard<std::mutex> lock(q->drain_mutex);
  if (!q->overflow.empty()) {
    std::vector<std::array<uint8_t, 64>> waiting;
    waiting.swap(q->overflow);
    uint64_t done =
        SubmitSome(q->lower, waiting.front().data(), waiting.size());
    if (done < waiting.size()) {
      q->overflow.assign(waiting.begin() + static_cast<ptrdiff_t>(done),
                         waiting.end());
      q->retry.store(true, std::memory_order_seq_cst);
      return;
    }
  }
  // A snapshot (handlers may register meanwhile), kept per thread so a
  // doorbell allocates nothing once warm.
  thread_local Handlers handlers;
  {
    std::lock_guard<std::mutex> h(q->intercept_mutex);
    handlers.assign(q->interceptors.begin(), q->interceptors.end());
  }
  auto* ring = static_cast<uint8_t*>(q->q.base_address);
  const uint64_t mask = q->q.size - 1;
  uint64_t end = q->write_index.load(std::memory_order_acquire);
  if (end > q->next_packet + q->q.size) end = q->next_packet + q->q.size;
  uint64_t i = q->next_packet;
  while (i < end) {
    void* slot = ring + (i & mask) * 64;
    const uint16_t header = LoadHeader(slot);
    if (PacketType(header) == HSA_PACKET_TYPE_INVALID) break;
    alignas(64) uint8_t packet[64];
    memcpy(packet + 2, static_cast<uint8_t*>(slot) + 2, 62);
    memcpy(packet, &header, 2);
    Pass(Cursor{q, &handlers, handlers.size(), i}, packet, 1);
    StoreHeader(slot, HSA_PACKET_TYPE_INVALID << HSA_PACKET_HEADER_TYPE);
    ++i;
    q->read_index.store(i, std::memory_order_release);
    if (!q->overflow.empty()) break;
  }
  q->next_packet = i;
}

void OnDoorbell(void* q) { Drain(static_cast<Queue*>(q)); }

hsa_status_t CheckCreate(hsa_agent_t agent, uint32_t size,
                         hsa_queue_type32_t type, hsa_queue_t** queue) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  Agent* a = ToAgent(agent);
  if (a == nullptr) return HSA_STATUS_ERROR_INVALID_AGENT;
  if (queue == nullptr || size == 0 || (size & (size - 1)) != 0 ||
      size < kMinSize || size > kMaxSize ||
      (type != HSA_QUEUE_TYPE_MULTI && type != HSA_QUEUE_TYPE_SINGLE &&
       type != HSA_QUEUE_TYPE_COOPERATIVE)) {
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  if (a->type != HSA_DEVICE_TYPE_GPU || type == HSA_QUEUE_TYPE_COOPERATIVE) {
    return HSA_STATUS_ERROR_INVALID_QUEUE_CREATION;
  }
  return HSA_STATUS_SUCCESS;
}

// `take_id`: false for an intercept queue, which shows the application the
// id of the queue that executes its packets (so SOFTHSA_FAULTS names queues
// by the same ids with and without a tool intercepting them).
Queue* NewQueue(Agent* a, uint32_t size, hsa_queue_type32_t type,
                void (*callback)(hsa_status_t, hsa_queue_t*, void*), void* data,
                bool take_id = true) {
  auto* q = new Queue;
  q->agent = a;
  q->q.type = type;
  q->q.features = HSA_QUEUE_FEATURE_KERNEL_DISPATCH;
  q->q.size = size;
  q->q.id = take_id ? g_next_id.fetch_add(1) : 0;
  q->q.base_address = aligned_alloc(64, size_t{size} * 64);
  for (uint32_t i = 0; i < size; ++i) {
    auto* slot = static_cast<uint8_t*>(q->q.base_address) + size_t{i} * 64;
    memset(slot, 0, 64);
    StoreHeader(slot, HSA_PACKET_TYPE_INVALID << HSA_PACKET_HEADER_TYPE);
  }
  hsa_signal_t bell;
  api::hsa_signal_create(0, 0, nullptr, &bell);
  q->doorbell = reinterpret_cast<Signal*>(bell.handle);
  q->q.doorbell_signal = bell;
  q->callback = callback;
  q->callback_data = data;
  return q;
}

void Destroy(Queue* q) {
  q->doorbell->on_store = nullptr;
  q->stop.store(true);
  Wake(q->doorbell);
  if (q->processor.joinable()) q->processor.join();
  ScratchOnDestroy(q);
  if (q->lower) Destroy(q->lower);
  if (q->own_doorbell) api::hsa_signal_destroy(q->q.doorbell_signal);
  free(q->q.base_address);
  delete q;
}

}  // namespace

void DestroyAllQueues() {
  std::unordered_set<Queue*> queues;
  {
    std::lock_guard<std::mutex> lock(g_queues_mutex);
    queues.swap(g_queues);
  }
  for (Queue* q : queues) Destroy(q);
  StopWorkers();
  // A new hsa_init starts over: SOFTHSA_FAULTS counts dispatches and names
  // queues by id from there.
  g_next_id.store(0);
  g_dispatch_count.store(0);
}

namespace api {

hsa_status_t hsa_queue_create(
    hsa_agent_t agent, uint32_t size, hsa_queue_type32_t type,
    void (*callback)(hsa_status_t, hsa_queue_t*, void*), void* data, uint32_t,
    uint32_t, hsa_queue_t** queue) {
  hsa_status_t s = CheckCreate(agent, size, type, queue);
  if (s != HSA_STATUS_SUCCESS) return s;
  Queue* q = NewQueue(ToAgent(agent), size, type, callback, data);
  q->processor = std::thread(Process, q);
  {
    std::lock_guard<std::mutex> lock(g_queues_mutex);
    g_queues.insert(q);
  }
  *queue = &q->q;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_queue_intercept_create(
    hsa_agent_t agent, uint32_t size, hsa_queue_type32_t type,
    void (*callback)(hsa_status_t, hsa_queue_t*, void*), void* data, uint32_t,
    uint32_t, hsa_queue_t** queue) {
  hsa_status_t s = CheckCreate(agent, size, type, queue);
  if (s != HSA_STATUS_SUCCESS) return s;
  // Errors of the executing queue are reported against the queue the
  // application holds.
  Queue* lower = NewQueue(ToAgent(agent), size, type, nullptr, nullptr);
  Queue* q = NewQueue(ToAgent(agent), size, type, callback, data, false);
  q->q.id = lower->q.id;
  q->lower = lower;
  lower->upper = q;
  q->doorbell->on_store = &OnDoorbell;
  q->doorbell->on_store_arg = q;
  q->lower->callback = [](hsa_status_t status, hsa_queue_t*, void* upper) {
    auto* u = static_cast<Queue*>(upper);
    u->active.store(false);
    if (u->callback) u->callback(status, &u->q, u->callback_data);
  };
  q->lower->callback_data = q;
  q->lower->processor = std::thread(Process, q->lower);
  {
    std::lock_guard<std::mutex> lock(g_queues_mutex);
    g_queues.insert(q);
  }
  *queue = &q->q;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_queue_intercept_register(
    hsa_queue_t* queue, hsa_amd_queue_intercept_handler callback,
    void* user_data) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (queue == nullptr || callback == nullptr) {
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  Queue* q = ToQueue(queue);
  {
    std::lock_guard<std::mutex> lock(g_queues_mutex);
    if (!g_queues.count(q)) return HSA_STATUS_ERROR_INVALID_QUEUE;
  }
  if (q->lower == nullptr) return HSA_STATUS_ERROR_INVALID_QUEUE;
  std::lock_guard<std::mutex> lock(q->intercept_mutex);
  q->interceptors.emplace_back(callback, user_data);
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_runtime_queue_create_register(
    hsa_amd_runtime_queue_notifier callback, void*) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (callback == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  // The runtime creates no internal queues (copies run on threads), so the
  // notifier is kept and never called.
  g_runtime_queue_notifier = callback;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_soft_queue_create(hsa_region_t region, uint32_t size,
                                   hsa_queue_type32_t type, uint32_t features,
                                   hsa_signal_t doorbell_signal,
                                   hsa_queue_t** queue) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (ToPool(region.handle) == nullptr) return HSA_STATUS_ERROR_INVALID_REGION;
  Signal* bell = ToSignal(doorbell_signal);
  if (bell == nullptr) return HSA_STATUS_ERROR_INVALID_SIGNAL;
  if (queue == nullptr || size == 0 || (size & (size - 1)) != 0 ||
      features == 0) {
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  // No processor: the application is the packet processor of a soft queue.
  auto* q = new Queue;
  q->own_doorbell = false;
  q->doorbell = bell;
  q->q.type = type;
  q->q.features = features;
  q->q.size = size;
  q->q.id = g_next_id.fetch_add(1);
  q->q.doorbell_signal = doorbell_signal;
  q->q.base_address = aligned_alloc(64, size_t{size} * 64);
  for (uint32_t i = 0; i < size; ++i) {
    auto* slot = static_cast<uint8_t*>(q->q.base_address) + size_t{i} * 64;
    memset(slot, 0, 64);
    StoreHeader(slot, HSA_PACKET_TYPE_INVALID << HSA_PACKET_HEADER_TYPE);
  }
  {
    std::lock_guard<std::mutex> lock(g_queues_mutex);
    g_queues.insert(q);
  }
  *queue = &q->q;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_queue_destroy(hsa_queue_t* queue) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (queue == nullptr) return HSA_STATUS_ERROR_INVALID_QUEUE;
  Queue* q = ToQueue(queue);
  {
    std::lock_guard<std::mutex> lock(g_queues_mutex);
    if (g_queues.erase(q) == 0) return HSA_STATUS_ERROR_INVALID_QUEUE;
  }
  Destroy(q);
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_queue_inactivate(hsa_queue_t* queue) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (queue == nullptr) return HSA_STATUS_ERROR_INVALID_QUEUE;
  Queue* q = ToQueue(queue);
  std::lock_guard<std::mutex> lock(g_queues_mutex);
  if (!g_queues.count(q)) return HSA_STATUS_ERROR_INVALID_QUEUE;
  q->active.store(false);
  q->stop.store(true);
  Wake(q->doorbell);
  if (q->lower) {
    q->lower->stop.store(true);
    Wake(q->lower->doorbell);
  }
  return HSA_STATUS_SUCCESS;
}

// Index operations: on the application's path for every packet, so no
// validation (ROCR validates none either).
uint64_t hsa_queue_load_read_index_scacquire(const hsa_queue_t* q) {
  return ToQueue(q)->read_index.load(std::memory_order_acquire);
}
uint64_t hsa_queue_load_read_index_relaxed(const hsa_queue_t* q) {
  return ToQueue(q)->read_index.load(std::memory_order_relaxed);
}
uint64_t hsa_queue_load_write_index_scacquire(const hsa_queue_t* q) {
  return ToQueue(q)->write_index.load(std::memory_order_acquire);
}
uint64_t hsa_queue_load_write_index_relaxed(const hsa_queue_t* q) {
  return ToQueue(q)->write_index.load(std::memory_order_relaxed);
}
void hsa_queue_store_write_index_relaxed(const hsa_queue_t* q, uint64_t v) {
  ToQueue(q)->write_index.store(v, std::memory_order_relaxed);
}
void hsa_queue_store_write_index_screlease(const hsa_queue_t* q, uint64_t v) {
  ToQueue(q)->write_index.store(v, std::memory_order_release);
}
void hsa_queue_store_read_index_relaxed(const hsa_queue_t* q, uint64_t v) {
  ToQueue(q)->read_index.store(v, std::memory_order_relaxed);
}
void hsa_queue_store_read_index_screlease(const hsa_queue_t* q, uint64_t v) {
  ToQueue(q)->read_index.store(v, std::memory_order_release);
}

#define INDEX_RMW(suffix, order)                                    \
  uint64_t hsa_queue_cas_write_index_##suffix(                      \
      const hsa_queue_t* q, uint64_t expected, uint64_t value) {    \
    ToQueue(q)->write_index.compare_exchange_strong(                \
        expected, value, order, std::memory_order_relaxed);         \
    return expected;                                                \
  }                                                                 \
  uint64_t hsa_queue_add_write_index_##suffix(const hsa_queue_t* q, \
                                              uint64_t value) {     \
    return ToQueue(q)->write_index.fetch_add(value, order);         \
  }
INDEX_RMW(relaxed, std::memory_order_relaxed)
INDEX_RMW(scacquire, std::memory_order_acquire)
INDEX_RMW(screlease, std::memory_order_release)
INDEX_RMW(scacq_screl, std::memory_order_acq_rel)
#undef INDEX_RMW

hsa_status_t hsa_amd_profiling_set_profiler_enabled(hsa_queue_t* queue,
                                                    int enable) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (queue == nullptr) return HSA_STATUS_ERROR_INVALID_QUEUE;
  Queue* q = ToQueue(queue);
  {
    std::lock_guard<std::mutex> lock(g_queues_mutex);
    if (!g_queues.count(q)) return HSA_STATUS_ERROR_INVALID_QUEUE;
  }
  q->profiling.store(enable != 0);
  if (q->lower) q->lower->profiling.store(enable != 0);
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_profiling_get_dispatch_time(
    hsa_agent_t agent, hsa_signal_t signal,
    hsa_amd_profiling_dispatch_time_t* time) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  Agent* a = ToAgent(agent);
  if (a == nullptr || a->type != HSA_DEVICE_TYPE_GPU) {
    return HSA_STATUS_ERROR_INVALID_AGENT;
  }
  Signal* s = ToSignal(signal);
  if (s == nullptr) return HSA_STATUS_ERROR_INVALID_SIGNAL;
  if (time == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  time->start = DeviceToSystem(s->start_ticks.load(std::memory_order_relaxed));
  time->end = DeviceToSystem(s->end_ticks.load(std::memory_order_relaxed));
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_queue_cu_set_mask(const hsa_queue_t* queue,
                                       uint32_t num_cu_mask_count,
                                       const uint32_t* cu_mask) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (queue == nullptr) return HSA_STATUS_ERROR_INVALID_QUEUE;
  if (num_cu_mask_count == 0 || num_cu_mask_count % 32 != 0 ||
      cu_mask == nullptr) {
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  return HSA_STATUS_SUCCESS;  // workgroups run on any worker thread
}

hsa_status_t hsa_amd_queue_set_priority(hsa_queue_t* queue,
                                        hsa_amd_queue_priority_t priority) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (queue == nullptr) return HSA_STATUS_ERROR_INVALID_QUEUE;
  if (priority < HSA_AMD_QUEUE_PRIORITY_LOW ||
      priority > HSA_AMD_QUEUE_PRIORITY_HIGH) {
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  return HSA_STATUS_SUCCESS;
}

}  // namespace api
}  // namespace softhsa
