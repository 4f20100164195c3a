// Asynchronous copies, done by one runtime thread (the "copy engine"). A copy
// starts once all its dependency signals are 0; copies whose dependencies are
// met run in submission order, a copy still waiting does not hold up later
// independent ones. With profiling enabled
// (hsa_amd_profiling_async_copy_enable) the engine stamps start and end with
// the device clock; the times are read in the system domain, as ROCR's.
#include <pthread.h>
#include <unistd.h>

#include <cstring>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

#include "softhsa/api.h"
#include "softhsa/signal.h"

namespace softhsa {
namespace {

struct Copy {
  std::vector<hsa_signal_t> deps;
  Signal* completion;
  // A rectangle of range_y rows of range_x bytes in range_z slices; a linear
  // copy is one row.
  uint8_t* dst;
  const uint8_t* src;
  size_t dst_pitch, dst_slice, src_pitch, src_slice;
  size_t range_x, range_y, range_z;
};

std::mutex& g_mutex = *new std::mutex;
std::deque<Copy>& g_pending = *new std::deque<Copy>;
std::thread& g_thread = *new std::thread;
bool g_stop = false;
std::atomic<bool> g_profiling{false};
std::atomic<uint64_t> g_count{0};
// Held by whoever runs a copy (the engine, or a waiter standing in for it)
// from taking it off the list until its completion, so that copies run one
// at a time in the order they are taken, as on the one engine.
std::mutex& g_run_mutex = *new std::mutex;
// g_pending.size(), for a waiter's look without the lock.
std::atomic<size_t> g_pending_count{0};

bool Ready(const Copy& c) {
  for (hsa_signal_t d : c.deps) {
    if (reinterpret_cast<Signal*>(d.handle)->value.load(
            std::memory_order_acquire) != 0) {
      return false;
    }
  }
  return true;
}

void Perform(const Copy& c) {
  const Faults& f = GetFaults();
  const bool profile = g_profiling.load(std::memory_order_relaxed);
  uint64_t start = profile ? DeviceTicks() : 0;
  // Faults are the data copies': an empty rectangle neither counts nor is
  // delayed, as barrier packets are not dispatches.
  if (c.range_x * c.range_y * c.range_z != 0) {
    uint64_t n = g_count.fetch_add(1) + 1;
    if (f.copy_delay_us) usleep(static_cast<useconds_t>(f.copy_delay_us));
    if (n == f.copy_error_at) {
      Complete(c.completion, -1);
      return;
    }
  }
  for (size_t z = 0; z < c.range_z; ++z) {
    for (size_t y = 0; y < c.range_y; ++y) {
      memmove(c.dst + z * c.dst_slice + y * c.dst_pitch,
              c.src + z * c.src_slice + y * c.src_pitch, c.range_x);
    }
  }
  if (profile) {
    c.completion->start_ticks.store(start, std::memory_order_relaxed);
    c.completion->end_ticks.store(DeviceTicks(), std::memory_order_relaxed);
  }
  Decrement(c.completion);
}

// Takes the first copy whose dependencies are met off the list; false when
// there is none, when it is larger than `max_bytes` (it stays first), or
// when the engine is stopping.
bool Take(Copy* job, size_t max_bytes = SIZE_MAX) {
  std::lock_guard<std::mutex> lock(g_mutex);
  if (g_stop) return false;
  for (auto it = g_pending.begin(); it != g_pending.end(); ++it) {
    if (Ready(*it)) {
      if (it->range_x * it->range_y * it->range_z > max_bytes) return false;
      *job = std::move(*it);
      g_pending.erase(it);
      g_pending_count.store(g_pending.size(), std::memory_order_relaxed);
      return true;
    }
  }
  return false;
}

// Runs a taken copy; the caller holds g_run_mutex.
void RunTaken(const Copy& job) {
  for (hsa_signal_t d : job.deps) {
    reinterpret_cast<Signal*>(d.handle)->watchers.fetch_sub(1);
  }
  Perform(job);
}

void Run() {
  // Named for whoever counts what each thread costs (top, perf, a tool).
  pthread_setname_np(pthread_self(), "softhsa-copy");
  for (;;) {
    uint32_t seen = WatchSeq();
    bool ran = false;
    {
      std::lock_guard<std::mutex> run(g_run_mutex);
      {
        std::lock_guard<std::mutex> lock(g_mutex);
        if (g_stop) return;
      }
      Copy job;
      ran = Take(&job);
      if (ran) RunTaken(job);
    }
    if (!ran) WaitWatch(seen, UINT64_MAX);
  }
}

hsa_status_t Enqueue(Copy c, uint32_t num_deps, const hsa_signal_t* deps,
                     hsa_signal_t completion) {
  c.completion = ToSignal(completion);
  if (c.completion == nullptr) return HSA_STATUS_ERROR_INVALID_SIGNAL;
  if (num_deps > 0 && deps == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  for (uint32_t i = 0; i < num_deps; ++i) {
    Signal* s = ToSignal(deps[i]);
    if (s == nullptr) return HSA_STATUS_ERROR_INVALID_SIGNAL;
    c.deps.push_back(deps[i]);
  }
  for (hsa_signal_t d : c.deps) {
    reinterpret_cast<Signal*>(d.handle)->watchers.fetch_add(1);
  }
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    if (!g_thread.joinable()) {
      g_stop = false;
      g_thread = std::thread(Run);
    }
    g_pending.push_back(std::move(c));
    g_pending_count.store(g_pending.size(), std::memory_order_relaxed);
  }
  BumpWatch();
  return HSA_STATUS_SUCCESS;
}

}  // namespace

bool RunCopyForWaiter() {
  if (g_pending_count.load(std::memory_order_relaxed) == 0) return false;
  // A delayed copy (SOFTHSA_FAULTS) stays on the engine: a waiter running
  // it would sleep through its own timeout.
  if (GetFaults().copy_delay_us != 0) return false;
  std::unique_lock<std::mutex> run(g_run_mutex, std::try_to_lock);
  if (!run.owns_lock()) return false;  // the engine is running one
  // Only small copies: a wait whose own signal is met meanwhile returns
  // late by the copy's time, as a wait on real hardware never does.
  constexpr size_t kWaiterCopyBytes = 64 << 10;
  Copy job;
  if (!Take(&job, kWaiterCopyBytes)) return false;
  RunTaken(job);
  return true;
}

void StopCopyThread() {
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    g_stop = true;
    g_pending.clear();
    g_pending_count.store(0, std::memory_order_relaxed);
  }
  BumpWatch();
  if (g_thread.joinable()) g_thread.join();
  g_count.store(0);
  g_profiling.store(false);
}

namespace api {

hsa_status_t hsa_amd_memory_async_copy(void* dst, hsa_agent_t dst_agent,
                                       const void* src, hsa_agent_t src_agent,
                                       size_t size, uint32_t num_dep_signals,
                                       const hsa_signal_t* dep_signals,
                                       hsa_signal_t completion_signal) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (ToAgent(dst_agent) == nullptr || ToAgent(src_agent) == nullptr) {
    return HSA_STATUS_ERROR_INVALID_AGENT;
  }
  if (dst == nullptr || src == nullptr)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (ToSignal(completion_signal) == nullptr) {
    return HSA_STATUS_ERROR_INVALID_SIGNAL;
  }
  // As ROCR (5.2 through 7.x): a copy of 0 bytes is accepted and does
  // nothing, its completion signal included.
  if (size == 0) return HSA_STATUS_SUCCESS;
  Copy c{};
  c.dst = static_cast<uint8_t*>(dst);
  c.src = static_cast<const uint8_t*>(src);
  c.range_x = size;
  c.range_y = c.range_z = 1;
  return Enqueue(std::move(c), num_dep_signals, dep_signals, completion_signal);
}

hsa_status_t hsa_amd_memory_async_copy_rect(
    const hsa_pitched_ptr_t* dst, const hsa_dim3_t* dst_offset,
    const hsa_pitched_ptr_t* src, const hsa_dim3_t* src_offset,
    const hsa_dim3_t* range, hsa_agent_t copy_agent,
    hsa_amd_copy_direction_t dir, uint32_t num_dep_signals,
    const hsa_signal_t* dep_signals, hsa_signal_t completion_signal) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (ToAgent(copy_agent) == nullptr) return HSA_STATUS_ERROR_INVALID_AGENT;
  if (dst == nullptr || src == nullptr || dst_offset == nullptr ||
      src_offset == nullptr || range == nullptr || dst->base == nullptr ||
      src->base == nullptr || dir < hsaHostToHost || dir > hsaDeviceToDevice) {
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  // Rows must fit their pitch and slices their slice pitch.
  if (dst_offset->x + range->x > dst->pitch ||
      src_offset->x + range->x > src->pitch ||
      (range->z > 1 &&
       (dst->slice < dst->pitch * (dst_offset->y + range->y) ||
        src->slice < src->pitch * (src_offset->y + range->y)))) {
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  Copy c{};
  c.dst = static_cast<uint8_t*>(dst->base) + dst_offset->z * dst->slice +
          dst_offset->y * dst->pitch + dst_offset->x;
  c.src = static_cast<const uint8_t*>(src->base) + src_offset->z * src->slice +
          src_offset->y * src->pitch + src_offset->x;
  c.dst_pitch = dst->pitch;
  c.dst_slice = dst->slice;
  c.src_pitch = src->pitch;
  c.src_slice = src->slice;
  c.range_x = range->x;
  c.range_y = range->y;
  c.range_z = range->z;
  return Enqueue(std::move(c), num_dep_signals, dep_signals, completion_signal);
}

#if HSA_AMD_INTERFACE_VERSION_MINOR >= 2
// A linear copy on a chosen copy engine, checked as ROCR checks it: the
// engine is one bit (HSA_AMD_SDMA_ENGINE_n), among the copy agent's engines
// (the GPU side's; no xGMI engines here), and on gfx90a engine 0 takes
// host-to-device copies only. A copy within one GPU uses a blit kernel
// unless force_copy_on_sdma; here every copy runs on the copy thread.
hsa_status_t hsa_amd_memory_async_copy_on_engine(
    void* dst, hsa_agent_t dst_agent, const void* src, hsa_agent_t src_agent,
    size_t size, uint32_t num_dep_signals, const hsa_signal_t* dep_signals,
    hsa_signal_t completion_signal, hsa_amd_sdma_engine_id_t engine_id,
    bool force_copy_on_sdma) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (dst == nullptr || src == nullptr)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if ((num_dep_signals == 0) != (dep_signals == nullptr)) {
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  Agent* d = ToAgent(dst_agent);
  Agent* s = ToAgent(src_agent);
  if (d == nullptr || s == nullptr) return HSA_STATUS_ERROR_INVALID_AGENT;
  if (d->type != HSA_DEVICE_TYPE_GPU && s->type != HSA_DEVICE_TYPE_GPU) {
    return HSA_STATUS_ERROR_INVALID_AGENT;
  }
  const uint32_t id = static_cast<uint32_t>(engine_id);
  if (id == 0 || (id & (id - 1)) != 0) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  const int engine = __builtin_ctz(id);  // 0-based
  if (engine >= static_cast<int>(kSdmaEngines)) {
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  const Agent* copy_agent = s->type == HSA_DEVICE_TYPE_GPU ? s : d;
  const bool host_to_device =
      s->type == HSA_DEVICE_TYPE_CPU && d->type == HSA_DEVICE_TYPE_GPU;
  if (engine == 0 && !host_to_device && s != d &&
      copy_agent->name == "gfx90a") {
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  if (size == 0)
    return HSA_STATUS_SUCCESS;  // nothing to copy, nothing signalled
  (void)force_copy_on_sdma;
  return api::hsa_amd_memory_async_copy(dst, dst_agent, src, src_agent, size,
                                        num_dep_signals, dep_signals,
                                        completion_signal);
}

// Which engines could take a copy now: every engine is free here (copies
// queue on one thread). As ROCR: engine 0 for host to device, engine 1 for
// device to host (and other directions), engine 0 also for those except on
// gfx90a; the two agents must differ.
hsa_status_t hsa_amd_memory_copy_engine_status(hsa_agent_t dst_agent,
                                               hsa_agent_t src_agent,
                                               uint32_t* engine_ids_mask) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  Agent* d = ToAgent(dst_agent);
  Agent* s = ToAgent(src_agent);
  if (d == nullptr || s == nullptr || d == s) {
    return HSA_STATUS_ERROR_INVALID_AGENT;
  }
  if (d->type != HSA_DEVICE_TYPE_GPU && s->type != HSA_DEVICE_TYPE_GPU) {
    return HSA_STATUS_ERROR_INVALID_AGENT;
  }
  if (engine_ids_mask == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  const Agent* copy_agent = s->type == HSA_DEVICE_TYPE_GPU ? s : d;
  const bool host_to_device =
      s->type == HSA_DEVICE_TYPE_CPU && d->type == HSA_DEVICE_TYPE_GPU;
  uint32_t mask = HSA_AMD_SDMA_ENGINE_1;
  if (host_to_device || copy_agent->name != "gfx90a") {
    mask |= HSA_AMD_SDMA_ENGINE_0;
  }
  *engine_ids_mask = mask;
  return HSA_STATUS_SUCCESS;
}
#endif

hsa_status_t hsa_amd_profiling_async_copy_enable(bool enable) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  g_profiling.store(enable);
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_profiling_get_async_copy_time(
    hsa_signal_t signal, hsa_amd_profiling_async_copy_time_t* time) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  Signal* s = ToSignal(signal);
  if (s == nullptr) return HSA_STATUS_ERROR_INVALID_SIGNAL;
  if (time == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  time->start = DeviceToSystem(s->start_ticks.load(std::memory_order_relaxed));
  time->end = DeviceToSystem(s->end_ticks.load(std::memory_order_relaxed));
  return HSA_STATUS_SUCCESS;
}

}  // namespace api
}  // namespace softhsa
